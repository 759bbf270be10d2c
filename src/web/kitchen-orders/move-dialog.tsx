import { Button, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { READY_IN_PICKS, type OrderMove } from '../../shared/order-states.js';
import { FULFILMENT_LABELS } from '../../shared/ordering.js';
import type { KitchenOrder } from '../../shared/orders.js';
import { slotLabel } from '../../shared/slots.js';
import { ApiError } from '../lib/api-client.js';
import { useMoveOrder } from './use-kitchen-orders.js';
import { msg, t } from '../i18n.js';

/**
 * A move that needs an answer first: 'Accept' asks for a ready time (not for an order for later: its slot is its
 * ready time), 'Decline' and 'Cancel' for a reason.
 */
export type AskedMove = { order: KitchenOrder; move: 'accept' | 'decline' | 'cancel' };

const TITLES = {
  accept: msg('Accept this order'),
  decline: msg('Decline this order'),
  cancel: msg('Cancel this order'),
};

/** The toast once the move is made. */
const DONE = {
  accept: msg('Order accepted'),
  decline: msg('Order declined'),
  cancel: msg('Order cancelled'),
};

/** The dialog's button, named for what it does. */
const SUBMIT = { accept: msg('Accept order'), decline: msg('Decline order'), cancel: msg('Cancel order') };

function MoveForm({ order, move, timeZone, onDone }: AskedMove & { timeZone: string; onDone: () => void }) {
  const moveOrder = useMoveOrder();
  const [minutes, setMinutes] = useState<string>(String(READY_IN_PICKS[1]));
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const submit = async () => {
    if (move !== 'accept' && !reason.trim()) return setReasonError(t('Reason is required'));
    try {
      await moveOrder.mutateAsync(
        move === 'accept'
          ? order.slot
            ? { id: order.id, move }
            : { id: order.id, move, readyInMinutes: Number(minutes) }
          : { id: order.id, move, reason },
      );
      notifications.show({
        color: 'green',
        title: t(DONE[move]),
        message: order.customerEmail,
      });
      onDone();
    } catch (error) {
      const message = t((error as Error).message);
      if (error instanceof ApiError && error.field === 'reason') setReasonError(message);
      else notifications.show({ color: 'red', title: t('Could not update the order'), message });
    }
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      noValidate
    >
      <Stack gap="sm">
        <Text size="sm">
          {order.customerEmail} ·{' '}
          {order.fulfilment === 'pickup' ? t(FULFILMENT_LABELS.pickup) : order.customerAddress}
        </Text>
        {move === 'accept' && order.slot ? (
          <Text fw={500}>
            {t('Ready for its slot: {slot}', { slot: slotLabel(order.slot, timeZone, new Date()) })}
          </Text>
        ) : move === 'accept' ? (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="ready-in-label">
              {t('Ready in (minutes)')}
            </Text>
            <SegmentedControl
              aria-labelledby="ready-in-label"
              value={minutes}
              onChange={setMinutes}
              data={READY_IN_PICKS.map((m) => ({
                value: String(m),
                label: t('{minutes} min', { minutes: m }),
              }))}
            />
          </Stack>
        ) : (
          <TextInput
            label={t('Reason')}
            description={t('The customer sees it.')}
            data-autofocus
            value={reason}
            maxLength={200}
            error={reasonError}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setReasonError(undefined);
            }}
          />
        )}
        <Group justify="flex-end">
          {/* Named for what it does ('Cancel order', never a bare 'Cancel' beside the dialog's close button). */}
          <Button type="submit" color={move === 'accept' ? undefined : 'red'} loading={moveOrder.isPending}>
            {t(SUBMIT[move])}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function MoveDialog({
  asked,
  timeZone,
  onClose,
}: {
  asked: AskedMove | undefined;
  /** The kitchen's: a pre-order's slot is said in it. */
  timeZone: string;
  onClose: () => void;
}) {
  return (
    <Modal opened={asked !== undefined} onClose={onClose} title={asked ? t(TITLES[asked.move]) : ''} centered>
      {asked ? (
        <MoveForm key={asked.order.id + asked.move} {...asked} timeZone={timeZone} onDone={onClose} />
      ) : null}
    </Modal>
  );
}

/** Moves made at once, with nothing to ask. */
export const isAsked = (move: OrderMove): move is AskedMove['move'] =>
  move === 'accept' || move === 'decline' || move === 'cancel';
