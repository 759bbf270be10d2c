import type { Kitchen } from '../../shared/kitchens.js';
import { imageUrl, type StoredImage } from '../../shared/images.js';
import type { MenuItem } from '../../shared/menu.js';
import { WEEKDAYS, WEEKDAY_NAMES, DEFAULT_HOURS } from '../../shared/opening-hours.js';
import { paths } from '../../shared/paths.js';
import { formatDistance } from '../../shared/geo.js';
import { kitchenPageTitle, scriptSafeJson, siteTitle } from '../../shared/page-data.js';
import { minorDigitsOf, msg, type Translator } from '../../shared/i18n/translator.js';
import { KITCHEN_UNAVAILABLE } from '../../shared/moderation.js';

/** A page's `<head>` for link previews and search engines. */
export interface PageHead {
  title: string;
  description: string;
  /** Absolute. */
  canonical: string;
  /** Absolute. */
  image: string;
  imageAlt: string;
  /** schema.org structured data (JSON-LD). */
  jsonLd?: object;
  /** A page that must not be indexed (a kitchen that does not exist). */
  noindex?: boolean;
}

export const SITE_NAME = 'HomeCooked';
const SITE_DESCRIPTION = msg(
  'HomeCooked connects people living away from home with home cooks nearby: order homemade food from kitchens near you.',
);

/** Escapes text for HTML text and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The largest stored size of an uploaded picture (link previews want 1200 px wide or so). */
function largest(image: StoredImage): { width: number } {
  return { width: Math.max(...image.widths, 0) || image.width };
}

/** A kitchen's or dish's picture as an absolute URL; the site's icon when it has none. */
export function absolutePicture(
  publicUrl: string,
  picture: { imageLink: string | null; image: StoredImage | null },
): string {
  if (picture.image) return publicUrl + imageUrl(picture.image.id, largest(picture.image).width);
  // Links are checked on save to be absolute http(s) links to a public host.
  if (picture.imageLink) return picture.imageLink;
  return `${publicUrl}/icons/icon-512.png`;
}

const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;

export function landingHead(tr: Translator, publicUrl: string, kitchens: readonly Kitchen[]): PageHead {
  const canonical = `${publicUrl}${paths.home.href()}`;
  const siteDescription = tr.t(SITE_DESCRIPTION);
  return {
    title: siteTitle(tr),
    description:
      kitchens.length > 0
        ? clip(
            `${siteDescription} ${tr.t('{count, plural, one {# kitchen} other {# kitchens}}: {names}.', {
              count: kitchens.length,
              names: kitchens.map((k) => k.name).join(', '),
            })}`,
            300,
          )
        : siteDescription,
    canonical,
    image: `${publicUrl}/icons/icon-512.png`,
    imageAlt: SITE_NAME,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: SITE_NAME,
      url: canonical,
      description: siteDescription,
      mainEntity: {
        '@type': 'ItemList',
        itemListElement: kitchens.map((kitchen, index) => ({
          '@type': 'ListItem',
          position: index + 1,
          url: `${publicUrl}${paths.kitchenMenu.href(kitchen.uid)}`,
          name: kitchen.name,
        })),
      },
    },
  };
}

