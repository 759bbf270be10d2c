import { Stack } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { RequireOwnKitchen } from '../kitchen-admin/admin-gates.js';
import { AdminPage } from '../kitchen-admin/admin-page.js';
import { Spinner } from '../lib/spinner.js';
import { t } from '../i18n.js';
import { KitchenEarnings } from './earnings.js';

/** The cook's promotion codes (ADR 30), loaded after the earnings. */
const KitchenCodes = lazy(async () => ({
  default: (await import('../codes/codes-manager.js')).KitchenCodes,
}));

/**
 * /Earnings: the signed-in cook's paid orders (a cook without a kitchen is sent to register one), and their
 * kitchen's promotion codes below.
 */
export function EarningsPage() {
  return (
    <AdminPage>
      {(user) => (
        <RequireOwnKitchen user={user}>
          {(kitchen) => (
            <Stack gap="xl">
              <KitchenEarnings kitchen={kitchen} />
              <Suspense fallback={<Spinner label={t('Loading the codes')} />}>
                <KitchenCodes />
              </Suspense>
            </Stack>
          )}
        </RequireOwnKitchen>
      )}
    </AdminPage>
  );
}
