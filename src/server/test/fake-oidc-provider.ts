import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import http from 'node:http';

export type TokenMode =
  'valid' | 'wrong-nonce' | 'expired' | 'forged' | 'wrong-audience' | 'unverified-email';

interface PendingCode {
  clientId: string;
  redirectUri: string;
  nonce: string;
  codeChallenge: string;
  used: boolean;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

function signJwt(payload: Record<string, unknown>, key: KeyObject, kid: string): string {
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }));
  const body = b64url(JSON.stringify(payload));
  const signature = createSign('RSA-SHA256').update(`${header}.${body}`).sign(key);
  return `${header}.${body}.${b64url(signature)}`;
}

/**
 * An OpenID provider on loopback that behaves as Google does (discovery, JWKS, RS256-signed ID tokens, PKCE,
 * single-use codes), and that can be told to misbehave: wrong nonce, expired, forged or mis-addressed ID tokens, or an email it does not vouch for.
 */
export async function startFakeOidcProvider(client: { clientId: string; clientSecret: string }) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const { privateKey: attackerKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'test-key';
  const codes = new Map<string, PendingCode>();
  const state = {
    mode: 'valid' as TokenMode,
    email: 'someone@example.test',
    name: 'Some One',
    tokenRequests: 0,
  };
  let issuer = '';

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
        scopes_supported: ['openid', 'email', 'profile'],
      });
    }
    if (url.pathname === '/jwks') {
      return json(200, { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] });
    }
    if (url.pathname === '/authorize') {
      const p = url.searchParams;
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        clientId: p.get('client_id') ?? '',
        redirectUri: p.get('redirect_uri') ?? '',
        nonce: p.get('nonce') ?? '',
        codeChallenge: p.get('code_challenge') ?? '',
        used: false,
      });
      const back = new URL(p.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', p.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      state.tokenRequests++;
      let body = '';
      for await (const chunk of req) body += String(chunk);
      const form = new URLSearchParams(body);
      const basic = Buffer.from(
        (req.headers.authorization ?? '').replace(/^Basic /, ''),
        'base64',
      ).toString();
      const [id, secret] = basic.split(':').map((s) => decodeURIComponent(s));
      if (id !== client.clientId || secret !== client.clientSecret)
        return json(401, { error: 'invalid_client' });
      const pending = codes.get(form.get('code') ?? '');
      if (!pending || pending.used) return json(400, { error: 'invalid_grant' });
      pending.used = true;
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== pending.codeChallenge) {
        return json(400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      }
      const now = Math.floor(Date.now() / 1000);
      const claims = {
        iss: issuer,
        aud: state.mode === 'wrong-audience' ? 'someone-else' : client.clientId,
        sub: createHash('sha256').update(state.email).digest('hex').slice(0, 21),
        email: state.email,
        email_verified: state.mode !== 'unverified-email',
        name: state.name,
        nonce: state.mode === 'wrong-nonce' ? 'not-the-nonce' : pending.nonce,
        iat: state.mode === 'expired' ? now - 7200 : now,
        exp: state.mode === 'expired' ? now - 3600 : now + 3600,
      };
      const idToken = signJwt(claims, state.mode === 'forged' ? attackerKey : privateKey, kid);
      return json(200, {
        access_token: randomBytes(16).toString('hex'),
        token_type: 'Bearer',
        expires_in: 3600,
        id_token: idToken,
      });
    }
    json(404, { error: 'not_found' });
  };
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    issuer,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
