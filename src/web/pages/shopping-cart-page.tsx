import { Title } from '@mantine/core';
import { CustomerOnly } from '../auth/customer-only.js';
import { ShoppingCart } from '../cart/shopping-cart.js';
import { PageLayout } from '../layout/page-layout.js';

/** /ShoppingCart: for signed-in customers only. */
export function ShoppingCartPage() {
  return (
    <PageLayout>
      <Title order={1} mb="lg">
        Shopping Cart
      </Title>
      <CustomerOnly>{() => <ShoppingCart />}</CustomerOnly>
    </PageLayout>
  );
}
