import { lazy, Suspense, type ReactNode } from 'react';
import { loadLaterStyles } from '../load-later-styles.js';
import { useCart } from './cart-context.js';
import { cartStore } from './cart-store.js';

// The dialog (and Mantine's overlay machinery) loads only when a second kitchen's dish is added.
const NewCartModal = lazy(async () => {
  const styles = loadLaterStyles();
  const { NewCartModal } = await import('./new-cart-modal.js');
  await styles;
  return { default: NewCartModal };
});

/** Asks whether to start a new cart when a second kitchen's dish is added (the cart itself is cart-store.ts). */
export function CartProvider({ children }: { children: ReactNode }) {
  const { kitchen, pending } = useCart();
  return (
    <>
      {children}
      {pending && (
        <Suspense fallback={null}>
          <NewCartModal
            current={kitchen?.name ?? ''}
            next={pending}
            onConfirm={() => cartStore.answerPending(true)}
            onCancel={() => cartStore.answerPending(false)}
          />
        </Suspense>
      )}
    </>
  );
}
