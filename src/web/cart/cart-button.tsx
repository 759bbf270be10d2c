import { Button, VisuallyHidden } from '@mantine/core';
import { Link } from '../router/router.js';
import { useSession } from '../auth/use-session.js';
import { cartPath } from './cart-path.js';
import { useCart } from './cart-context.js';
import { t } from '../i18n.js';

function CartIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor">
      <path strokeWidth="2" strokeLinecap="round" d="M3 4h2l2.4 11h11.2L21 7H6.2" />
      <circle cx="9" cy="19.5" r="1.5" fill="currentColor" />
      <circle cx="18" cy="19.5" r="1.5" fill="currentColor" />
    </svg>
  );
}

/** The cart with its item count: to the cart for a signed-in customer, otherwise to sign in first. */
export function CartButton() {
  const { count } = useCart();
  const session = useSession();
  const to = cartPath(session.data);
  return (
    <>
      <Button component={Link} to={to} leftSection={<CartIcon />} size="md">
        {t('Cart ({count})', { count })}
      </Button>
      <VisuallyHidden role="status">
        {t('{count, plural, one {# item} other {# items}} in your cart', { count })}
      </VisuallyHidden>
    </>
  );
}
