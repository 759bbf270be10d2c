// @vitest-environment happy-dom
import { ActionIcon, Card, Group, Text } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { setTranslator, Translator } from '../../shared/i18n/translator.js';
import type { MenuItem } from '../../shared/menu.js';
import { GRID_SIZES, Picture } from '../images/picture.js';
import { comparableHtml } from '../lib/mantine-html.js';
import { StaticPart } from '../ssr/static-part.js';
import { DishText, PublicMenuItem } from './public-menu-item.js';
import classes from './public-menu-item.module.css';

/** A dish as it was made of Mantine's components before it became their HTML. */
function MantineDish({ item, soldOut }: { item: MenuItem; soldOut: boolean }) {
  return (
    <Card withBorder radius="md" padding="md" component="li" data-testid="menu-item" className={classes.dish}>
      <Card.Section className={classes.picture}>
        <StaticPart inputs={[item]}>
          <Picture picture={item} sizes={GRID_SIZES} loading="eager" alt={item.item} h={160} fit="cover" />
        </StaticPart>
      </Card.Section>
      <Group justify="space-between" align="flex-start" mt="md" wrap="nowrap" className={classes.body}>
        <StaticPart inputs={[item]}>
          <DishText item={item} />
        </StaticPart>
        <ActionIcon
          size="xl"
          radius="xl"
          aria-label={soldOut ? `${item.item} is sold out` : `Add ${item.item} to cart`}
          onClick={() => undefined}
          disabled={soldOut}
        >
          <Text component="span" fw={700} size="xl" aria-hidden="true">
            +
          </Text>
        </ActionIcon>
      </Group>
    </Card>
  );
}

const dal: MenuItem = {
  id: '5b0a4f4e-8f7e-4c1e-9b1a-0d6f0f3c2a11',
  kitchenUid: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  item: 'Dal makhani',
  secondName: 'दाल मखनी',
  imageLink: 'https://example.org/dal.jpg',
  image: null,
  priceCents: 1175,
  wait: '25 min',
  dietary: ['vegetarian'],
  allergens: ['milk'],
  mayContain: [],
  allergensDeclared: true,
  ingredients: '',
  keepsDays: null,
  reheating: '',
  soldOut: false,
  portionsPerDay: 10,
  portionsLeft: 2,
};

describe("a dish's HTML is Mantine's Card with its '+'", () => {
  for (const [name, item] of [
    ['on the menu, a few left', dal],
    ['sold out', { ...dal, soldOut: true }],
  ] as const)
    it(name, () => {
      const soldOut = item.soldOut;
      const ours = comparableHtml(<PublicMenuItem item={item} onAdd={() => undefined} firstRow />);
      const theirs = comparableHtml(<MantineDish item={item} soldOut={soldOut} />);
      expect(ours).toBe(theirs);
      expect(ours).toContain(soldOut ? 'Dal makhani is sold out' : 'Add Dal makhani to cart');
    });
});

describe("a dish's price", () => {
  it('is in the currency of the marketplace: a dish of 500 yen shows ¥500', () => {
    const previous = setTranslator(new Translator({ locale: 'en', messages: {}, currency: 'JPY' }));
    try {
      const html = comparableHtml(
        <PublicMenuItem item={{ ...dal, priceCents: 500 }} onAdd={() => undefined} firstRow />,
      );
      expect(html).toContain('¥500');
      expect(html).not.toContain('¥5.00');
    } finally {
      setTranslator(previous);
    }
  });
});
