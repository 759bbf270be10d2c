import * as client from 'openid-client';
import type { Config } from '../lib/config.js';
import { isLoopbackHost } from '../lib/loopback.js';

export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Extra authorization parameters: Google is asked to let the user pick an account. */
  authorizationParameters: Record<string, string>;
}

export const DEV_CLIENT_ID = 'homecooked-dev';

/**
 * Google when configured; otherwise our development provider, reached through the very same code path (where the
 * config did not allow it, it is not served, and sign-in answers 503).
 */
export function oidcSettings(config: Config, devClientSecret: string): OidcClientSettings {
  if (config.google) return { ...config.google, authorizationParameters: { prompt: 'select_account' } };
  return {
    issuer: `${config.publicUrl}/dev-idp`,
    clientId: DEV_CLIENT_ID,
    clientSecret: devClientSecret,
    // Always show the sign-in page, so a kitchen and a customer identity can be different people.
    authorizationParameters: { prompt: 'login' },
  };
}

const isLoopbackHttp = (url: URL) => url.protocol === 'http:' && isLoopbackHost(url.hostname);

/**
 * Discovers the provider once (lazily: at start-up the provider, even our own, may not answer yet) and keeps the
 * configuration. Plain http is allowed only for a provider on this machine (development and tests).
 */
export function createOidcClient(settings: OidcClientSettings) {
  let discovered: Promise<client.Configuration> | undefined;
  return {
    settings,
    configuration(): Promise<client.Configuration> {
      discovered ??= (async () => {
        const issuer = new URL(settings.issuer);
        const insecure = isLoopbackHttp(issuer);
        const configuration = await client.discovery(
          issuer,
          settings.clientId,
          { client_secret: settings.clientSecret, id_token_signed_response_alg: 'RS256' },
          client.ClientSecretBasic(settings.clientSecret),
          { execute: insecure ? [client.allowInsecureRequests] : [], timeout: 5 },
        );
        // Verify the ID token's signature against the provider's JWKS too, not only trust the TLS channel.
        client.enableNonRepudiationChecks(configuration);
        return configuration;
      })().catch((error: unknown) => {
        discovered = undefined; // try again on the next sign-in
        throw error;
      });
      return discovered;
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