export function kitchenHead(
  tr: Translator,
  publicUrl: string,
  kitchen: Kitchen,
  menu: readonly MenuItem[],
): PageHead {
  const url = `${publicUrl}${paths.kitchenMenu.href(kitchen.uid)}`;
  const image = absolutePicture(publicUrl, kitchen);
  const cheapest = menu.length > 0 ? Math.min(...menu.map((item) => item.priceCents)) : undefined;
  const dishes = menu.slice(0, 6).map((item) => item.item);
  const description = clip(
    [
      tr.t('{kitchen}: {cuisine} home cooking on HomeCooked, delivered within {distance}.', {
        kitchen: kitchen.name,
        cuisine: kitchen.category,
        distance: formatDistance(kitchen.deliveryRadiusKm, tr),
      }),
      menu.length > 0
        ? tr.t('{count, plural, one {# dish} other {# dishes}} from {price}: {dishes}', {
            count: menu.length,
            price: tr.money(cheapest ?? 0),
            dishes: `${dishes.join(', ')}${menu.length > dishes.length ? ', …' : '.'}`,
          })
        : '',
    ]
      .filter(Boolean)
      .join(' '),
    300,
  );
  const hours = kitchen.hours ?? DEFAULT_HOURS;
  return {
    title: kitchenPageTitle(kitchen, tr),
    description,
    canonical: url,
    image,
    imageAlt: tr.t('{kitchen} kitchen', { kitchen: kitchen.name }),
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Restaurant',
      '@id': `${url}#kitchen`,
      name: kitchen.name,
      servesCuisine: kitchen.category,
      url,
      image,
      description,
      // The kitchen's address is a home's: it stays out of what search engines copy.
      openingHoursSpecification: WEEKDAYS.flatMap((day) =>
        hours[day].map(([opens, closes]) => ({
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: `https://schema.org/${WEEKDAY_NAMES[day]}`,
          opens,
          closes: closes === '24:00' ? '23:59' : closes,
        })),
      ),
      ...(cheapest !== undefined ? { priceRange: tr.t('from {price}', { price: tr.money(cheapest) }) } : {}),
      // The average of its visible reviews (operators' hidden ones are not counted), once it has one.
      ...(kitchen.rating
        ? {
            aggregateRating: {
              '@type': 'AggregateRating',
              ratingValue: kitchen.rating.average,
              reviewCount: kitchen.rating.count,
              bestRating: 5,
              worstRating: 1,
            },
          }
        : {}),
      hasMenu: {
        '@type': 'Menu',
        name: tr.t('Menu of {kitchen}', { kitchen: kitchen.name }),
        url,
        hasMenuSection: [
          {
            '@type': 'MenuSection',
            name: tr.t('Full Menu'),
            hasMenuItem: menu.map((item) => ({
              '@type': 'MenuItem',
              name: item.item,
              ...(item.image || item.imageLink ? { image: absolutePicture(publicUrl, item) } : {}),
              offers: {
                '@type': 'Offer',
                price: (item.priceCents / 10 ** minorDigitsOf(tr.currency)).toFixed(
                  minorDigitsOf(tr.currency),
                ),
                priceCurrency: tr.currency,
                availability:
                  item.soldOut || item.portionsLeft === 0
                    ? 'https://schema.org/SoldOut'
                    : 'https://schema.org/InStock',
              },
            })),
          },
        ],
      },
    },
  };
}

export function notFoundHead(tr: Translator, publicUrl: string, path: string): PageHead {
  return {
    title: tr.t('Kitchen not found | HomeCooked'),
    description: tr.t('We could not find this kitchen. It may have closed, or the link may be wrong.'),
    canonical: publicUrl + path,
    image: `${publicUrl}/icons/icon-512.png`,
    imageAlt: SITE_NAME,
    noindex: true,
  };
}

/** A suspended or unlisted kitchen's page: says it is unavailable, names nothing of it, and is kept out of search results. */
export function unavailableHead(tr: Translator, publicUrl: string, path: string): PageHead {
  return {
    title: tr.t('Kitchen unavailable | HomeCooked'),
    description: tr.t(KITCHEN_UNAVAILABLE),
    canonical: publicUrl + path,
    image: `${publicUrl}/icons/icon-512.png`,
    imageAlt: SITE_NAME,
    noindex: true,
  };
}

/** The tags of a page's head, its title first. */
export function headHtml(head: PageHead): string {
  const e = escapeHtml;
  const meta = (attr: 'name' | 'property', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${e(value)}" />`;
  return [
    `<title>${e(head.title)}</title>`,
    meta('name', 'description', head.description),
    head.noindex ? meta('name', 'robots', 'noindex') : '',
    `<link rel="canonical" href="${e(head.canonical)}" />`,
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', head.canonical),
    meta('property', 'og:image', head.image),
    meta('property', 'og:image:alt', head.imageAlt),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
    meta('name', 'twitter:image', head.image),
    head.jsonLd
      ? `<script type="application/ld+json">${scriptSafeJson(JSON.stringify(head.jsonLd))}</script>`
      : '',
  ]
    .filter(Boolean)
    .join('\n    ');
}
