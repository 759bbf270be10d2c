import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { AUTH_CHANNEL, type AuthMessage, type Role } from '../../shared/auth.js';
import { api } from '../lib/api-client.js';
import { sessionKey } from './use-session.js';

export function signInUrl(role: Role, returnTo: string, popup: boolean): string {
  const query = new URLSearchParams({ returnTo, ...(popup ? { popup: '1' } : {}) });
  return `/auth/${role}/start?${query.toString()}`;
}

function isAuthMessage(value: unknown): value is AuthMessage {
  const v = value as AuthMessage | null;
  return (
    !!v &&
    (v.type === 'homecooked:signed-in' || v.type === 'homecooked:sign-in-failed') &&
    (v.role === 'kitchen' || v.role === 'customer')
  );
}

/**
 * Signs in with Google in a popup. The popup ends on our /auth/done page, which tells this tab through a
 * BroadcastChannel and `window.opener.postMessage` (either may be cut by the provider's opener policy) and
 * closes. A blocked popup falls back to a full-page redirect that comes back to `returnTo`.
 */
export function useSignIn(role: Role, onDone?: (ok: boolean) => void) {
  const queryClient = useQueryClient();
  const onDoneRef = useRef(onDone);
  // Whether this tab started a sign-in: the popup's answer arrives twice (opener and channel), and other tabs'
  // sign-ins arrive on the channel too; every one refreshes the session, only our own calls onDone, once.
  const pendingRef = useRef(false);
  useEffect(() => {
    onDoneRef.current = onDone;
  });

  useEffect(() => {
    const handle = (data: unknown) => {
      if (!isAuthMessage(data) || data.role !== role) return;
      void queryClient
        .invalidateQueries({ queryKey: sessionKey })
        .then(() => onDoneRef.current?.(data.type === 'homecooked:signed-in'));
    };
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(AUTH_CHANNEL) : undefined;
    if (channel) channel.onmessage = (event: MessageEvent) => handle(event.data);
    const onMessage = (event: MessageEvent) => {
      if (event.origin === window.location.origin) handle(event.data);
    };
    window.addEventListener('message', onMessage);
    return () => {
      channel?.close();
      window.removeEventListener('message', onMessage);
    };
  }, [role, queryClient]);

  return useCallback(
    (returnTo: string = window.location.pathname + window.location.search) => {
      pendingRef.current = true;
      const width = 480;
      const height = 640;
      const left = window.screenX + Math.max(0, (window.outerWidth - width) / 2);
      const top = window.screenY + Math.max(0, (window.outerHeight - height) / 2);
      const popup = window.open(
        signInUrl(role, returnTo, true),
        `homecooked-sign-in-${role}`,
        `popup=yes,width=${width},height=${height},left=${left},top=${top}`,
      );
      if (!popup) window.location.assign(signInUrl(role, returnTo, false));
    },
    [role],
  );
}

/** Signs `role` out on the server (the other identity stays signed in). */
export function useSignOut(role: Role) {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await api.post(`/auth/${role}/sign-out`);
    await queryClient.invalidateQueries({ queryKey: sessionKey });
  }, [role, queryClient]);
}
