import { Text, Timeline } from '@mantine/core';
import type { OrderEvent } from '../../shared/orders.js';
import { timeOfDay } from './order-format.js';
import { t } from '../i18n.js';

/** The states an order went through, with their times (and a reason where there is one). */
export function OrderTimeline({ events }: { events: OrderEvent[] }) {
  return (
    <Timeline active={events.length - 1} bulletSize={14} lineWidth={2} aria-label={t('Order timeline')}>
      {events.map((event, i) => (
        <Timeline.Item key={i} title={t(event.state)}>
          <Text size="sm" c="dimmed">
            {timeOfDay(event.at)}
            {event.reason ? ` · ${event.reason}` : ''}
          </Text>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
