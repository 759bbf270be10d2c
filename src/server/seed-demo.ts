import { readFile } from 'node:fs/promises';
import { ALL_DAY_HOURS } from '../shared/opening-hours.js';
import { join } from 'node:path';
import { asc, count, eq, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { upsertUser } from './identity/users.js';
import { parsePriceToCents } from '../shared/money.js';
import { insertImage } from './pictures/image-queries.js';
import { DatabaseImageStore, type ImageStore } from './pictures/image-store.js';
import { processImage, type ProcessedImage } from './pictures/process-image.js';
import { projectRoot } from './lib/project-root.js';
import type { Db, Tx } from './db/database.js';
import { dishDeclarations, kitchens, menuItems } from './db/schema.js';
import type { Allergen } from '../shared/allergen-set.js';
import type { OrderingSettings } from '../shared/ordering.js';

interface DemoKitchen {
  name: string;
  category: string;
  address: string;
  owner: string;
  /** 'About the cook'. */
  about: string;
  image: string;
  items: [item: string, price: string, wait: string, image: string][];
  /** How it takes orders, beyond the default (delivery, as soon as possible). */
  ordering?: Partial<OrderingSettings>;
}

/**
 * What each demo dish declares (a cook answers every allergen of the set before a dish is published: ADR 20): its
 * ingredients, and the allergens it contains or may contain, as a cook of each dish would usually answer.
 */
const DEMO_DECLARATIONS: Record<
  string,
  { ingredients: string; contains: Allergen[]; mayContain?: Allergen[] }
> = {
  'Dal Tadka with Rice': {
    ingredients: 'Yellow lentils, basmati rice, ghee, onion, tomato, garlic, cumin, mustard seeds, turmeric',
    contains: ['milk', 'mustard'],
  },
  'Paneer Butter Masala': {
    ingredients: 'Paneer, butter, cream, tomato, cashews, ginger, garlic, garam masala',
    contains: ['milk', 'tree nuts'],
  },
  'Aloo Paratha': {
    ingredients: 'Wheat flour, potato, ghee, green chilli, coriander, spices',
    contains: ['wheat', 'cereals containing gluten', 'milk'],
  },
  'Chicken Tamales': {
    ingredients: 'Corn masa, chicken, lard, guajillo chilli, garlic, corn husks',
    contains: [],
  },
  'Pozole Rojo': {
    ingredients: 'Hominy, pork shoulder, ancho chilli, garlic, oregano, radish, lime',
    contains: [],
  },
  Churros: {
    ingredients: 'Wheat flour, eggs, sugar, cinnamon, sunflower oil',
    contains: ['wheat', 'cereals containing gluten', 'eggs'],
    mayContain: ['milk'],
  },
  'Chicken Adobo': {
    ingredients: 'Chicken, soy sauce, cane vinegar, garlic, bay leaves, black pepper, rice',
    contains: ['soya', 'wheat', 'cereals containing gluten'],
  },
  'Pancit Canton': {
    ingredients: 'Wheat egg noodles, chicken, shrimp, cabbage, carrot, soy sauce, oyster sauce',
    contains: ['wheat', 'cereals containing gluten', 'eggs', 'crustaceans', 'molluscs', 'soya'],
  },
  'Ube Halaya': {
    ingredients: 'Purple yam, coconut milk, condensed milk, butter, sugar',
    contains: ['milk'],
  },
  Lasagna: {
    ingredients:
      'Egg pasta, beef, tomato, béchamel (milk, butter, wheat flour), parmesan, onion, celery, carrot',
    contains: ['wheat', 'cereals containing gluten', 'eggs', 'milk', 'celery'],
  },
  'Gnocchi al Pesto': {
    ingredients: 'Potato, wheat flour, egg, basil, pine nuts, parmesan, olive oil, garlic',
    contains: ['wheat', 'cereals containing gluten', 'eggs', 'milk', 'tree nuts'],
  },
  Tiramisu: {
    ingredients: 'Mascarpone, eggs, ladyfingers (wheat), espresso, cocoa, sugar, marsala wine',
    contains: ['milk', 'eggs', 'wheat', 'cereals containing gluten', 'sulphites'],
  },
  'Jollof Rice': {
    ingredients:
      'Long-grain rice, tomato, red pepper, scotch bonnet, onion, vegetable stock, thyme, bay leaf',
    contains: [],
    mayContain: ['celery'],
  },
  'Egusi Soup': {
    ingredients: 'Ground melon seeds, spinach, palm oil, stockfish, ground crayfish, beef, onion',
    contains: ['fish', 'crustaceans'],
  },
  'Puff-Puff': {
    ingredients: 'Wheat flour, yeast, sugar, nutmeg, sunflower oil',
    contains: ['wheat', 'cereals containing gluten'],
  },
  Bibimbap: {
    ingredients: 'Rice, beef, egg, spinach, bean sprouts, carrot, gochujang, sesame oil, soy sauce',
    contains: ['eggs', 'sesame', 'soya', 'wheat', 'cereals containing gluten'],
  },
  'Kimchi Jjigae': {
    ingredients: 'Kimchi (cabbage, fish sauce, salted shrimp), pork belly, tofu, gochugaru, onion',
    contains: ['fish', 'crustaceans', 'soya'],
  },
  Japchae: {
    ingredients:
      'Sweet potato noodles, beef, spinach, carrot, mushrooms, soy sauce, sesame oil, sesame seeds',
    contains: ['soya', 'wheat', 'cereals containing gluten', 'sesame'],
  },
};

/** Pickup too, and orders for later in half-hour slots: what a cook who plans their cooking might set. */
const PICKUP_AND_SLOTS = {
  offersPickup: true,
  slotMinutes: 30,
  priorNoticeMinutes: 120,
  daysAhead: 3,
  ordersPerSlot: 10,
} satisfies Partial<OrderingSettings>;

const DEMO: DemoKitchen[] = [
  {
    name: "Asha's Tiffin",
    category: 'Indian',
    address: '12 Curry Lane',
    owner: 'Asha Patel',
    about:
      'I learned to cook from my grandmother in Ahmedabad. Everything is made the morning you order it, with spices I roast and grind myself.',
    image: 'kitchen-indian',
    items: [
      ['Dal Tadka with Rice', '9.50', '25 min', 'dish-yellow'],
      ['Paneer Butter Masala', '12.00', '30 min', 'dish-red'],
      ['Aloo Paratha', '6.75', '20 min', 'dish-brown'],
    ],
  },
  {
    name: 'Casa Lupita',
    category: 'Mexican',
    address: '48 Agave Street',
    owner: 'Lupita Hernández',
    about:
      "Recipes from my mother's kitchen in Puebla: masa made fresh, salsas by hand, and pozole on Sundays like at home.",
    image: 'kitchen-mexican',
    items: [
      ['Chicken Tamales', '10.00', '35 min', 'dish-yellow'],
      ['Pozole Rojo', '11.50', '40 min', 'dish-red'],
      ['Churros', '4.25', '15 min', 'dish-brown'],
    ],
  },
  {
    name: "Lola's Kusina",
    category: 'Filipino',
    address: '7 Sampaguita Road',
    owner: 'Lola Santos',
    about:
      'Filipino comfort food the way my Lola made it in Pampanga. Adobo slow-cooked, pancit for every birthday.',
    image: 'kitchen-filipino',
    items: [
      ['Chicken Adobo', '11.00', '30 min', 'dish-brown'],
      ['Pancit Canton', '9.75', '25 min', 'dish-yellow'],
      ['Ube Halaya', '5.00', '10 min', 'dish-purple'],
    ],
    ordering: {
      ...PICKUP_AND_SLOTS,
      pickupAddress: '7 Sampaguita Road, the blue door',
      pickupInstructions: 'Ring the bell once; I bring your order down to the gate.',
      minimumOrderCents: 1500,
    },
  },
  {
    name: 'Nonna Rosa',
    category: 'Italian',
    address: '3 Via Roma',
    owner: 'Rosa Bianchi',
    about:
      'Pasta rolled by hand every morning, sauces that simmer for hours. A taste of Sunday lunch in Bologna.',
    image: 'kitchen-italian',
    items: [
      ['Lasagna', '13.50', '40 min', 'dish-red'],
      ['Gnocchi al Pesto', '12.25', '25 min', 'dish-green'],
      ['Tiramisu', '6.00', '10 min', 'dish-brown'],
    ],
  },
  {
    name: "Mama Ngozi's Pot",
    category: 'Nigerian',
    address: '21 Lagos Avenue',
    owner: 'Ngozi Okafor',
    about: 'Party jollof and soups from Enugu, cooked in small batches. Tell me how hot you like it.',
    image: 'kitchen-nigerian',
    items: [
      ['Jollof Rice', '10.50', '35 min', 'dish-red'],
      ['Egusi Soup', '12.00', '40 min', 'dish-green'],
      ['Puff-Puff', '4.00', '15 min', 'dish-brown'],
    ],
    ordering: {
      ...PICKUP_AND_SLOTS,
      pickupAddress: '21 Lagos Avenue, ground floor',
      pickupInstructions: 'Park in the side street; call when you are outside and I come out.',
      minimumOrderCents: 2000,
    },
  },
  {
    name: 'Seoul Kitchen at Home',
    category: 'Korean',
    address: '9 Hanok Court',
    owner: 'Min-ji Kim',
    about: 'Home-style Korean dishes from Jeonju, with kimchi I ferment myself in the autumn.',
    image: 'kitchen-korean',
    items: [
      ['Bibimbap', '11.75', '25 min', 'dish-red'],
      ['Kimchi Jjigae', '10.25', '30 min', 'dish-red'],
      ['Japchae', '9.50', '20 min', 'dish-white'],
    ],
  },
];

/** The shipped SVG drawings, turned into stored pictures as a cook's upload would be. */
async function renderDemoPictures(): Promise<Map<string, ProcessedImage>> {
  const names = new Set(DEMO.flatMap((demo) => [demo.image, ...demo.items.map((item) => item[3])]));
  const rendered = new Map<string, ProcessedImage>();
  for (const name of names) {
    const svg = await readFile(join(projectRoot(), 'public', 'demo', `${name}.svg`));
    rendered.set(name, await processImage(svg, { trusted: true }));
  }
  return rendered;
}

/**
 * Puts the demo kitchens into an empty database, with the pictures shipped in public/demo stored as uploads
 * (each kitchen owns its own copies, as if its cook had uploaded them). Does nothing otherwise.
 */
export async function seedDemo(db: Db, store: ImageStore = new DatabaseImageStore(db)): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(kitchens);
  if ((existing?.n ?? 0) > 0) return false;
  const pictures = await renderDemoPictures();
  const uploads: { id: string; picture: ProcessedImage }[] = [];
  const upload = async (tx: Tx, ownerId: string, name: string) => {
    const picture = pictures.get(name);
    if (!picture) throw new Error(`no demo picture ${name}`);
    const image = await insertImage(tx, ownerId, picture);
    uploads.push({ id: image.id, picture });
    return image.id;
  };
  await db.transaction(async (tx) => {
    const start = Date.now() - DEMO.length * 60_000;
    for (const [index, demo] of DEMO.entries()) {
      const owner = await upsertUser(tx, {
        issuer: 'urn:marketplace:demo',
        subject: `demo-${index + 1}`,
        email: `demo-${index + 1}@kitchens.example`,
        displayName: demo.owner,
        photoUrl: null,
      });
      await tx.insert(kitchens).values({
        ownerId: owner.id,
        name: demo.name,
        category: demo.category,
        address: demo.address,
        imageId: await upload(tx, owner.id, demo.image),
        ownerName: demo.owner,
        ownerEmail: owner.email,
        about: demo.about,
        // Open around the clock, so that trying the app works at any hour (a real cook sets their own hours).
        openingHours: ALL_DAY_HOURS,
        createdAt: new Date(start + index * 60_000),
        ...demo.ordering,
      });
      for (const [i, [item, price, wait, image]] of demo.items.entries()) {
        const declared = DEMO_DECLARATIONS[item];
        if (!declared) throw new Error(`demo dish ${item} declares no allergens`);
        const [dish] = await tx
          .insert(menuItems)
          .values({
            kitchenId: owner.id,
            item,
            // Written as dollars and cents; another CURRENCY has the same minor units (12.50 is ¥1250).
            priceCents: parsePriceToCents(price, 'USD') ?? 0,
            wait,
            imageId: await upload(tx, owner.id, image),
            allergens: declared.contains,
            mayContain: declared.mayContain ?? [],
            ingredients: declared.ingredients,
            allergensDeclaredAt: new Date(start),
            createdAt: new Date(start + index * 60_000 + i * 1000),
          })
          .returning({ id: menuItems.id });
        if (dish)
          await tx.insert(dishDeclarations).values({
            menuItemId: dish.id,
            contains: declared.contains,
            mayContain: declared.mayContain ?? [],
            declared: true,
            ingredients: declared.ingredients,
            createdAt: new Date(start),
          });
      }
    }
  });
  for (const { id, picture } of uploads) await store.put(id, picture.variants);
  return true;
}

/**
 * `PAYMENTS=local`: the demo kitchens start with payouts on (their accounts made and onboarded at our own provider),
 * every other one taking cash on delivery too, so that trying the app shows both ways to pay. Their accounts are
 * made again should the provider's state have been lost.
 */
export async function activateDemoPayouts(app: FastifyInstance): Promise<void> {
  const { provider, local } = app.payments;
  if (!provider || !local) return;
  const demo = await app.db
    .select({ uid: kitchens.ownerId, email: kitchens.ownerEmail, account: kitchens.payoutAccountId })
    .from(kitchens)
    .where(like(kitchens.ownerEmail, '%@kitchens.example'))
    .orderBy(asc(kitchens.createdAt));
  for (const [index, kitchen] of demo.entries()) {
    if (kitchen.account && local.objects.has(kitchen.account)) continue;
    const account = await provider.createPayoutAccount({ uid: kitchen.uid, email: kitchen.email });
    await local.completeOnboarding(account);
    await app.db
      .update(kitchens)
      .set({ payoutAccountId: account, payoutState: 'payouts-on', acceptsCash: index % 2 === 0 })
      .where(eq(kitchens.ownerId, kitchen.uid));
  }
}
