import { defineConfig } from 'drizzle-kit';

/** drizzle-kit: generates SQL migrations from every feature's tables.ts into server/db/migrations. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/*/tables.ts',
  out: './server/db/migrations',
});
