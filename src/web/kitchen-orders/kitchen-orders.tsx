import { Group, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { Kitchen } from '../../shared/kitchens.js';
import { formatCents } from '../../shared/money.js';
import type { OrderMove } from '../../shared/order-states.js';
import type { KitchenOrder } from '../../shared/orders.js';
import { ConfirmModal } from '../kitchen-admin/confirm-modal.js';
import { LoadFailed } from '../lib/load-failed.js';
import { AlertSettings, useAlertSettings, useOrdersTitle } from './alert-settings.js';
import { isAsked, MoveDialog, type AskedMove } from './move-dialog.js';
import { OrderStatusModal } from './order-status-modal.js';
import { OrdersView } from './orders-table.js';
import { PauseOrders } from './pause-orders.js';
import { todaySummary } from './today-summary.js';
import {
  useDeleteOrder,
  useKitchenOrders,
  useMoveOrder,
  usePastKitchenOrders,
} from './use-kitchen-orders.js';
import { useNewOrders } from './use-new-orders.js';
import { useSteadyWhilePressed } from '../live/steady-while-pressed.js';
import { t } from '../i18n.js';

/**
 * /KitchenOrders' content: today's line, the live 'Active' orders with their lifecycle moves and the spec's
 * Update and Delete (by when they are for, once any is for a slot: 'As soon as possible' first, then each slot with
 * what to cook for it), the 'Past' ones, and the new-order alerts (tab title, sound, system notification).
 */
export function KitchenOrders({ kitchen }: { kitchen: Kitchen }) {
  const [tab, setTab] = useState<string | null>('active');
  const live = useKitchenOrders(kitchen.uid);
  // An order arriving does not slide into the place of the one whose button the cook is pressing.
  const orders = useSteadyWhilePressed(live);
  const livePast = usePastKitchenOrders(kitchen.uid);
  const past = useSteadyWhilePressed(livePast);
  const alerts = useAlertSettings();
  const { fresh, seen } = useNewOrders(live.data, { sound: alerts.sound });
  useOrdersTitle(live.data?.filter((o) => o.state === 'recieved').length ?? 0);
  const remove = useDeleteOrder();
  const moveOrder = useMoveOrder();
  const [updating, setUpdating] = useState<KitchenOrder | undefined>();
  const [deleting, setDeleting] = useState<KitchenOrder | undefined>();
  const [asked, setAsked] = useState<AskedMove | undefined>();
  // Slots are shown in the kitchen's time (the browser's, should it have none).
  const timeZone = kitchen.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone;
  const today = todaySummary([...(live.data ?? []), ...(livePast.data ?? [])], new Date());

  const move = async (order: KitchenOrder, next: OrderMove) => {
    seen(order.id);
    if (isAsked(next)) return setAsked({ order, move: next });
    try {
      await moveOrder.mutateAsync({ id: order.id, move: next });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('Could not update the order'),
        message: t((error as Error).message),
      });
    }
  };
  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', title: t('Order deleted'), message: deleting.customerEmail });
      setDeleting(undefined);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('Could not delete the order'),
        message: t((error as Error).message),
      });
    }
  };

  return (
    <section>
      <Title order={1} id="orders-heading" mb="xs">
        {t('Orders of your kitchen')}
      </Title>
      <Group justify="space-between" mb="md" gap="sm">
        <Text fw={600} aria-live="polite">
          {t('Today: {count, plural, one {# order} other {# orders}} · {amount} taken', {
            count: today.count,
            amount: formatCents(today.takingsCents),
          })}
        </Text>
        <AlertSettings settings={alerts} />
      </Group>
      <PauseOrders kitchen={kitchen} />
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List mb="md">
          <Tabs.Tab value="active">
            {
              // translators: a tab: the orders still open
              t('Active')
            }
          </Tabs.Tab>
          <Tabs.Tab value="past">
            {
              // translators: a tab: the orders that ended
              t('Past')
            }
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="active">
          {orders.isError ? (
            <LoadFailed
              title={t('Could not load your orders')}
              error={orders.error}
              retry={() => void orders.refetch()}
            />
          ) : (
            <OrdersView
              label={t('Orders of your kitchen')}
              timeZone={timeZone}
              bySlot
              orders={orders.data}
              fresh={fresh}
              onMove={(order, next) => void move(order, next)}
              onUpdate={(order) => {
                seen(order.id);
                setUpdating(order);
              }}
              onDelete={setDeleting}
            />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="past">
          {past.isError ? (
            <LoadFailed
              title={t('Could not load your past orders')}
              error={past.error}
              retry={() => void past.refetch()}
            />
          ) : (
            <OrdersView
              label={t('Past orders of your kitchen')}
              timeZone={timeZone}
              bySlot={false}
              orders={past.data}
              fresh={new Set()}
            />
          )}
        </Tabs.Panel>
      </Tabs>
      <MoveDialog asked={asked} timeZone={timeZone} onClose={() => setAsked(undefined)} />
      <OrderStatusModal
        order={updating}
        onClose={() => setUpdating(undefined)}
        onUpdated={(order, status) => {
          notifications.show({
            color: 'green',
            title: t('Status updated'),
            message: t('{customer}: {status}', { customer: order.customerEmail, status: t(status) }),
          });
          setUpdating(undefined);
        }}
      />
      <ConfirmModal
        opened={deleting !== undefined}
        title={t('Delete this order?')}
        message={
          deleting
            ? t(
                'The order from {customer} leaves this list. It is kept in your records, and the customer can order again.',
                { customer: deleting.customerEmail },
              )
            : t(
                'The order from this customer leaves this list. It is kept in your records, and the customer can order again.',
              )
        }
        confirmLabel={t('Delete order')}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(undefined)}
      />
    </section>
  );
}
