import { defineConfig } from 'drizzle-kit';

/** drizzle-kit: generates SQL migrations from server/db/schema.ts into server/db/migrations. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
