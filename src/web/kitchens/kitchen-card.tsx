import { Card, Paper } from '@mantine/core';
import { OpenBadge } from '../availability/open-badge.js';
import { useAvailability } from '../availability/use-availability.js';
import { formatDistance } from '../../shared/geo.js';
import type { KitchenSearchHit } from '../../shared/search.js';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '../router/router.js';
import { paths } from '../../shared/paths.js';
import { GRID_SIZES, Picture } from '../images/picture.js';
import { ratingWords } from '../reviews/stars.js';
import { formatRating } from '../../shared/review-texts.js';
import classes from './kitchen-card.module.css';
import { kitchenKey, type Kitchen } from './use-kitchens.js';
import { t } from '../i18n.js';
import { StaticPart } from '../ssr/static-part.js';

const CARD_CLASS = `${classes.card} ${Card.classes.root} mantine-Card-root ${Paper.classes.root} mantine-Paper-root`;

/**
 * A kitchen on the landing page: its name above its picture; a click opens its menu. A search hit also names
 * the dishes that matched and how far the kitchen is.
 */
export function KitchenCard({
  kitchen,
  firstRow = false,
}: {
  kitchen: Kitchen | KitchenSearchHit;
  /** In the grid's first row: its picture may be on the first screen, so it is not left to lazy loading. */
  firstRow?: boolean;
}) {
  const hit = 'matchingDishes' in kitchen ? kitchen : undefined;
  const queryClient = useQueryClient();
  const state = useAvailability(kitchen);
  return (
    // Mantine's Card as its HTML (its classes and attributes, its variables in classes.card): a Card component is
    // four components deep for each of the page's 24 cards, and this element is all it renders here.
    <Link
      to={paths.kitchenMenu.href(kitchen.uid)}
      // The selection the menu page starts from, so it shows name and picture at once.
      onClick={() => queryClient.setQueryData(kitchenKey(kitchen.uid), kitchen)}
      className={CARD_CLASS}
      data-with-border="true"
      data-orientation="vertical"
      // The name a screen reader hears (and tests find): with its rating, which the label would otherwise hide.
      aria-label={
        kitchen.rating
          ? t('{name}, {category} kitchen, {rating}', {
              name: kitchen.name,
              category: kitchen.category,
              rating: ratingWords(kitchen.rating),
            })
          : t('{name}, {category} kitchen', { name: kitchen.name, category: kitchen.category })
      }
      data-testid="kitchen-card"
    >
      {/* Its open state by value (useAvailability makes a new object on every render); not whether the card is in
          the first row, which only says how a picture not yet shown is to be loaded. */}
      <StaticPart inputs={[kitchen, state.open, hit?.distanceKm]}>
        <div className={classes.head}>
          <h3 className={classes.name}>{kitchen.name}</h3>
          <OpenBadge state={state} />
        </div>
        <div className={classes.line}>
          <p className={classes.category}>{kitchen.category}</p>
          {kitchen.rating ? (
            <p className={classes.rating} title={ratingWords(kitchen.rating)}>
              {formatRating(kitchen.rating)}
            </p>
          ) : null}
        </div>
        <DeliveryLine kitchen={kitchen} distanceKm={hit?.distanceKm ?? null} />
        {hit && hit.matchingDishes.length > 0 && (
          <p className={classes.matches}>
            {t('Matches: {dishes}', { dishes: hit.matchingDishes.join(', ') })}
          </p>
        )}
        <div className={classes.section}>
          <Picture
            picture={kitchen}
            sizes={GRID_SIZES}
            loading={firstRow ? 'eager' : 'lazy'}
            alt={t('{name} kitchen', { name: kitchen.name })}
            className={classes.picture}
          />
        </div>
      </StaticPart>
    </Link>
  );
}

function DeliveryLine({ kitchen, distanceKm }: { kitchen: Kitchen; distanceKm: number | null }) {
  const outside = distanceKm !== null && distanceKm > kitchen.deliveryRadiusKm;
  return (
    <p className={outside ? classes.outside : classes.delivery}>
      {distanceKm !== null && `${formatDistance(distanceKm)} · `}
      {outside
        ? t('Outside delivery area')
        : t('Delivers within {distance}', { distance: formatDistance(kitchen.deliveryRadiusKm) })}
    </p>
  );
}
