import { badRequest } from './errors.js';

/**
 * Refuses a picture link to our own site (any scheme or port on our host): every visitor's browser would call
 * it, so a menu could make them start sign-ins or hit the API. The shared schema has refused the rest (relative,
 * private and loopback links); only the server knows its own origin.
 */
export function refuseOwnSite(publicUrl: string, links: Record<string, string | undefined>): void {
  const ownHost = new URL(publicUrl).hostname;
  for (const [field, link] of Object.entries(links)) {
    if (link !== undefined && URL.canParse(link) && new URL(link).hostname === ownHost)
      throw badRequest('A picture link must not point to this site', field);
  }
}
