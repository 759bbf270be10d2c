// Search latency (p50/p99) on a large catalogue, beside baselines read in the same run from the same server: one
// kitchen by id (a plain indexed read) and the plain kitchens list (the landing page without a search, from the
// live cache). Run alone: `npm run build && node --import tsx bench/search.ts`; `npm run bench` runs it too.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createSession } from '../src/server/identity/sessions.js';
import { openPglite, openPostgres, type Database } from '../src/server/db/database.js';
import { createPgDatabase } from '../src/server/test/test-database.js';
import { load, percentile, startApp, type BenchRow } from './lib.js';

// A realistic catalogue: dish names composed from several hundred words of many cuisines (a way of cooking or a
// place, a main ingredient, a kind of dish), drawn unevenly as menus are (chicken and curry are common, jackfruit and
// khachapuri rare), so a broad word matches thousands of dishes and a rare one a handful.
const STYLES = (
  'Spicy|Smoky|Crispy|Slow-cooked|Grilled|Roasted|Braised|Steamed|Fried|Stir-fried|Tandoori|Garlic|' +
  "Lemon|Honey|Ginger|Chilli|Coconut|Herb|Sweet|Sour|Tangy|Creamy|Street-style|Homestyle|Grandma's|" +
  'Village|Royal|Classic|Rustic|Charred|Baked|Pickled|Sesame|Black Pepper|Lime|Tamarind|Mango|Saffron|' +
  'Cumin|Peri-peri|Jerk|Teriyaki|Miso|Szechuan|Kashmiri|Goan|Punjabi|Hyderabadi|Kerala|Oaxacan|Yucatán|' +
  'Provençal|Sicilian|Tuscan|Neapolitan|Hanoi|Saigon|Seoul|Lagos|Beirut|Kraków|Bahia|Penang|Cantonese|' +
  'Hunan|Bengali|Gujarati|Sri Lankan|Persian|Turkish|Moroccan|Ethiopian|Jamaican|Cajun|Texan|Basque|' +
  'Andalusian|Greek|Cretan|Georgian|Uzbek'
).split('|');
const MAINS = (
  'Chicken|Lamb|Beef|Pork|Goat|Mutton|Duck|Prawn|Shrimp|Fish|Cod|Salmon|Tuna|Mackerel|Sardine|Crab|' +
  'Squid|Octopus|Mussel|Clam|Tofu|Tempeh|Paneer|Egg|Chickpea|Lentil|Black Bean|Kidney Bean|Mung Bean|' +
  'Mushroom|Aubergine|Eggplant|Okra|Spinach|Cauliflower|Potato|Sweet Potato|Pumpkin|Butternut|Cabbage|' +
  'Kale|Pepper|Tomato|Onion|Corn|Plantain|Cassava|Yam|Jackfruit|Halloumi|Feta|Ricotta|Mozzarella|' +
  'Chorizo|Sausage|Bacon|Ham|Turkey|Quail|Rabbit|Oxtail|Brisket|Short Rib|Pork Belly|Meatball|Carrot|' +
  'Beetroot|Courgette|Zucchini|Pea|Broccoli|Bok Choy|Daikon|Lotus Root|Bamboo Shoot|Taro|Leek|Fennel|' +
  'Artichoke|Asparagus|Avocado|Walnut|Almond|Cashew|Pistachio|Peanut|Date|Fig|Apricot|Apple|Pear|' +
  'Banana|Pineapple|Cherry|Raspberry|Chocolate|Pandan|Ube|Matcha|Cardamom|Rosewater|Vegetable|' +
  'Mixed Seafood|Kimchi|Seaweed|Bulgur|Quinoa|Barley|Freekeh|Semolina|Cornmeal|Coconut Milk|Yogurt|' +
  'Goat Cheese|Gruyère|Parmesan|Pecorino|Chestnut|Hazelnut'
).split('|');
const KINDS = (
  'Curry|Biryani|Masala|Korma|Vindaloo|Tikka|Dal|Paratha|Dosa|Idli|Samosa|Pakora|Tamales|Pozole|Tacos|' +
  'Enchiladas|Quesadilla|Burrito|Mole|Adobo|Sinigang|Pancit|Lumpia|Lasagna|Risotto|Ravioli|Gnocchi|' +
  'Pasta|Pizza|Focaccia|Stew|Soup|Pie|Tart|Quiche|Gratin|Casserole|Phở|Bánh mì|Spring Rolls|Jjigae|' +
  'Bibimbap|Bulgogi|Japchae|Jollof Rice|Egusi|Suya|Shawarma|Falafel|Kebab|Köfte|Pierogi|Borscht|' +
  'Goulash|Feijoada|Moqueca|Empanadas|Nasi Lemak|Rendang|Satay|Laksa|Pad Thai|Green Curry|Ramen|Gyoza|' +
  'Udon|Katsu|Donburi|Moussaka|Spanakopita|Souvlaki|Baklava|Tagine|Couscous|Shakshuka|Paella|Tortilla|' +
  'Croquetas|Fritters|Salad|Wrap|Sandwich|Burger|Bowl|Fried Rice|Noodles|Dumplings|Bao|Congee|Hotpot|' +
  'Skewers|Platter|Flatbread|Pilaf|Plov|Khachapuri|Halwa|Kheer|Churros|Flan|Crème brûlée|Tiramisù|' +
  'Cheesecake|Crumble|Pudding|Mochi|Halo-halo|Injera|Wat|Chowder|Gumbo|Jambalaya|Roti|Naan|Kulcha|' +
  'Thali|Chaat|Bhaji|Pulao|Rogan Josh|Saag|Kofta|Nihari|Haleem|Pastel|Coxinha|Arepa|Ceviche|' +
  'Lomo Saltado|Dolma|Manti|Börek|Lahmacun|Pide'
).split('|');
const CUISINES = (
  'Indian|Mexican|Filipino|Italian|French|Vietnamese|Korean|Nigerian|Lebanese|Polish|Brazilian|' +
  'Malaysian|Thai|Japanese|Chinese|Greek|Turkish|Moroccan|Ethiopian|Jamaican|Peruvian|Georgian|Spanish|' +
  'Sri Lankan'
).split('|');
const WORDS = [
  'Golden',
  'Little',
  'Grandma',
  'Sunny',
  'Spice',
  'Home',
  'Corner',
  'Village',
  'Auntie',
  'Happy',
];
const NOUNS = [
  'Kitchen',
  'Table',
  'Pot',
  'Tiffin',
  'Stove',
  'Pantry',
  'Hearth',
  'Cocina',
  'Kusina',
  'Bistro',
];

