import { Button, Group, Modal, Text } from '@mantine/core';
import type { MenuItem } from '../../shared/menu.js';
import type { CartKitchen } from './cart-context.js';

/** Asks before an item of another kitchen replaces the cart (a cart holds one kitchen's dishes). */
export function NewCartModal({
  current,
  next,
  onConfirm,
  onCancel,
}: {
  current: string;
  next: { kitchen: CartKitchen; item: MenuItem } | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal opened={next !== null} onClose={onCancel} title="Start a new cart?" centered>
      <Text mb="md">
        Your cart holds dishes from {current}. A cart can only hold one kitchen&apos;s dishes. Empty it and
        start a new cart with {next?.item.item} from {next?.kitchen.name}?
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Keep my cart
        </Button>
        <Button onClick={onConfirm}>Start a new cart</Button>
      </Group>
    </Modal>
  );
}
