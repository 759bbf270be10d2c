import { empty, html, redirect } from '../lib/route-doc.js';
import * as client from 'openid-client';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Role, SignInAttempt } from '../../shared/auth.js';
import { badRequest, HttpError, registerErrorHandler } from '../lib/errors.js';
import { registerOriginCheck } from '../lib/origin-check.js';
import { limits, registerRateLimit } from '../identity/rate-limit.js';
import { mutate } from '../events/mutate.js';
import { AUTH_DONE_JS, authDonePage, signInErrorPage } from './auth-done-page.js';
import type { OidcClient } from './oidc-client.js';
import { safeReturnPath } from './return-path.js';
import {
  clearSessionCookie,
  createSession,
  deleteSession,
  forgetSession,
  hashToken,
  setSessionCookie,
} from '../identity/sessions.js';
import { adoptLocale, upsertUser } from '../identity/users.js';
import { LOCALES, type Locale, type OfferedLocale } from '../../shared/i18n/locales.js';
import { msg } from '../../shared/i18n/translator.js';

/** One of the languages offered (not the pseudo-locale a tester may pick). */
const isOfferedLocale = (locale: Locale): locale is OfferedLocale =>
  (LOCALES as readonly string[]).includes(locale);

/** What the browser keeps (signed, HttpOnly, 10 minutes) between leaving for the provider and coming back. */
const Flow = z.object({
  state: z.string(),
  nonce: z.string(),
  verifier: z.string(),
  returnTo: z.string(),
  popup: z.boolean(),
  attempt: SignInAttempt.optional(),
});
type Flow = z.infer<typeof Flow>;

const FLOW_TTL_S = 600;
const flowCookie = (role: Role) => `auth_flow_${role}`;

const StartQuery = z.object({
  returnTo: z.string().max(2000).default('/'),
  popup: z.enum(['1', '0']).optional(),
  attempt: SignInAttempt.optional(),
});

const CallbackQuery = z.object({ state: z.string().max(500).optional() }).passthrough();

/**
 * Sign-in with OpenID Connect (authorization code + PKCE, state and nonce checked, ID token verified by
 * openid-client), one callback for every role; the role travels in `state`. Kitchen, customer and operator
 * identities are separate sessions with separate cookies; an operator session only for an email in OPERATOR_EMAILS.
 */