const textArray = (values: string[]) =>
  sql.raw(`(array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}])`);

/** Kitchens around London and `perKitchen` dishes each, in three INSERT … SELECT statements. */
export async function seedCatalogue(
  database: Database,
  kitchens: number,
  perKitchen: number,
): Promise<string> {
  const { db } = database;
  await db.execute(sql`insert into users (issuer, subject, email, display_name)
    select 'urn:bench-search', 'k' || g, 'k' || g || '@bench.test', 'Cook ' || g from generate_series(1, ${kitchens}) g`);
  await db.execute(sql`insert into kitchens
      (owner_id, name, category, address, image_link, owner_name, owner_email, latitude, longitude, created_at)
    select u.id, ${textArray(WORDS)}[1 + n % 10] || ' ' || ${textArray(NOUNS)}[1 + (n / 10) % 10] || ' ' || n,
           ${textArray(CUISINES)}[1 + n % ${CUISINES.length}], n || ' Bench Street', 'https://img.example/k.png', u.display_name,
           u.email, 51.3 + (n % 97) * 0.004, -0.5 + (n % 89) * 0.009, now() - n * interval '1 second'
    from (select id, display_name, email, row_number() over (order by subject) as n from users
          where issuer = 'urn:bench-search') u`);
  // Each dish: a style (three dishes in five), a main ingredient and a kind of dish, each drawn from a fixed hash of
  // the kitchen and the dish, the first words of each list far more often than the last (u² of a uniform u).
  const pick = (list: string[], salt: string) =>
    sql`${textArray(list)}[1 + floor(${list.length} * power((abs(hashtext(k.n || '/' || g || ${salt})) % 100000) / 100000.0, 2))::int]`;
  // Dishes through GIN's pending list, merged once at the end: the index has none in use (migration 0008), and
  // 200,000 dishes writing their trigrams one by one take minutes. A thousand kitchens a statement, within the
  // pool's query timeout.
  await db.execute(sql`alter index menu_items_item_trgm_idx set (fastupdate = on)`);
  for (let from = 1; from <= kitchens; from += 1000)
    await db.execute(sql`insert into menu_items (kitchen_id, item, image_link, price_cents, wait, dietary)
    select k.owner_id,
           case when abs(hashtext(k.n || '/' || g || '/x')) % 5 < 3 then ${pick(STYLES, '/s')} || ' ' else '' end
             || ${pick(MAINS, '/m')} || ' ' || ${pick(KINDS, '/k')},
           'https://img.example/d.png', 500 + (g * 37) % 2000, '20 min',
           case (k.n + g) % 5 when 0 then '{halal}'::text[] when 1 then '{vegetarian,vegan}'::text[]
                              when 2 then '{gluten-free}'::text[] else '{}'::text[] end
    from (select owner_id, row_number() over (order by owner_id) as n from kitchens) k,
         generate_series(1, ${perKitchen}) g
    where k.n between ${from} and ${from + 999}`);
  await db.execute(sql`select gin_clean_pending_list('menu_items_item_trgm_idx'::regclass)`);
  await db.execute(sql`alter index menu_items_item_trgm_idx set (fastupdate = off)`);
  await db.execute(sql`analyze`);
  const result = (await db.execute(sql`select owner_id from kitchens limit 1`)) as unknown as {
    rows: { owner_id: string }[];
  };
  return result.rows[0]?.owner_id ?? '';
}

