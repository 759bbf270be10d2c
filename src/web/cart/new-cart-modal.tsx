import { Button, Group, Modal, Text } from '@mantine/core';
import type { MenuItem } from '../../shared/menu.js';
import type { CartKitchen } from './cart-context.js';
import { t } from '../i18n.js';

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
    <Modal opened={next !== null} onClose={onCancel} title={t('Start a new cart?')} centered>
      <Text mb="md">
        {t(
          "Your cart holds dishes from {current}. A cart can only hold one kitchen's dishes. Empty it and start a new cart with {dish} from {kitchen}?",
          { current, dish: next?.item.item ?? '', kitchen: next?.kitchen.name ?? '' },
        )}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('Keep my cart')}
        </Button>
        <Button onClick={onConfirm}>{t('Start a new cart')}</Button>
      </Group>
    </Modal>
  );
}
