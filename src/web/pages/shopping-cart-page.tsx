import { Text, Title } from '@mantine/core';
import { CustomerOnly } from '../auth/customer-only.js';
import { ShoppingCart } from '../cart/shopping-cart.js';
import { PageLayout } from '../layout/page-layout.js';
import { t } from '../i18n.js';

/** /ShoppingCart: for signed-in customers only. */
export function ShoppingCartPage() {
  return (
    <PageLayout>
      <Title order={1} mb="xs">
        {t('Shopping Cart')}
      </Title>
      <CustomerOnly>
        {(customer) => (
          <>
            <Text c="dimmed" mb="lg">
              {t('Signed in as {name}', { name: customer.displayName })}
            </Text>
            <ShoppingCart />
          </>
        )}
      </CustomerOnly>
    </PageLayout>
  );
}