/** The mix asked: common words and rare, typos, accents left out, several words, filters and a place. */
const SEARCHES = [
  'q=chicken',
  'q=chiken',
  'q=curry',
  'q=biryani',
  'q=biryni',
  'q=creme%20brulee',
  'q=pho',
  'q=lamb%20curry',
  'q=smoky%20aubergine%20stew',
  'q=kerala%20fish',
  'q=jackfruit',
  'q=khachapuri',
  'q=tamales&diet=halal',
  'q=curry&cuisine=Indian',
  'q=golden%20kitchen',
  'q=ramen&near=51.5,-0.12',
  'q=dumplings&near=51.5,-0.12',
  'diet=vegan&near=51.5,-0.12',
  'cuisine=Korean',
  'q=baklava&diet=vegetarian,vegan',
].map((q) => `/api/kitchens/search?${q}`);
/** The landing page's own asks: a search's first page (with its count), nearest first, 'Open now'. */
const PAGES = [
  'q=chicken',
  'q=curry&near=51.5,-0.12',
  'q=pho&cuisine=Vietnamese',
  'q=paneer&diet=vegetarian',
  'q=noodles&open=1',
].map((q) => `/api/kitchens/page?limit=24&${q}`);
const ASKS = [...SEARCHES, ...PAGES];

async function latency(url: string, requests?: { path: string }[]) {
  const options = { url, connections: 10, duration: 6, ...(requests ? { requests } : {}) };
  await load({ ...options, duration: 1 }); // warm up
  return load(options);
}

/**
 * What a search costs when nobody asked it since the catalogue last changed (answers are kept until then): the
 * kitchen renames itself through the API, then each search is asked once, one at a time; eight rounds.
 */
