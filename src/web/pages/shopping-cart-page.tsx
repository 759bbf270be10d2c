import { Text, Title } from '@mantine/core';
import { CustomerOnly } from '../auth/customer-only.js';
import { ShoppingCart } from '../cart/shopping-cart.js';
import { PageLayout } from '../layout/page-layout.js';

/** /ShoppingCart: for signed-in customers only. */
export function ShoppingCartPage() {
  return (
    <PageLayout>
      <Title order={1} mb="xs">
        Shopping Cart
      </Title>
      <CustomerOnly>
        {(customer) => (
          <>
            <Text c="dimmed" mb="lg">
              Signed in as {customer.displayName}
            </Text>
            <ShoppingCart />
          </>
        )}
      </CustomerOnly>
    </PageLayout>
  );
}
