import { Alert, Anchor, Button, Center, Checkbox, Grid, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, Navigate, useSearchParams } from '../router/router.js';
import { groupLines, inProgress, PlaceOrderInput } from '../../shared/orders.js';
import type { Fulfilment } from '../../shared/ordering.js';
import { slotsKey, useKitchenSlots } from '../ordering/use-kitchen-slots.js';
import { WhenPicker, type When } from '../ordering/when-picker.js';
import { useKitchen } from '../kitchens/use-kitchen.js';
import { belowMinimum, FulfilmentChoice, fulfilmentFor, NoteField } from './order-options.js';
import { paths } from '../../shared/paths.js';
import { sessionKey } from '../auth/use-session.js';
import { AddressField } from '../geocode/address-field.js';
import type { AddressSuggestion } from '../../shared/geocode.js';
import { ApiError } from '../lib/api-client.js';
import { useMyOrderOnEntry } from '../orders/use-my-order.js';
import { usePlaceOrder } from '../orders/order-actions.js';
import { CartAvailability } from './cart-availability.js';
import { CartLines } from './cart-lines.js';
import { useCart } from './cart-context.js';
import { randomId } from './cart-storage.js';
import { CheckoutTotals } from './checkout-totals.js';
import { CodeField } from './code-field.js';
import type { CodeQuote } from '../../shared/promo-codes.js';
import { OrderSent } from './order-sent.js';
import { Spinner } from '../lib/spinner.js';
import { PAYMENT_PROVIDER_DOWN, type PaymentMethod } from '../../shared/payments.js';
import { PaymentChoice, paymentFor } from '../payments/payment-choice.js';
import { PaymentConfirmation } from '../payments/payment-confirmation.js';
import { useKitchenPayments } from '../payments/use-payments.js';
import { TipPicker } from '../tips/tip-picker.js';
import { MAX_TIP_CENTS, suggestedTips } from '../../shared/tips.js';
import { useCancelOrder } from '../orders/order-actions.js';
import { msg, t, tx } from '../i18n.js';
import { useAllergyProfile } from '../allergies/use-allergy-profile.js';
import { useCredit } from '../credit/use-credit.js';
import { formatCents } from '../../shared/money.js';
import { acknowledgement, cartAllergyConflicts } from '../allergies/cart-allergies.js';
import { usePublicMenu } from '../menu/use-public-menu.js';

const UNPAID_MESSAGE = msg('Nothing was charged. Your cart is as it was: you can submit your order again.');

