import { openDatabase } from '../db/database.js';
import { rebuildOrderFigures } from '../data/order-figures.js';
import { loadConfig } from '../lib/config.js';

/**
 * `npm run figures:rebuild`: recomputes the figures of 'Insights' and 'Overview' from the orders, in one transaction
 * (after a kitchen changed its time zone, or to fill them once on a database that had orders before them). On the
 * embedded database, with the server stopped (it holds DATA_DIR).
 */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'silent' });
  const database = await openDatabase(config);
  try {
    const started = performance.now();
    const { orders } = await database.db.transaction((tx) => rebuildOrderFigures(tx));
    console.log(`Figures rebuilt from ${orders} orders in ${Math.round(performance.now() - started)} ms`);
  } finally {
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
