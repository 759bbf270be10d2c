import { Button, Stack, Text, type ButtonProps } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from '../router/router.js';
import { paths } from '../../shared/paths.js';
import { useCart } from '../cart/cart-context.js';
import { listOf } from './order-format.js';
import { fetchOrderAgain } from './order-actions.js';
import { t } from '../i18n.js';

/**
 * 'Order again': fills the cart with the order's dishes still on the menu, at today's prices, says which are
 * gone, and opens the cart. Off, and saying why, when the kitchen has left (its cook deleted their account).
 */
export function OrderAgainButton({
  orderId,
  kitchenGone = false,
  ...props
}: { orderId: string; kitchenGone?: boolean } & ButtonProps) {
  const cart = useCart();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const again = await fetchOrderAgain(orderId);
      const gone =
        again.gone.length > 0
          ? t('No longer on the menu: {dishes}', { dishes: listOf(again.gone) })
          : undefined;
      if (again.items.length === 0) {
        notifications.show({ color: 'orange', title: t('Nothing to order again'), message: gone });
        return;
      }
      cart.replace(again.kitchen, again.items);
      if (gone) notifications.show({ color: 'orange', title: t('Some dishes are gone'), message: gone });
      await navigate(paths.shoppingCart.href());
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t('Could not order again'),
        message: t((error as Error).message),
      });
    } finally {
      setBusy(false);
    }
  };
  if (kitchenGone)
    return (
      <Stack gap={2} align="flex-end">
        <Button disabled aria-describedby={`kitchen-gone-${orderId}`} {...props}>
          {t('Order again')}
        </Button>
        <Text size="xs" c="dimmed" id={`kitchen-gone-${orderId}`}>
          {t('This kitchen has left HomeCooked')}
        </Text>
      </Stack>
    );
  return (
    <Button loading={busy} onClick={() => void run()} {...props}>
      {t('Order again')}
    </Button>
  );
}
