import { count } from 'drizzle-orm';
import { upsertUser } from '../auth/users.js';
import { parsePriceToCents } from '../../shared/money.js';
import type { Db } from './database.js';
import { kitchens, menuItems } from './schema.js';

interface DemoKitchen {
  name: string;
  category: string;
  address: string;
  owner: string;
  image: string;
  items: [item: string, price: string, wait: string, image: string][];
}

const DEMO: DemoKitchen[] = [
  {
    name: "Asha's Tiffin",
    category: 'Indian',
    address: '12 Curry Lane',
    owner: 'Asha Patel',
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
    image: 'kitchen-filipino',
    items: [
      ['Chicken Adobo', '11.00', '30 min', 'dish-brown'],
      ['Pancit Canton', '9.75', '25 min', 'dish-yellow'],
      ['Ube Halaya', '5.00', '10 min', 'dish-purple'],
    ],
  },
  {
    name: 'Nonna Rosa',
    category: 'Italian',
    address: '3 Via Roma',
    owner: 'Rosa Bianchi',
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
    image: 'kitchen-nigerian',
    items: [
      ['Jollof Rice', '10.50', '35 min', 'dish-red'],
      ['Egusi Soup', '12.00', '40 min', 'dish-green'],
      ['Puff-Puff', '4.00', '15 min', 'dish-brown'],
    ],
  },
  {
    name: 'Seoul Kitchen at Home',
    category: 'Korean',
    address: '9 Hanok Court',
    owner: 'Min-ji Kim',
    image: 'kitchen-korean',
    items: [
      ['Bibimbap', '11.75', '25 min', 'dish-red'],
      ['Kimchi Jjigae', '10.25', '30 min', 'dish-red'],
      ['Japchae', '9.50', '20 min', 'dish-white'],
    ],
  },
];

/** Puts the demo kitchens (pictures shipped in public/demo) into an empty database. Does nothing otherwise. */
export async function seedDemo(db: Db): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(kitchens);
  if ((existing?.n ?? 0) > 0) return false;
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
        imageLink: `/demo/${demo.image}.svg`,
        ownerName: demo.owner,
        ownerEmail: owner.email,
        createdAt: new Date(start + index * 60_000),
      });
      await tx.insert(menuItems).values(
        demo.items.map(([item, price, wait, image], i) => ({
          kitchenId: owner.id,
          item,
          priceCents: parsePriceToCents(price) ?? 0,
          wait,
          imageLink: `/demo/${image}.svg`,
          createdAt: new Date(start + index * 60_000 + i * 1000),
        })),
      );
    }
  });
  return true;
}