/** The cart and checkout of a signed-in customer. */
export function ShoppingCart() {
  const cart = useCart();
  const queryClient = useQueryClient();
  const entry = useMyOrderOnEntry();
  const placeOrder = usePlaceOrder();
  const [address, setAddress] = useState('');
  // Where the address is, when it was picked from the suggestions: the server checks the kitchen delivers there.
  const [picked, setPicked] = useState<AddressSuggestion>();
  const [addressError, setAddressError] = useState<string>();
  const [problem, setProblem] = useState<string | null>(null);
  // One key per order asked for: a double click or a retry of the same cart and address places one order; a
  // changed cart or address is another order, with a key of its own (the server refuses a key reused for one).
  const lastSubmit = useRef<{ payload: string; key: string } | undefined>(undefined);
  const [method, setMethod] = useState<PaymentMethod>('card');
  const payments = useKitchenPayments(cart.kitchen?.uid);
  // 'Tip for the cook': by card only, where the kitchen takes tips (null: a typed amount that is not one).
  const [tip, setTip] = useState<number | null>(0);
  const [tipError, setTipError] = useState<string>();
  // Store credit (ADR 29): offered with a card payment when the customer has some; the server takes it.
  const credit = useCredit();
  const [useStoreCredit, setUseStoreCredit] = useState(true);
  const creditBalance = credit.data?.balanceCents ?? 0;
  // A promotion code (ADR 30): what the server said it takes off this cart; asked again when the cart changes.
  const [code, setCode] = useState<CodeQuote | null>(null);
  const [codeError, setCodeError] = useState<string>();
  const cartKey = cart.lines.map((line) => line.id).join();
  useEffect(() => setCode(null), [cartKey]);
  // How and when: delivery or pickup, 'As soon as possible' or a slot, as the kitchen takes orders.
  // Not asked of a kitchen that takes no orders now (suspended, or gone): its cart says why instead.
  const kitchen = useKitchen(cart.kitchen?.uid ?? '', cart.kitchen !== null);
  const orderable = !!kitchen.data && !kitchen.data.suspended;
  const options = useKitchenSlots(cart.kitchen?.uid, orderable);
  const ordering = options.data;
  const [chosenFulfilment, setFulfilment] = useState<Fulfilment>('delivery');
  const fulfilment = fulfilmentFor(ordering, chosenFulfilment);
  const [when, setWhen] = useState<When>({ kind: 'asap' });
  const [whenError, setWhenError] = useState<string>();
  const [note, setNote] = useState('');
  const itemsCents = cart.lines.reduce((sum, line) => sum + line.priceCents, 0);
  // What the dishes declare now (the live menu), against the customer's allergies: an order holding them is sent
  // only once the customer says they understand (the server checks it too).
  const allergies = useAllergyProfile();
  // Read only for a customer with allergies: nobody else needs it (and a suspended kitchen's menu is a 404).
  const menu = usePublicMenu(
    cart.kitchen?.uid ?? '',
    cart.kitchen !== null && allergies.profile.allergens.length > 0,
  );
  const conflicts = cartAllergyConflicts(cart.lines, menu.data ?? [], allergies.profile);
  const [acknowledged, setAcknowledged] = useState<string>('');
  const allergyKey = [...conflicts.contains, '/', ...conflicts.mayContain].join();
  const understood = conflicts.all.length === 0 || acknowledged === allergyKey;
  const [allergyError, setAllergyError] = useState<string>();
  const minimum = belowMinimum(ordering, itemsCents);
  const tipShown = paymentFor(payments.data, method) === 'card' && payments.data?.tips === true;
  const creditShown = paymentFor(payments.data, method) === 'card' && creditBalance > 0;
  // Back from the payment page: paid (the order is confirmed here), or gone back (the unpaid order ends).
  const [params, setParams] = useSearchParams();
  const paidId = params.get('paid');
  const unpaidId = params.get('unpaid');
  const cancelUnpaid = useCancelOrder();
  const [unpaidNotice, setUnpaidNotice] = useState(false);
  useEffect(() => {
    if (!unpaidId) return;
    setUnpaidNotice(true);
    // A new submit is a new order, with a key of its own.
    lastSubmit.current = undefined;
    cancelUnpaid.mutate(
      { id: unpaidId },
      { onSettled: () => void entry.refetch().then(() => setParams({}, { replace: true })) },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per return from the payment page
  }, [unpaidId]);

  if (paidId) return <PaymentConfirmation orderId={paidId} onUnpaid={() => setParams({ unpaid: paidId })} />;
  if (placeOrder.data?.state === 'awaiting payment')
    return (
      <Center py="xl">
        <Spinner label={t('Taking you to the payment page')} />
      </Center>
    );
  if (placeOrder.data) return <OrderSent order={placeOrder.data} />;
  // A customer with an order in progress and nothing in the cart watches that order; with dishes in the cart they
  // may pre-order for another time (one order for now at a time, ADR 31).
  if (
    entry.isFetchedAfterMount &&
    entry.data &&
    inProgress(entry.data) &&
    cart.lines.length === 0 &&
    placeOrder.isIdle &&
    !unpaidId
  )
    return <Navigate to={paths.customerOrderStatus.href()} replace />;
  if (!entry.isFetchedAfterMount || unpaidId)
    return (
      <Center py="xl">
        <Spinner label={t('Loading your cart')} />
      </Center>
    );

  const submit = () => {
    if (placeOrder.isPending) return;
    setProblem(null);
    setAddressError(undefined);
    setWhenError(undefined);
    if (!cart.kitchen || cart.lines.length === 0) {
      setProblem(t("Your cart is empty. Add a dish from a kitchen's menu first."));
      return;
    }
    if (minimum) {
      setProblem(minimum);
      return;
    }
    if (!understood) {
      setAllergyError(t('Tick this to send an order holding your allergens'));
      return;
    }
    const location = picked?.display_name === address ? placeOf(picked) : undefined;
    const payment = paymentFor(payments.data, method);
    if (tipShown && (tip === null || tip > MAX_TIP_CENTS)) {
      setTipError(t('Enter a tip such as 3.50, or choose No tip'));
      return;
    }
    const tipCents = tipShown ? (tip ?? 0) : 0;
    const order = {
      kitchenUid: cart.kitchen.uid,
      itemIds: cart.lines.map((line) => line.id),
      ...(fulfilment === 'delivery' ? { address, location } : { fulfilment }),
      ...(when.kind === 'slot' ? { slotStart: when.start } : {}),
      ...(note.trim() ? { note } : {}),
      ...(payment ? { payment } : {}),
      ...(tipCents > 0 ? { tipCents } : {}),
      ...(creditShown && useStoreCredit ? { useCredit: true } : {}),
      ...(code ? { code: code.code } : {}),
      ...(conflicts.all.length ? { allergensAcknowledged: conflicts.all } : {}),
    };
    const payload = JSON.stringify(order);
    if (lastSubmit.current?.payload !== payload) lastSubmit.current = { payload, key: randomId() };
    const input = PlaceOrderInput.safeParse({ ...order, idempotencyKey: lastSubmit.current.key });
    if (!input.success) {
      const issue = input.error.issues[0];
      if (issue?.path[0] === 'address') setAddressError(t(issue.message));
      else setProblem(t(issue?.message ?? 'Please check your order.'));
      return;
    }
    setUnpaidNotice(false);
    placeOrder.mutate(input.data, {
      onSuccess: (placed) => {
        // A card order is paid on the provider's page; the cart stays until the payment is authorised.
        if (placed.state === 'awaiting payment' && placed.payment.checkoutUrl)
          window.location.assign(placed.payment.checkoutUrl);
        else cart.clear();
      },
      onError: (error) => {
        // Nothing was charged and the order ended: the next submit is a new order.
        if (error instanceof ApiError && error.body.code === PAYMENT_PROVIDER_DOWN)
          lastSubmit.current = undefined;
        if (error instanceof ApiError && error.status === 401) {
          void queryClient.invalidateQueries({ queryKey: sessionKey });
          return;
        }
        if (
          error instanceof ApiError &&
          error.status === 409 &&
          error.body.code === 'CONFLICT' &&
          !error.field
        ) {
          notifications.show({
            color: 'orange',
            title: t('You already have an order'),
            message: t(error.message),
          });
          void entry.refetch();
          return;
        }
        if (error instanceof ApiError && error.field === 'address') setAddressError(t(error.message));
        else if (error instanceof ApiError && error.field === 'tipCents') setTipError(t(error.message));
        else if (error instanceof ApiError && error.field === 'code') {
          setCode(null);
          setCodeError(t(error.message));
        } else if (error instanceof ApiError && error.field === 'slotStart') {
          // The slot filled (or passed) meanwhile: the choice is shown afresh.
          setWhenError(t(error.message));
          void queryClient.invalidateQueries({ queryKey: slotsKey(cart.kitchen?.uid ?? '') });
        } else setProblem(t(error.message));
        notifications.show({ color: 'red', title: t('Your order was not sent'), message: t(error.message) });
      },
    });
  };

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 7 }}>
        {cart.lines.length === 0 || !cart.kitchen ? (
          <Stack gap="xs">
            <Text>{t('Your cart is empty.')}</Text>
            <Anchor component={Link} to={paths.home.href()}>
              {t('Browse the kitchens')}
            </Anchor>
          </Stack>
        ) : (
          <Stack gap="md">
            <Text c="dimmed">
              {tx('From <link>{kitchen}</link>', {
                kitchen: cart.kitchen.name,
                link: (chunks) => (
                  <Anchor component={Link} to={paths.kitchenMenu.href(cart.kitchen?.uid ?? '')}>
                    {chunks as ReactNode}
                  </Anchor>
                ),
              })}
            </Text>
            <CartLines
              label={t('Items in your cart')}
              lines={groupLines(cart.lines, (line) => line.id).map((line) => ({ ...line, key: line.id }))}
              onRemove={(line) => cart.removeDish(line.key)}
              onStep={(line, by) => (by === 1 ? cart.addOneMore(line.key) : cart.removeOne(line.key))}
            />
            {minimum && (
              <Text c="orange.9" fw={600} role="status">
                {minimum}
              </Text>
            )}
          </Stack>
        )}
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="booking-heading">
          <Title order={2} size="h4" id="booking-heading" mb="md">
            {fulfilment === 'pickup' ? t('Pickup and payment') : t('Delivery and payment')}
          </Title>
          <Stack gap="md">
            {cart.kitchen && cart.lines.length > 0 && (
              <FulfilmentChoice
                ordering={ordering}
                kitchenName={cart.kitchen.name}
                value={fulfilment}
                onChange={setFulfilment}
              />
            )}
            {fulfilment === 'delivery' && (
              <AddressField
                value={address}
                onChange={(value) => {
                  setAddress(value);
                  setAddressError(undefined);
                }}
                onPick={setPicked}
                error={addressError}
              />
            )}
            {cart.kitchen && cart.lines.length > 0 && orderable && (
              <WhenPicker
                kitchenUid={cart.kitchen.uid}
                value={when}
                onChange={(next) => {
                  setWhen(next);
                  setWhenError(undefined);
                }}
              />
            )}
            {whenError && (
              <Text c="red" size="sm" role="alert">
                {whenError}
              </Text>
            )}
            {cart.kitchen && cart.lines.length > 0 && <NoteField value={note} onChange={setNote} />}
            {cart.kitchen && cart.lines.length > 0 && (
              <PaymentChoice
                kitchenUid={cart.kitchen.uid}
                value={method}
                onChange={setMethod}
                pickup={fulfilment === 'pickup'}
              />
            )}
            {cart.kitchen && cart.lines.length > 0 && tipShown && (
              <TipPicker
                suggestions={suggestedTips(itemsCents)}
                value={tip}
                onChange={(cents) => {
                  setTip(cents);
                  setTipError(undefined);
                }}
                error={tipError}
              />
            )}
            {cart.kitchen && cart.lines.length > 0 && creditShown && (
              <Checkbox
                label={t('Use my store credit ({amount})', { amount: formatCents(creditBalance) })}
                checked={useStoreCredit}
                onChange={(event) => setUseStoreCredit(event.currentTarget.checked)}
              />
            )}
            {cart.kitchen && cart.lines.length > 0 && (
              <CodeField
                kitchenUid={cart.kitchen.uid}
                itemIds={cart.lines.map((line) => line.id)}
                applied={code}
                onApplied={setCode}
                error={codeError}
                onError={setCodeError}
              />
            )}
            <CheckoutTotals
              discount={code}
              pricesCents={cart.lines.map((line) => line.priceCents)}
              fulfilment={fulfilment}
              tipCents={tipShown ? (tip ?? 0) : 0}
              creditCents={creditShown && useStoreCredit ? creditBalance : 0}
            />
            {cart.kitchen && cart.lines.length > 0 && (
              <CartAvailability
                kitchenUid={cart.kitchen.uid}
                lines={cart.lines}
                forLater={when.kind === 'slot'}
              />
            )}
            {conflicts.all.length > 0 && (
              <Checkbox
                label={acknowledgement(conflicts)}
                checked={acknowledged === allergyKey}
                onChange={(event) => {
                  setAcknowledged(event.currentTarget.checked ? allergyKey : '');
                  setAllergyError(undefined);
                }}
                error={allergyError}
                fw={600}
              />
            )}
            {unpaidNotice && !problem && (
              <Alert color="orange" role="alert" title={t('Your payment was not completed')}>
                {t(UNPAID_MESSAGE)}
              </Alert>
            )}
            {problem && (
              <Alert color="red" role="alert" title={t('Your order was not sent')}>
                {problem}
              </Alert>
            )}
            <Button size="md" onClick={submit} loading={placeOrder.isPending}>
              {t('Submit order')}
            </Button>
          </Stack>
        </Paper>
      </Grid.Col>
    </Grid>
  );
}

const placeOf = ({ lat, lon }: AddressSuggestion) =>
  lat === undefined || lon === undefined ? undefined : { lat, lon };
