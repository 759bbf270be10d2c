import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Provider from 'oidc-provider';
import { escapeHtml } from '../lib/html.js';
import { DevIdpStore } from './dev-idp-store.js';
import { DEV_CLIENT_ID } from './oidc-client.js';

export const DEV_IDP_PATH = '/dev-idp';

interface DevAccount {
  email: string;
  name: string;
}

/** The same email is always the same user: the subject is derived from it. */
const subjectFor = (email: string) =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);

function loginPage(uid: string, error?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in (development)</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem;color:#212529}
label{display:block;margin:.8rem 0 .2rem;font-weight:600}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1.2rem;padding:.6rem 1.2rem;font-size:1rem;background:#c2410c;color:#fff;border:0;border-radius:6px}
.note{color:#495057;font-size:.9rem}.error{color:#a61e4d}</style></head>
<body><h1>Sign in</h1>
<p class="note">Development sign-in: stands in for Google on this machine. Any email works; the same email is always the same user.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${DEV_IDP_PATH}/interaction/${escapeHtml(uid)}/login">
<label for="email">Email</label><input id="email" name="email" type="email" required autocomplete="email" autofocus>
<label for="name">Name</label><input id="name" name="name" type="text" required maxlength="80" autocomplete="name">
<button type="submit">Sign in</button></form></body></html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 10_000) break;
  }
  return new URLSearchParams(body);
}

/**
 * A real OpenID provider (oidc-provider: discovery, JWKS, RS256 ID tokens, PKCE) at /dev-idp, for development and
 * tests when no Google client is configured. Registered only where the config allows it (a loopback PUBLIC_URL and
 * HOST, or DEV_SIGN_IN set on purpose), never in production.
 */
export async function registerDevIdp(
  app: FastifyInstance,
  options: { clientSecret: string; cookieKey: string },
) {
  const issuer = `${app.config.publicUrl}${DEV_IDP_PATH}`;
  const accounts = new Map<string, DevAccount>();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = {
    ...privateKey.export({ format: 'jwk' }),
    kid: randomBytes(8).toString('hex'),
    alg: 'RS256',
    use: 'sig',
  };

  const provider = new Provider(issuer, {
    adapter: DevIdpStore,
    clients: [
      {
        client_id: DEV_CLIENT_ID,
        client_secret: options.clientSecret,
        redirect_uris: [`${app.config.publicUrl}/auth/callback`],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'RS256',
      },
    ],
    jwks: { keys: [jwk] },
    // No single sign-on: the session cookie is scoped to a path no request uses, so each sign-in starts afresh
    // (a kitchen and a customer identity may be different people on one browser).
    cookies: {
      keys: [options.cookieKey],
      long: { path: `${DEV_IDP_PATH}/no-sso`, httpOnly: true, sameSite: 'lax' },
    },
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    // Put email and name in the ID token, as Google does.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `${DEV_IDP_PATH}/interaction/${interaction.uid}`,
    },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email: account.email, email_verified: true, name: account.name }),
      };
    },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 120,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    renderError: (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html lang="en"><title>Sign-in error</title><h1>Sign-in error</h1><p>${escapeHtml(out.error_description ?? out.error ?? 'error')}</p></html>`;
    },
  });
  provider.proxy = app.config.publicUrl.startsWith('https:');
  const handle = provider.callback();

  await app.register(async (scope) => {
    // oidc-provider reads request bodies itself: leave them unparsed here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    // The same opener policy as our own pages (these answers are written raw), so the sign-in popup keeps its
    // link to the page that opened it.
    scope.addHook('onRequest', async (_request, reply) => {
      reply.raw.setHeader('cross-origin-opener-policy', 'same-origin-allow-popups');
    });

    scope.get(
      `${DEV_IDP_PATH}/interaction/:uid`,
      async (request: FastifyRequest<{ Params: { uid: string } }>, reply) => {
        reply.hijack();
        try {
          const details = await provider.interactionDetails(request.raw, reply.raw);
          reply.raw.writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-store',
          });
          reply.raw.end(loginPage(details.uid));
        } catch {
          reply.raw.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
          reply.raw.end(
            '<!doctype html><html lang="en"><title>Expired</title><p>This sign-in has expired. Close this window and try again.</p></html>',
          );
        }
      },
    );

    scope.post(
      `${DEV_IDP_PATH}/interaction/:uid/login`,
      async (request: FastifyRequest<{ Params: { uid: string } }>, reply) => {
        reply.hijack();
        const res = reply.raw;
        try {
          const details = await provider.interactionDetails(request.raw, res);
          const form = await readForm(request.raw);
          const email = (form.get('email') ?? '').trim();
          const name = (form.get('name') ?? '').trim();
          if (!/^[^\s@]+@[^\s@]+$/.test(email) || !name || name.length > 80) {
            res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
            res.end(loginPage(details.uid, 'Please give an email address and a name.'));
            return;
          }
          const accountId = subjectFor(email);
          accounts.set(accountId, { email: email.toLowerCase(), name });
          const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
          grant.addOIDCScope(String(details.params.scope ?? 'openid'));
          const grantId = await grant.save();
          await provider.interactionFinished(
            request.raw,
            res,
            { login: { accountId }, consent: { grantId } },
            { mergeWithLastSubmission: false },
          );
        } catch (error) {
          request.log.warn({ err: error }, 'dev-idp login failed');
          if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
          res.end(
            '<!doctype html><html lang="en"><title>Expired</title><p>This sign-in has expired. Close this window and try again.</p></html>',
          );
        }
      },
    );

    const forward = (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const req = request.raw as IncomingMessage & { originalUrl?: string };
      req.originalUrl = req.url;
      req.url = (req.url ?? '').slice(DEV_IDP_PATH.length) || '/';
      handle(req, reply.raw);
    };
    scope.all(`${DEV_IDP_PATH}/*`, forward);
    scope.all(DEV_IDP_PATH, forward);
  });
}
