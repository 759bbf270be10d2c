import { Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';
import type { Kitchen } from '../../shared/kitchens.js';
import type { MenuItem } from '../../shared/menu.js';
import { YourData } from '../account/your-data.js';
import { ConfirmModal } from '../kitchen-admin/confirm-modal.js';
import { EditMenuItemModal } from './edit-menu-item-modal.js';
import { KitchenDetails } from '../kitchen-registration/kitchen-details.js';
import { KitchenReviews } from './kitchen-reviews.js';
import { GetPaid } from '../payments/get-paid.js';
import { CapsCard } from '../law/caps-card.js';
import { HowYouTakeOrders } from '../kitchen-ordering/how-you-take-orders.js';
import { NotificationSettingsSection } from '../notifications/settings/notification-settings.js';
import { MenuView } from './menu-table.js';
import { UndeclaredDishes } from './undeclared-dishes.js';
import { LoadFailed } from '../lib/load-failed.js';
import { useOwnMenu, useRemoveMenuItem } from './use-own-menu.js';
import { t } from '../i18n.js';

// 'Plans' (weekly plans: its settings and the planned meals) loads with its own code.
const KitchenPlansSection = lazy(async () => ({
  default: (await import('../plans/kitchen-plans.js')).KitchenPlansSection,
}));

/**
 * /MenuDashboard's content: the live menu table, its edit and remove dialogs, the kitchen's details (with 'About the
 * cook'), its reviews, each answerable once, and 'Your data'.
 */
export function MenuDashboard({ kitchen }: { kitchen: Kitchen }) {
  const menu = useOwnMenu(kitchen.uid);
  const remove = useRemoveMenuItem(kitchen.uid);
  const [editing, setEditing] = useState<MenuItem | undefined>();
  const [removing, setRemoving] = useState<MenuItem | undefined>();

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await remove.mutateAsync(removing.id);
      notifications.show({ color: 'green', title: t('Removed from your menu'), message: removing.item });
      setRemoving(undefined);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('Could not remove the item'),
        message: t((error as Error).message),
      });
    }
  };

  return (
    <Stack gap="xl">
      <section>
        <Title order={1} id="menu-heading" mb="md">
          {t('Menu of your kitchen')}
        </Title>
        {menu.isError ? (
          <LoadFailed
            title={t('Could not load your menu')}
            error={menu.error}
            retry={() => void menu.refetch()}
          />
        ) : (
          <>
            <UndeclaredDishes items={menu.data} onAnswer={setEditing} />
            <MenuView items={menu.data} onEdit={setEditing} onRemove={setRemoving} />
          </>
        )}
      </section>
      <CapsCard ownerUid={kitchen.uid} />
      <GetPaid />
      <HowYouTakeOrders />
      <Suspense fallback={null}>
        <KitchenPlansSection timeZone={kitchen.timeZone} />
      </Suspense>
      <NotificationSettingsSection audience="kitchen" />
      <KitchenDetails kitchen={kitchen} />
      <KitchenReviews kitchenUid={kitchen.uid} />
      <YourData role="kitchen" />
      <EditMenuItemModal kitchenUid={kitchen.uid} item={editing} onClose={() => setEditing(undefined)} />
      <ConfirmModal
        opened={removing !== undefined}
        title={t('Remove this item?')}
        message={
          removing
            ? t('{item} will no longer be on your menu.', { item: removing.item })
            : t('This item will no longer be on your menu.')
        }
        confirmLabel={t('Remove item')}
        busy={remove.isPending}
        onConfirm={() => void confirmRemove()}
        onClose={() => setRemoving(undefined)}
      />
    </Stack>
  );
}
