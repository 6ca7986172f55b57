// The drizzle-kit config of tests/drizzle.test.mjs's project (its schema is
// ./schema.ts, copied there as src/schema.ts), for the package's README.
// README package begins
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema.ts',
  out: './drizzle',
  dbCredentials: { url: process.env.DATABASE_URL! },
});
// README package ends
