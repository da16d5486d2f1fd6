import { defineConfig } from 'prisma/config';

// The CLI here only generates the client; migrations run through src/migrate.ts (runtime) and
// scripts/migrate.ts (authoring), because the native schema engine cannot be downloaded offline.
// `process.env.DATABASE_URL ?? ''` rather than env(): env() throws when the variable is unset.
export default defineConfig({
  schema: 'schema.prisma',
  migrations: { path: 'migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
