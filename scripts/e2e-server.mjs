// Starts the server for the end-to-end tests on a new, empty PostgreSQL database, the way `npm start` does
// (building the app first when the build is missing or older than the sources).
import pg from 'pg';

const admin = new pg.Client({ connectionString: process.env.E2E_ADMIN_URL });
await admin.connect();
const name = process.env.E2E_DATABASE_NAME;
await admin.query(`drop database if exists "${name}" with (force)`);
await admin.query(`create database "${name}"`);
await admin.end();
await import('./start.mjs');
