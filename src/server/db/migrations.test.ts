import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../lib/project-root.js';
import { createPgDatabase } from '../test/test-database.js';

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}
const folder = join(projectRoot(), 'drizzle');
const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as Journal;

/** Journalled earlier than 0018 by mistake, so skipped by a database already at 0018; 0021 does their work there. */
const REPAIRED = ['0019_user_locale', '0020_dish_second_name'];

describe('migrations', () => {
  it('are journalled each later than every one before it (drizzle runs only those later than the last run)', () => {
    let latest = 0;
    for (const { when, tag } of journal.entries) {
      if (!REPAIRED.includes(tag)) expect(when, tag).toBeGreaterThan(latest);
      latest = Math.max(latest, when);
    }
  });

  /** The migrations folder as a release that ended with `last` shipped it. */
  function releasedUpTo(last: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'mkt-migrations-'));
    cpSync(folder, dir, { recursive: true });
    const end = journal.entries.findIndex((e) => e.tag === last);
    writeFileSync(
      join(dir, 'meta/_journal.json'),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, end + 1) }),
    );
    return dir;
  }

  type Query = (text: string) => Promise<Record<string, unknown>[]>;
  /** A database at 0018 with a kitchen and a vegan dish, upgraded to this release: what a running site went through. */
  async function upgradeFrom0018(query: Query, migrate: (folder: string) => Promise<void>) {
    const old = releasedUpTo('0018_bus_outbox');
    try {
      await migrate(old);
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
    await query(`insert into users (id, issuer, subject, email, display_name)
      values ('00000000-0000-4000-8000-000000000001', 'urn:t', 'cook', 'cook@t.test', 'Cook')`);
    await query(`insert into kitchens (owner_id, name, category, address, image_link, owner_name, owner_email)
      values ('00000000-0000-4000-8000-000000000001', 'Crème Kitchen', 'Indian', '1 Road', 'https://i.example/k.png', 'Cook', 'cook@t.test')`);
    await query(`insert into menu_items (kitchen_id, item, image_link, price_cents, wait, dietary)
      values ('00000000-0000-4000-8000-000000000001', 'Dal', 'https://i.example/d.png', 500, '20 min', '{vegan}')`);
    await migrate(folder);
    const columns = await query(`select table_name || '.' || column_name as c from information_schema.columns
      where table_schema = current_schema() and column_name in ('locale', 'second_name', 'item_search', 'search_name', 'dish_dietary')
      order by 1`);
    expect(columns.map((r) => r.c)).toEqual([
      'kitchens.dish_dietary',
      'kitchens.search_name',
      'menu_items.item_search',
      'menu_items.second_name',
      'users.locale',
    ]);
    // The dish's second name is searched; the kitchen's tags and searchable name are filled in.
    await query(`update menu_items set second_name = 'दाल'`);
    expect(await query(`select item_search from menu_items`)).toEqual([{ item_search: 'dal दाल' }]);
    expect(await query(`select search_name, dish_dietary from kitchens`)).toEqual([
      { search_name: 'creme kitchen indian', dish_dietary: ['vegan'] },
    ]);
    expect(
      await query(`select relname, reloptions from pg_class where relname like '%trgm_idx' order by relname`),
    ).toEqual([
      { relname: 'kitchens_search_name_trgm_idx', reloptions: ['fastupdate=off'] },
      { relname: 'menu_items_item_trgm_idx', reloptions: ['fastupdate=off'] },
    ]);
  }

  /** A new, empty database of each engine: how to query it, migrate it, and let it go. */
  const engines = {
    PGlite: async () => {
      const client = new PGlite({ extensions: { pg_trgm, unaccent } });
      return {
        query: async (text: string) => (await client.query<Record<string, unknown>>(text)).rows,
        migrate: (migrationsFolder: string) => migratePglite(drizzlePglite(client), { migrationsFolder }),
        close: () => client.close(),
      };
    },
    PostgreSQL: async () => {
      const created = await createPgDatabase();
      const client = new pg.Client({ connectionString: created.url });
      await client.connect();
      return {
        query: async (text: string) => (await client.query<Record<string, unknown>>(text)).rows,
        migrate: (migrationsFolder: string) => migratePg(drizzlePg(client), { migrationsFolder }),
        close: async () => {
          await client.end();
          await created.drop();
        },
      };
    },
  };

  it.each(Object.keys(engines) as (keyof typeof engines)[])(
    'bring a %s database at 0018 up to date, 0019 and 0020 included',
    async (engine) => {
      const database = await engines[engine]();
      try {
        await upgradeFrom0018(database.query, database.migrate);
      } finally {
        await database.close();
      }
    },
  );
});