export const authRoutes: FastifyPluginAsyncZod<{ oidc: OidcClient }> = async (app, { oidc }) => {
  const { publicUrl, https: secure } = app.config;
  // This scope's own rules: the origin check (sign-out changes state), the sign-in rate limit, and refusals shown
  // as a page to the popup the browser opened (JSON to scripts).
  registerOriginCheck(app, publicUrl);
  await registerRateLimit(app);
  registerErrorHandler(app, { page: signInErrorPage });
  // A session signed out on any instance is forgotten here too.
  app.bus.on('session-ended', ({ sessionHash }) => forgetSession(sessionHash));
  const redirectUri = `${publicUrl}/auth/callback`;

  app.get(
    '/auth/:role/start',
    {
      schema: { params: z.object({ role: Role }), querystring: StartQuery },
      config: {
        doc: {
          summary: 'Start signing in with Google (a page the browser opens, often a popup)',
          tags: ['sign-in'],
          responses: { 302: redirect('To the identity provider') },
        },
        rateLimit: { ...limits.signIn, max: app.config.signInRateLimit },
      },
    },
    async (request, reply) => {
      const { role } = request.params;
      const returnTo = safeReturnPath(request.query.returnTo, publicUrl);
      if (!returnTo) throw badRequest('The return path must be a path on this site', 'returnTo');
      let configuration: client.Configuration;
      try {
        configuration = await oidc.configuration();
      } catch (error) {
        request.log.error({ err: error }, 'sign-in provider discovery failed');
        throw new HttpError(
          503,
          'SIGN_IN_UNAVAILABLE',
          msg('Sign-in is unavailable right now, please try again shortly'),
        );
      }
      const flow: Flow = {
        state: `${role}.${client.randomState()}`,
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
        returnTo,
        popup: request.query.popup === '1',
        attempt: request.query.attempt,
      };
      reply.setCookie(flowCookie(role), JSON.stringify(flow), {
        signed: true,
        httpOnly: true,
        sameSite: 'lax',
        secure,
        path: '/auth',
        maxAge: FLOW_TTL_S,
      });
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
        ...oidc.settings.authorizationParameters,
      });
      return reply.header('cache-control', 'no-store').redirect(url.href);
    },
  );

  app.get(
    '/auth/callback',
    {
      config: {
        doc: {
          summary: 'Where the identity provider sends the browser back; sets the session cookie',
          tags: ['sign-in'],
          responses: { 302: redirect('To the page that tells the opening tab') },
        },
      },
      schema: { querystring: CallbackQuery },
    },
    async (request, reply) => {
      const roleText = (request.query.state ?? '').split('.')[0];
      const role = Role.safeParse(roleText);
      if (!role.success) throw badRequest('This sign-in link is not valid', 'state');
      const raw = request.cookies[flowCookie(role.data)];
      // The flow is good for one callback only: a replayed callback finds no flow.
      reply.clearCookie(flowCookie(role.data), { path: '/auth', secure, httpOnly: true, sameSite: 'lax' });
      const unsigned = raw ? request.unsignCookie(raw) : undefined;
      const flow = unsigned?.valid && unsigned.value ? Flow.safeParse(safeJson(unsigned.value)) : undefined;
      const finish = (ok: boolean) => {
        reply.header('cache-control', 'no-store');
        // Checked again on the way out: a flow started before the rules last tightened may still be under way.
        const returnTo = flow?.success ? (safeReturnPath(flow.data.returnTo, publicUrl) ?? '/') : undefined;
        if (flow?.success && !flow.data.popup && ok) return reply.redirect(returnTo ?? '/');
        const done = new URLSearchParams({ role: role.data, status: ok ? 'ok' : 'failed' });
        if (flow?.success && flow.data.attempt) done.set('attempt', flow.data.attempt);
        if (returnTo) done.set('returnTo', returnTo);
        return reply.redirect(`/auth/done?${done.toString()}`);
      };
      if (!flow?.success) {
        request.log.warn('sign-in callback without a valid flow cookie');
        return finish(false);
      }
      try {
        const tokens = await client.authorizationCodeGrant(
          await oidc.configuration(),
          new URL(request.url, publicUrl),
          {
            pkceCodeVerifier: flow.data.verifier,
            expectedState: flow.data.state,
            expectedNonce: flow.data.nonce,
            idTokenExpected: true,
          },
        );
        const claims = tokens.claims();
        if (!claims || typeof claims.email !== 'string' || !claims.email)
          throw new Error('the ID token has no email');
        // Only a listed email gets an operator session (and only while listed: see requireOperator), and only when
        // the provider vouches for it (Google and the development provider say `email_verified: true`).
        if (
          role.data === 'operator' &&
          (claims.email_verified !== true || !app.config.operatorEmails.has(claims.email.toLowerCase()))
        ) {
          request.log.warn(
            'operator sign-in refused: the email is unverified or not listed in OPERATOR_EMAILS',
          );
          return finish(false);
        }
        const user = await upsertUser(app.db, {
          issuer: claims.iss,
          subject: claims.sub,
          email: claims.email,
          displayName: typeof claims.name === 'string' ? claims.name : '',
          photoUrl:
            typeof claims.picture === 'string' && /^https?:\/\//.test(claims.picture) ? claims.picture : null,
        });
        if (isOfferedLocale(request.locale)) await adoptLocale(app.db, user, request.locale);
        setSessionCookie(reply, role.data, await createSession(app.db, user.id, role.data));
        return finish(true);
      } catch (error) {
        request.log.warn({ err: error }, 'sign-in callback refused');
        return finish(false);
      }
    },
  );

  app.get(
    '/auth/done',
    {
      config: {
        doc: {
          summary: 'Tells the opening tab and closes the popup',
          tags: ['sign-in'],
          responses: { 200: html('The page') },
        },
      },
    },
    async (request, reply) => {
      // Anyone can link here with any query: the page is for display only, so a bad return path just means home.
      const { returnTo } = request.query as { returnTo?: unknown };
      const continueTo = (typeof returnTo === 'string' && safeReturnPath(returnTo, publicUrl)) || '/';
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(authDonePage(continueTo, app.i18n.translator(request.locale)));
    },
  );
  app.get(
    '/auth/done.js',
    {
      config: {
        doc: {
          summary: 'The script of /auth/done',
          tags: ['sign-in'],
          responses: { 200: { description: 'The script', type: 'text/javascript' } },
        },
      },
    },
    async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(AUTH_DONE_JS),
  );

  app.post(
    '/auth/:role/sign-out',
    {
      config: {
        doc: {
          summary: 'Sign out of a role',
          tags: ['sign-in'],
          responses: { 204: empty },
        },
      },
      schema: { params: z.object({ role: Role }) },
    },
    async (request, reply) => {
      const { role } = request.params;
      const token = request.cookies[app.config.sessionCookies[role]];
      if (token) {
        // Deleting the session also ends the live streams it opened, on every instance.
        await mutate(app, async (tx, record) => {
          await deleteSession(tx, token);
          record({ type: 'session.ended', sessionHash: hashToken(token) });
        });
      }
      clearSessionCookie(reply, role);
      return reply.status(204).send();
    },
  );
};

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
