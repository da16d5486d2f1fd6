import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@felt/db';

const script = fileURLToPath(new URL('../scripts/migrate.ts', import.meta.url));

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

describe('schema.prisma and the committed migrations', () => {
  it('agree: the schema engine finds nothing to migrate', () => {
    // Replays the migrations into a shadow database and diffs it against schema.prisma, as
    // `prisma migrate diff --from-migrations --to-schema` would.
    const r = spawnSync(process.execPath, ['--import', 'tsx', script, 'diff'], {
      env: { ...process.env, DATABASE_URL: db.url },
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('-- This is an empty migration.');
  });
});
