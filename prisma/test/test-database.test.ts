import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, createTestDatabase, readMigrations, templateName } from '@felt/db';

const srcEntry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

function adminUrl(url: string): string {
  const u = new URL(url);
  u.pathname = '/postgres';
  return u.toString();
}

/** Runs createTestDatabase in a separate Node process and returns what it created. */
function createInChild(migrationsDir: string): Promise<{ name: string; url: string }> {
  const script = `
    import { createTestDatabase } from ${JSON.stringify(srcEntry)};
    const db = await createTestDatabase({ migrationsDir: ${JSON.stringify(migrationsDir)} });
    process.stdout.write(JSON.stringify({ name: db.name, url: db.url }));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve(JSON.parse(out) as { name: string; url: string });
      else reject(new Error(`child exited ${code}: ${err}`));
    });
  });
}

async function databaseExists(url: string, name: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: adminUrl(url) });
  await c.connect();
  try {
    const r = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return (r.rowCount ?? 0) > 0;
  } finally {
    await c.end();
  }
}

describe('createTestDatabase', () => {
  it('gives each caller its own migrated database, even when called concurrently, and drop() removes it', async () => {
    const dbs = await Promise.all([createTestDatabase(), createTestDatabase(), createTestDatabase()]);
    try {
      expect(new Set(dbs.map((d) => d.name)).size).toBe(3);
      for (const db of dbs) {
        const applied = await db.prisma.$queryRaw<{ migration_name: string }[]>`
          SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name`;
        expect(applied.map((r) => r.migration_name)).toEqual(readMigrations().map((m) => m.name));
        // The system accounts the migration seeds are there.
        const system = await db.prisma.ledgerAccount.findMany({ orderBy: { key: 'asc' }, select: { key: true } });
        expect(system.map((a) => a.key)).toEqual([
          'grant_source',
          'house_bankroll',
          'house_fee',
          'house_rake',
          'practice_source',
        ]);
      }
      // Writes in one are invisible in another.
      await dbs[0].prisma.user.create({ data: { name: 'Only', nameKey: 'only', passwordHash: 'x' } });
      expect(await dbs[1].prisma.user.count()).toBe(0);
    } finally {
      await Promise.all(dbs.map((d) => d.drop()));
    }
    for (const db of dbs) expect(await databaseExists(db.url, db.name)).toBe(false);
    // A second drop is harmless.
    await dbs[0].drop();
  });

  it('builds a new template exactly once when several processes need it at the same moment', async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'felt-tpl-'));
    const dir = path.join(tmp, 'migrations');
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    // A migration set of its own, so that no template exists yet for it.
    mkdirSync(path.join(dir, '29990101000000_probe'));
    writeFileSync(
      path.join(dir, '29990101000000_probe', 'migration.sql'),
      `CREATE TABLE "probe" ("id" int PRIMARY KEY); -- ${tmp}\n`,
    );
    const template = templateName(dir);
    const made = await Promise.allSettled([createInChild(dir), createInChild(dir), createInChild(dir)]);
    const ok = made.flatMap((m) => (m.status === 'fulfilled' ? [m.value] : []));
    const admin = new pg.Client({ connectionString: adminUrl(ok[0]?.url ?? process.env.DATABASE_URL ?? '') });
    await admin.connect();
    try {
      expect(made.map((m) => m.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      for (const db of ok) {
        const c = new pg.Client({ connectionString: db.url });
        await c.connect();
        const applied = await c.query('SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name');
        expect(applied.rows.map((r: { migration_name: string }) => r.migration_name)).toEqual(
          readMigrations(dir).map((m) => m.name),
        );
        expect((await c.query('SELECT * FROM probe')).rows).toEqual([]);
        await c.end();
      }
      // One template, and no half-built leftovers.
      const tpl = await admin.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${template}%`]);
      expect(tpl.rows.map((r: { datname: string }) => r.datname)).toEqual([template]);
    } finally {
      for (const db of ok) await admin.query(`DROP DATABASE IF EXISTS "${db.name}" WITH (FORCE)`);
      await admin.query(`ALTER DATABASE "${template}" WITH IS_TEMPLATE false`).catch(() => undefined);
      await admin.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
      await admin.end();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