async function firstAfterChange(url: string, port: number, ownerToken: string): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < 8; round++) {
    const renamed = await fetch(`${url}/api/kitchen`, {
      method: 'PATCH',
      headers: {
        'content-type': 'application/json',
        cookie: `kitchen_session=${ownerToken}`,
        origin: `http://localhost:${port}`,
      },
      body: JSON.stringify({ name: `Renamed Kitchen ${round}` }),
    });
    if (!renamed.ok)
      throw new Error(`renaming the kitchen answered ${renamed.status}: ${await renamed.text()}`);
    for (const path of ASKS) {
      const started = performance.now();
      const res = await fetch(`${url}${path}`);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${path} answered ${res.status}`);
      times.push(performance.now() - started);
    }
  }
  return times;
}

/** Search p50/p99 on one engine and catalogue size, with the two baselines. */
async function measure(engine: 'postgres' | 'pglite', kitchens: number, dishes: number): Promise<BenchRow[]> {
  let env: Record<string, string>;
  let cleanup = async () => {};
  let someKitchen: string;
  let ownerToken: string;
  const seeded = Date.now();
  if (engine === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'mkt-bench-search-'));
    const db = await openPglite(dataDir);
    someKitchen = await seedCatalogue(db, kitchens, dishes / kitchens);
    ownerToken = await createSession(db.db, someKitchen, 'kitchen');
    await db.close();
    env = { DATA_DIR: dataDir };
  } else {
    const created = await createPgDatabase();
    const db = await openPostgres(created.url);
    someKitchen = await seedCatalogue(db, kitchens, dishes / kitchens);
    ownerToken = await createSession(db.db, someKitchen, 'kitchen');
    await db.close();
    env = { DATABASE_URL: created.url };
    cleanup = () => created.drop();
  }
  const label = `${kitchens} kitchens, ${dishes} dishes`;
  console.log(`  seeded ${label} on ${engine} in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
  const app = await startApp(env);
  const rows: BenchRow[] = [];
  try {
    const one = await latency(`${app.url}/api/kitchens/${someKitchen}`);
    const list = await latency(`${app.url}/api/kitchens`);
    // The landing page a page at a time (issue 35): its live first page, and a page further on by cursor (newest
    // first, and nearest first), in the same run as the unpaged list above.
    const firstPage = await latency(`${app.url}/api/kitchens/first-page`);
    const pageOne = (await (await fetch(`${app.url}/api/kitchens/page?limit=24`)).json()) as {
      next: string | null;
    };
    const nearOne = (await (await fetch(`${app.url}/api/kitchens/page?limit=24&near=51.5,-0.12`)).json()) as {
      next: string | null;
    };
    const paged = await latency(app.url, [
      { path: `/api/kitchens/page?limit=24&cursor=${pageOne.next ?? ''}` },
      { path: `/api/kitchens/page?limit=24&near=51.5,-0.12&cursor=${nearOne.next ?? ''}` },
    ]);
    const search = await latency(
      app.url,
      ASKS.map((path) => ({ path })),
    );
    if (search.non2xx || search.errors)
      console.log(`    (${search.non2xx} non-2xx, ${search.errors} errors)`);
    const cold = await firstAfterChange(app.url, app.port, ownerToken);
    rows.push(
      { measure: `search p50, ${label}`, engine, value: search.p50, unit: 'ms', baseline: one.p50 },
      {
        measure: `search p99, ${label}`,
        engine,
        value: search.p99,
        unit: 'ms',
        baseline: one.p99,
        target: '<= 50 ms',
        ok: search.p99 <= 50,
      },
      { measure: `search req/s, ${label}`, engine, value: search.requestsPerSec, unit: 'req/s' },
      {
        measure: `search, first ask after a change (uncached) p50, ${label}`,
        engine,
        value: percentile(cold, 50),
        unit: 'ms',
        baseline: one.p50,
      },
      {
        measure: `search, first ask after a change (uncached) p99, ${label}`,
        engine,
        value: percentile(cold, 99),
        unit: 'ms',
        baseline: one.p99,
        target: '<= 50 ms',
        ok: percentile(cold, 99) <= 50,
      },
      {
        measure: `baseline: one kitchen by id p50/p99, ${label}`,
        engine,
        value: one.p50,
        unit: `ms / ${one.p99} ms`,
      },
      {
        measure: `landing first page (live, 24 kitchens) p50/p99, ${label}`,
        engine,
        value: firstPage.p50,
        unit: `ms / ${firstPage.p99} ms`,
        target: 'p99 <= 50 ms',
        ok: firstPage.p99 <= 50,
      },
      {
        measure: `a page by cursor (newest, nearest first) p50/p99, ${label}`,
        engine,
        value: paged.p50,
        unit: `ms / ${paged.p99} ms`,
        target: 'p99 <= 50 ms',
        ok: paged.p99 <= 50,
      },
      {
        measure: `baseline: kitchens list p50/p99, ${label}`,
        engine,
        value: list.p50,
        unit: `ms / ${list.p99} ms`,
      },
    );
  } finally {
    await app.stop();
    await cleanup();
  }
  return rows;
}

/** Every search measure the issue asks for: PostgreSQL 10,000/200,000; PGlite 1,000/20,000. */
export async function searchBench(record: (row: BenchRow) => void): Promise<void> {
  console.log(`\n== search (10 connections, a mix of ${ASKS.length} searches and search pages)`);
  // SEARCH_ENGINES=pglite (or postgres) measures one engine only.
  const only = process.env.SEARCH_ENGINES?.split(',');
  for (const [engine, kitchens, dishes] of [
    ['postgres', 10_000, 200_000],
    ['pglite', 1_000, 20_000],
  ] as const)
    if (!only || only.includes(engine))
      for (const row of await measure(engine, kitchens, dishes)) record(row);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows: BenchRow[] = [];
  await searchBench((row) => {
    rows.push(row);
    console.log(
      `  ${row.engine.padEnd(9)} ${row.measure.padEnd(56)} ${row.value.toFixed(1).padStart(8)} ${row.unit}`,
    );
  });
}
