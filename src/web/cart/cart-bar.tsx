import { Box, Button, Group, Text } from '@mantine/core';
import { Link } from '../router/router.js';
import { formatCents } from '../../shared/money.js';
import { useSession } from '../auth/use-session.js';
import { cartPath } from './cart-path.js';
import { useCart } from './cart-context.js';
import classes from './cart-bar.module.css';
import { t } from '../i18n.js';

/**
 * On a phone, a bar fixed to the bottom of a kitchen's menu once the cart holds something: how many dishes and
 * their price, and the way to the cart (or to sign in first), in reach of a thumb. Wide screens have the cart
 * button by the kitchen's name.
 */
export function CartBar() {
  const { count, lines } = useCart();
  const session = useSession();
  if (count === 0) return null;
  const to = cartPath(session.data);
  const total = formatCents(lines.reduce((sum, line) => sum + line.priceCents, 0));
  const label = t('{count, plural, one {# dish} other {# dishes}} · {total}', { count, total });
  return (
    <>
      {/* Room at the end of the page, so the bar never covers the last dish. */}
      <Box hiddenFrom="sm" h={72} />
      <Box hiddenFrom="sm" className={classes.bar} data-testid="cart-bar">
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Text fw={700}>{label}</Text>
          <Button
            component={Link}
            to={to}
            size="md"
            aria-label={t('View cart: {summary}', { summary: label })}
          >
            {t('View cart')}
          </Button>
        </Group>
      </Box>
    </>
  );
}
