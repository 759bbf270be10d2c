import { ActionIcon, Badge, Card, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import { DIETARY_LABELS } from '../../shared/dietary-tags.js';
import { formatCents } from '../../shared/money.js';
import { portionsNote } from '../../shared/menu-portions.js';
import type { MenuItem } from '../../shared/menu.js';
import { GRID_SIZES, Picture } from '../images/picture.js';
import classes from './public-menu-item.module.css';
import { pageLocale, t } from '../i18n.js';
import { allergenName } from '../../shared/allergen-set.js';
import { StaticPart } from '../ssr/static-part.js';

const css = (style: Record<string, string | number>) => style as CSSProperties;

/** Mantine's Card, Card.Section, Group, ActionIcon and Text of a dish as their HTML (public-menu-item.test.tsx). */
const DISH_CLASS = `${classes.dish} ${Card.classes.root} mantine-Card-root ${Paper.classes.root} mantine-Paper-root`;
const DISH_STYLE = css({
  '--paper-radius': 'var(--mantine-radius-md)',
  '--card-padding': 'var(--mantine-spacing-md)',
});
const PICTURE_CLASS = `${Card.classes.section} mantine-Card-section ${classes.picture}`;
const BODY_CLASS = `${classes.body} ${Group.classes.root} mantine-Group-root`;
const BODY_STYLE = css({
  '--group-gap': 'var(--mantine-spacing-md)',
  '--group-align': 'flex-start',
  '--group-justify': 'space-between',
  '--group-wrap': 'nowrap',
  marginTop: 'var(--mantine-spacing-md)',
});
const ADD_CLASSES = `${ActionIcon.classes.root} mantine-ActionIcon-root ${UnstyledButton.classes.root} mantine-UnstyledButton-root`;
/** Pressed, an ActionIcon moves down a pixel (`mantine-active`); a disabled one does not. */
const addClass = (disabled: boolean) =>
  `mantine-focus-auto ${disabled ? '' : 'mantine-active '}${ADD_CLASSES}`;
const ADD_STYLE = css({
  '--ai-size': 'var(--ai-size-xl)',
  '--ai-radius': 'var(--mantine-radius-xl)',
  '--ai-color': 'var(--mantine-color-white)',
});
const PLUS_CLASS = `mantine-focus-auto ${Text.classes.root} mantine-Text-root`;
const PLUS_STYLE = css({
  '--text-fz': 'var(--mantine-font-size-xl)',
  '--text-lh': 'var(--mantine-line-height-xl)',
  fontWeight: 700,
});

/**
 * One dish of a kitchen's public menu, with the '+' that puts it in the cart. Hydrated for its '+', a dish is the
 * HTML of Mantine's Card with a section, a Group and an ActionIcon, not those components: eleven of them per dish,
 * for a menu of thirty dishes, was most of what a kitchen's page hydrated (issue 32, ADR 16).
 */
export function PublicMenuItem({
  item,
  onAdd,
  firstRow = false,
  marks,
}: {
  item: MenuItem;
  onAdd: () => void;
  /** What of it conflicts with the customer's allergies (made in the browser only). */
  marks?: ReactNode;
  /** In the grid's first row: its picture may be on the first screen, so it is not left to lazy loading. */
  firstRow?: boolean;
}) {
  const soldOut = portionsNote(item) === 'Sold out';
  return (
    <li
      style={DISH_STYLE}
      className={DISH_CLASS}
      data-with-border="true"
      data-orientation="vertical"
      data-testid="menu-item"
    >
      <div className={PICTURE_CLASS} data-orientation="vertical" data-first-section="true">
        {/* Not whether it is in the first row: that only says how a picture not yet shown is to be loaded. */}
        <StaticPart inputs={[item]}>
          <Picture
            picture={item}
            sizes={GRID_SIZES}
            loading={firstRow ? 'eager' : 'lazy'}
            alt={item.item}
            h={160}
            fit="cover"
          />
        </StaticPart>
      </div>
      <div style={BODY_STYLE} className={BODY_CLASS}>
        {/* Its text made only when rendered: a price in another language than English builds Intl's number
            formatter, which a page that keeps the server's HTML never needs (ADR 15). */}
        <StaticPart inputs={[item]}>
          <DishText item={item} />
        </StaticPart>
        <button
          style={ADD_STYLE}
          className={addClass(soldOut)}
          data-size="xl"
          type="button"
          aria-label={
            soldOut
              ? t('{dish} is sold out', { dish: item.item })
              : t('Add {dish} to cart', { dish: item.item })
          }
          onClick={onAdd}
          disabled={soldOut}
          data-disabled={soldOut || undefined}
        >
          <span className={`${ActionIcon.classes.icon} mantine-ActionIcon-icon`}>
            <span style={PLUS_STYLE} className={PLUS_CLASS} data-size="xl" aria-hidden="true">
              +
            </span>
          </span>
        </button>
      </div>
      {marks}
    </li>
  );
}

const names = (allergens: readonly string[]) =>
  allergens.map((allergen) => allergenName(allergen, pageLocale())).join(t(', '));

/** A dish's name, price, portions left, wait, tags, ingredients and allergens. */
export function DishText({ item }: { item: MenuItem }) {
  const note = portionsNote(item);
  const soldOut = note === 'Sold out';
  const noteText = soldOut
    ? t('Sold out')
    : note && item.portionsLeft !== null
      ? t('{count, plural, one {Only # left} other {Only # left}}', { count: item.portionsLeft })
      : note;
  return (
    <Stack gap={2}>
      {/* A name reads as written, whichever way it and the page run (isolated, aligned with the page). */}
      <Text component="h3" fw={700} size="lg">
        <bdi>{item.item}</bdi>
      </Text>
      {item.secondName && (
        <Text size="sm" fw={600} c="dimmed" data-testid="second-name">
          <bdi>{item.secondName}</bdi>
        </Text>
      )}
      <Group gap="xs">
        <Text fw={600}>{formatCents(item.priceCents)}</Text>
        {noteText && (
          <Badge size="sm" variant="filled" tt="none" color={soldOut ? 'gray.7' : '#9c3d00'}>
            {noteText}
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {t('Wait time: {wait}', { wait: item.wait })}
      </Text>
      {item.dietary.length > 0 && (
        <Group gap={4} mt={4}>
          {item.dietary.map((tag) => (
            <Badge key={tag} size="sm" variant="light" color="green">
              {t(DIETARY_LABELS[tag])}
            </Badge>
          ))}
        </Group>
      )}
      {item.ingredients && (
        <Text size="sm" mt={4}>
          {t('Ingredients: {ingredients}', { ingredients: item.ingredients })}
        </Text>
      )}
      {!item.allergensDeclared && (
        <Text size="sm" mt={4} fw={700}>
          {t('Allergens not declared')}
        </Text>
      )}
      {item.allergens.length > 0 && (
        <Text size="sm" mt={4}>
          {t('Contains: {allergens}', { allergens: names(item.allergens) })}
        </Text>
      )}
      {item.mayContain.length > 0 && (
        <Text size="sm">{t('May contain: {allergens}', { allergens: names(item.mayContain) })}</Text>
      )}
    </Stack>
  );
}
