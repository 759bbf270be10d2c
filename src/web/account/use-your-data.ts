import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from '../router/router.js';
import { dataExportFileName } from '../../shared/account.js';
import type { Role } from '../../shared/auth.js';
import { paths } from '../../shared/paths.js';
import { sessionKey } from '../auth/use-session.js';
import { allKitchenOrdersKey } from '../kitchen-orders/use-kitchen-orders.js';
import { allOwnKitchensKey } from '../kitchen-registration/use-own-kitchen.js';
import { ApiError, api } from '../lib/api-client.js';
import { myOrderKey, myOrdersKey } from '../orders/use-my-order.js';
import { t } from '../i18n.js';
import { accountLeaving } from './leaving.js';

const exportUrl = (role: Role) => `/api/account/${role}/export`;

/** The file name the server gave in `content-disposition`, or today's. */
function fileNameOf(response: Response): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? dataExportFileName(new Date());
}

/**
 * 'Download my data': asks for the file (so that a refusal can be shown on the page, not as a downloaded error)
 * and hands it to the browser as a download.
 */
export async function downloadMyData(role: Role): Promise<void> {
  let response: Response;
  try {
    response = await fetch(exportUrl(role), {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
  } catch {
    throw new ApiError(0, {
      code: 'NETWORK',
      message: t('Could not reach the server. Check your connection and try again.'),
    });
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as
      { code?: string; message?: string } | undefined;
    throw new ApiError(response.status, {
      code: body?.code ?? `HTTP_${response.status}`,
      message: body?.message ?? t('The server answered {status}', { status: String(response.status) }),
    });
  }
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileNameOf(response);
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Once the browser has taken the file.
    window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}

/**
 * 'Delete my account': deletes it on the server, goes home (before the page's sign-in guard notices the session is
 * gone), then forgets everything this tab held of the person (both identities may have been theirs: who is signed
 * in is asked again). A refusal (an order in progress) throws, and changes nothing here.
 */
export function useDeleteAccount(role: Role) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    accountLeaving.start();
    try {
      await api.delete(`/api/account/${role}`);
      // Committed at once (not as a transition): the page left must be gone before the session is asked again, or
      // its sign-in guard, seeing nobody signed in, would send the visitor to sign in instead (seen under load).
      await navigate(paths.home.href(), { flushSync: true });
      for (const queryKey of [allOwnKitchensKey, allKitchenOrdersKey, myOrderKey, myOrdersKey])
        queryClient.removeQueries({ queryKey });
      await queryClient.invalidateQueries({ queryKey: sessionKey });
    } finally {
      accountLeaving.end();
    }
  }, [role, queryClient, navigate]);
}
