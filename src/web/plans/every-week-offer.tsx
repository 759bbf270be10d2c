import { Button, Paper, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { CustomerOrder } from '../../shared/orders.js';
import { paths } from '../../shared/paths.js';
import type { CustomerPlan, PlanSettings } from '../../shared/plans.js';
import { api } from '../lib/api-client.js';
import { Link } from '../router/router.js';
import { t } from '../i18n.js';
import { everyWeek } from './plan-format.js';

/**
 * 'Every week' under a placed pre-order, at a kitchen that offers plans: the same dishes, day and slot every week
 * (a weekly plan, from the week after this order's). Nothing is shown where the kitchen offers none.
 */
export function EveryWeekOffer({ order }: { order: CustomerOrder }) {
  const offer = useQuery({
    queryKey: ['kitchens', order.kitchenUid, 'plans'],
    queryFn: () => api.get<PlanSettings>(`/api/kitchens/${order.kitchenUid}/plans`),
    enabled: order.kitchenUid !== null && order.slot !== null,
  });
  const start = useMutation({
    mutationFn: () => api.post<CustomerPlan>(`/api/orders/${order.id}/every-week`),
    // A card plan: its card is saved on the provider's page, which comes back to 'Your plans'.
    onSuccess: (plan) => {
      if (plan.cardSetupUrl) window.location.assign(plan.cardSetupUrl);
    },
  });
  if (!order.slot || !offer.data?.offered) return null;
  return (
    <Paper withBorder radius="md" p="md" mt="md" component="section" aria-label={t('Every week')}>
      {start.data ? (
        <Text role="status">
          {t('Your weekly plan is set: {when}.', {
            when: everyWeek(start.data.weekday, start.data.slotTime),
          })}{' '}
          <Link to={`${paths.customerOrders.href()}#plans`}>{t('Your plans')}</Link>
        </Text>
      ) : (
        <>
          <Text mb="xs">
            {t(
              'Get the same dishes on the same day and time every week, ordered for you before each cut-off.',
            )}
          </Text>
          <Button variant="light" loading={start.isPending} onClick={() => start.mutate()}>
            {t('Every week')}
          </Button>
          {start.error && (
            <Text c="red.8" role="alert" mt="xs">
              {start.error.message}
            </Text>
          )}
        </>
      )}
    </Paper>
  );
}
