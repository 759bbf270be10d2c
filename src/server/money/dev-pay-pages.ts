import type { FastifyInstance, FastifyReply } from 'fastify';
import { formatMoney } from '../../shared/money.js';
import { escapeHtml } from '../lib/html.js';
import { StripeError, TEST_CARDS, type LocalStripe } from '../payments/local-stripe.js';

export const DEV_PAY_PATH = '/dev-pay';

type Json = Record<string, unknown>;

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} (development payments)</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>body{font-family:system-ui,sans-serif;max-width:26rem;margin:2rem auto;padding:0 1rem;color:#212529}
label{display:block;margin:.8rem 0 .2rem;font-weight:600}input{width:100%;padding:.6rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1.2rem;padding:.7rem 1.2rem;font-size:1rem;background:#c2410c;color:#fff;border:0;border-radius:6px;width:100%;min-height:44px}
.note{color:#495057;font-size:.9rem}.error{color:#a61e4d;font-weight:600}.amount{font-size:1.6rem;font-weight:700;margin:.2rem 0}
.row{display:flex;gap:.8rem}.row>div{flex:1}a{color:#9a3412}</style></head>
<body><main>${body}</main></body></html>`;

const testCardsNote = `<p class="note">Development payments: nothing is charged. ${TEST_CARDS.pays.replace(/(\d{4})(?=\d)/g, '$1 ')} pays,
${TEST_CARDS.declined.replace(/(\d{4})(?=\d)/g, '$1 ')} is declined, ${TEST_CARDS.authentication.replace(/(\d{4})(?=\d)/g, '$1 ')} asks for a confirmation step.</p>`;

const sendPage = (reply: FastifyReply, status: number, html: string) =>
  reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The card's fields, checked as a payment page checks them before it sends anything; the problem, if any. */
function cardProblem(card: string, expiry: string, cvc: string, now: Date): string | undefined {
  if (!/^\d{13,19}$/.test(card) || !luhn(card)) return 'Your card number is invalid';
  const match = /^(\d{2})\s*\/\s*(\d{2})$/.exec(expiry);
  const month = Number(match?.[1]);
  const year = 2000 + Number(match?.[2]);
  if (!match || month < 1 || month > 12) return "Your card's expiry date is incomplete (MM/YY)";
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1))
    return "Your card's expiry date is in the past";
  if (!/^\d{3}$/.test(cvc)) return "Your card's security code (CVC) is incomplete";
  return undefined;
}

/**
 * The `local` provider's hosted pages, like Stripe's, on loopback only (registered only with `PAYMENTS=local`, which
 * production refuses): the customer's payment page (card, expiry, CVC, 'Pay $…'; declined and confirmation-step test
 * cards; once paid, 'Dispute this payment' and the bank's decision) and the cook's one-click onboarding
 * ('Activate payouts'). They act on our server speaking Stripe's API,
 * which sends its signed events to our webhook, so the code that runs after is the code Stripe's events run.
 */
export async function registerDevPayPages(app: FastifyInstance, local: LocalStripe): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 10_000 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const sessionOf = (id: string): Json | undefined => {
      const found = local.objects.get(id);
      return id.startsWith('cs_') && found ? found : undefined;
    };
    const checkoutPage = (session: Json, error?: string, card = '') => {
      // A setup-mode session saves a card for later payments and charges nothing: no amount to show.
      const setup = session.mode === 'setup';
      const amount = setup
        ? ''
        : formatMoney(Number(session.amount_total), String(session.currency).toUpperCase());
      const id = escapeHtml(String(session.id));
      return page(
        setup ? 'Save your card' : 'Pay',
        `${setup ? '<h1>Save your card for later payments</h1><p class="note">Nothing is charged now.</p>' : `<h1>Pay for your order</h1><p class="amount">${escapeHtml(amount)}</p>`}
${testCardsNote}
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${DEV_PAY_PATH}/checkout/${id}">
<label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="cc-number" required value="${escapeHtml(card)}">
<div class="row"><div><label for="expiry">Expiry</label><input id="expiry" name="expiry" placeholder="MM/YY" autocomplete="cc-exp" required></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required></div></div>
<button type="submit">${setup ? 'Save card' : `Pay ${escapeHtml(amount)}`}</button></form>
<p><a href="${escapeHtml(String(session.cancel_url))}">Back to the shop</a></p>`,
      );
    };
    /** The dispute of the session's payment, if its cardholder opened one. */
    const disputeOf = (session: Json): Json | undefined =>
      [...local.objects.values()].find(
        (o) => o.object === 'dispute' && o.payment_intent === session.payment_intent,
      );
    /**
     * On a paid page: 'Dispute this payment' (the cardholder's bank opens a dispute, as Stripe then tells the
     * platform with `charge.dispute.created`), then the dispute with the bank's two decisions.
     */
    const disputeSection = (session: Json, error?: string) => {
      const id = escapeHtml(String(session.id));
      const problem = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
      const dispute = disputeOf(session);
      if (!dispute)
        return `${problem}<p class="note">Development payments: as the cardholder, you may ask your bank to take this payment back.</p>
<form method="post" action="${DEV_PAY_PATH}/checkout/${id}/dispute"><button type="submit">Dispute this payment</button></form>`;
      const amount = formatMoney(Number(dispute.amount), String(dispute.currency).toUpperCase());
      const due = new Date(Number((dispute.evidence_details as Json).due_by) * 1000)
        .toISOString()
        .slice(0, 10);
      const status = String(dispute.status);
      const open = status !== 'won' && status !== 'lost';
      return `${problem}<h2>Disputed: ${escapeHtml(amount)}</h2>
<p>Status: <strong>${escapeHtml(status.replace(/_/g, ' '))}</strong>${open ? ` · the shop's evidence is due by ${escapeHtml(due)}` : ''}</p>
${
  open
    ? `<form method="post" action="${DEV_PAY_PATH}/checkout/${id}/dispute/close"><input type="hidden" name="outcome" value="won"><button type="submit">The bank sides with the shop</button></form>
<form method="post" action="${DEV_PAY_PATH}/checkout/${id}/dispute/close"><input type="hidden" name="outcome" value="lost"><button type="submit">The bank sides with the cardholder</button></form>`
    : ''
}`;
    };
    const closedPage = (session: Json, error?: string) =>
      session.status === 'complete'
        ? page(
            'Paid',
            `<h1>This order is paid</h1>${disputeSection(session, error)}<p><a href="${escapeHtml(String(session.success_url))}">Back to the shop</a></p>`,
          )
        : page(
            'Expired',
            `<h1>This payment page has expired</h1><p>Nothing was charged.</p><p><a href="${escapeHtml(String(session.cancel_url))}">Back to the shop</a></p>`,
          );

    scope.get<{ Params: { id: string } }>(
      `${DEV_PAY_PATH}/checkout/:id`,
      { config: { doc: { summary: 'Development payments: the payment page', tags: ['dev'] } } },
      async (request, reply) => {
        const session = sessionOf(request.params.id);
        if (!session) return sendPage(reply, 404, page('Not found', '<h1>No such payment page</h1>'));
        if (session.status !== 'open') return sendPage(reply, 200, closedPage(session));
        return sendPage(reply, 200, checkoutPage(session));
      },
    );

    scope.post<{ Params: { id: string }; Body: Record<string, string> }>(
      `${DEV_PAY_PATH}/checkout/:id`,
      { config: { doc: { summary: 'Development payments: pay with a test card', tags: ['dev'] } } },
      async (request, reply) => {
        const session = sessionOf(request.params.id);
        if (!session) return sendPage(reply, 404, page('Not found', '<h1>No such payment page</h1>'));
        if (session.status !== 'open') return sendPage(reply, 200, closedPage(session));
        const form = typeof request.body === 'object' && request.body !== null ? request.body : {};
        const card = String(form.card ?? '').replace(/[\s-]/g, '');
        const problem = cardProblem(card, String(form.expiry ?? ''), String(form.cvc ?? ''), new Date());
        if (problem) return sendPage(reply, 200, checkoutPage(session, problem, card));
        let intent: Json;
        try {
          intent = await local.pay(String(session.id), card);
        } catch (error) {
          if (!(error instanceof StripeError)) throw error;
          return sendPage(reply, 200, checkoutPage(session, error.message));
        }
        if (intent.status === 'requires_action') {
          const id = escapeHtml(String(session.id));
          return sendPage(
            reply,
            200,
            page(
              'Confirm',
              `<h1>Your bank asks you to confirm this payment</h1>
<p class="amount">${escapeHtml(formatMoney(Number(session.amount_total), String(session.currency).toUpperCase()))}</p>
<form method="post" action="${DEV_PAY_PATH}/checkout/${id}/authenticate"><button type="submit">Complete authentication</button></form>
<p><a href="${escapeHtml(String(session.cancel_url))}">Back to the shop</a></p>`,
            ),
          );
        }
        const failure = intent.last_payment_error as Json | null;
        if (failure) return sendPage(reply, 200, checkoutPage(session, String(failure.message)));
        return reply.redirect(String(session.success_url), 303);
      },
    );

    scope.post<{ Params: { id: string } }>(
      `${DEV_PAY_PATH}/checkout/:id/authenticate`,
      { config: { doc: { summary: 'Development payments: complete the confirmation step', tags: ['dev'] } } },
      async (request, reply) => {
        const session = sessionOf(request.params.id);
        if (!session) return sendPage(reply, 404, page('Not found', '<h1>No such payment page</h1>'));
        if (session.status !== 'open') return sendPage(reply, 200, closedPage(session));
        try {
          await local.authenticate(String(session.payment_intent));
        } catch (error) {
          if (!(error instanceof StripeError)) throw error;
          return sendPage(reply, 200, checkoutPage(session, error.message));
        }
        return reply.redirect(String(session.success_url), 303);
      },
    );

    scope.post<{ Params: { id: string } }>(
      `${DEV_PAY_PATH}/checkout/:id/dispute`,
      {
        config: {
          doc: {
            summary: "Development payments: the cardholder's bank disputes a paid payment",
            tags: ['dev'],
          },
        },
      },
      async (request, reply) => {
        const session = sessionOf(request.params.id);
        if (!session) return sendPage(reply, 404, page('Not found', '<h1>No such payment page</h1>'));
        if (session.status !== 'complete' || typeof session.payment_intent !== 'string')
          return sendPage(reply, 200, closedPage(session));
        // A second press (the page shown again) finds the dispute already open: nothing more is sent.
        if (!disputeOf(session))
          try {
            await local.dispute(session.payment_intent);
          } catch (error) {
            if (!(error instanceof StripeError)) throw error;
            return sendPage(reply, 200, closedPage(session, error.message));
          }
        return reply.redirect(`${DEV_PAY_PATH}/checkout/${encodeURIComponent(String(session.id))}`, 303);
      },
    );

    scope.post<{ Params: { id: string }; Body: Record<string, string> }>(
      `${DEV_PAY_PATH}/checkout/:id/dispute/close`,
      {
        config: {
          doc: { summary: "Development payments: the bank decides a payment's dispute", tags: ['dev'] },
        },
      },
      async (request, reply) => {
        const session = sessionOf(request.params.id);
        const dispute = session && disputeOf(session);
        if (!session || !dispute) return sendPage(reply, 404, page('Not found', '<h1>No such dispute</h1>'));
        const form = typeof request.body === 'object' && request.body !== null ? request.body : {};
        const outcome = form.outcome === 'won' || form.outcome === 'lost' ? form.outcome : undefined;
        if (!outcome) return sendPage(reply, 400, closedPage(session, 'Choose who the bank sides with'));
        if (dispute.status !== 'won' && dispute.status !== 'lost')
          await local.closeDispute(String(dispute.id), outcome);
        return reply.redirect(`${DEV_PAY_PATH}/checkout/${encodeURIComponent(String(session.id))}`, 303);
      },
    );

    // Only back to our own pages: the return address is the link's, which anyone could write.
    const ownReturn = (url: unknown) =>
      typeof url === 'string' && url.startsWith(`${app.config.publicUrl}/`) ? url : app.config.publicUrl;
    const accountOf = (id: string) => (id.startsWith('acct_') ? local.objects.get(id) : undefined);

    scope.get<{ Params: { id: string }; Querystring: { return_url?: string } }>(
      `${DEV_PAY_PATH}/onboard/:id`,
      { config: { doc: { summary: "Development payments: a cook's onboarding page", tags: ['dev'] } } },
      async (request, reply) => {
        const account = accountOf(request.params.id);
        if (!account) return sendPage(reply, 404, page('Not found', '<h1>No such account</h1>'));
        const id = escapeHtml(String(account.id));
        const back = escapeHtml(ownReturn(request.query.return_url));
        return sendPage(
          reply,
          200,
          page(
            'Payouts',
            `<h1>Get paid for your orders</h1>
<p class="note">Development payments: this page stands in for Stripe's onboarding. No bank details are needed.</p>
<form method="post" action="${DEV_PAY_PATH}/onboard/${id}"><input type="hidden" name="return_url" value="${back}">
<button type="submit">Activate payouts</button></form>`,
          ),
        );
      },
    );

    scope.post<{ Params: { id: string }; Body: Record<string, string> }>(
      `${DEV_PAY_PATH}/onboard/:id`,
      { config: { doc: { summary: 'Development payments: activate payouts', tags: ['dev'] } } },
      async (request, reply) => {
        const account = accountOf(request.params.id);
        if (!account) return sendPage(reply, 404, page('Not found', '<h1>No such account</h1>'));
        await local.completeOnboarding(String(account.id));
        const form = typeof request.body === 'object' && request.body !== null ? request.body : {};
        return reply.redirect(ownReturn(form.return_url), 303);
      },
    );
  });
}
