import type { SessionState } from '../../shared/auth.js';
import { paths } from '../../shared/paths.js';

/**
 * Where the cart's link goes: to sign in first when the session is known to hold no customer, else to the cart, also
 * while the session is still being checked (a signed-in customer's quick tap is not sent to sign in; the cart page
 * sends anyone not signed in there once it knows).
 */
export const cartPath = (session: SessionState | undefined): string =>
  session && !session.customer ? paths.customerSignIn.href() : paths.shoppingCart.href();
