import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_ADMIN_URL,
  MIGRATIONS_DIR,
  MigrationChecksumMismatchError,
  MigrationFailedError,
  MigrationUnfinishedError,
  migrate,
  readMigrations,
  sha256Hex,
} from '@felt/db';

const adminUrl = process.env.DATABASE_URL
  ? (() => {
      const u = new URL(process.env.DATABASE_URL);
      u.pathname = '/postgres';
      return u.toString();
    })()
  : DEFAULT_ADMIN_URL;

function urlFor(db: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${db}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function query<R extends pg.QueryResultRow>(url: string, sql: string): Promise<R[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<R>(sql)).rows;
  } finally {
    await c.end();
  }
}

const created: string[] = [];
let tmp: string;

async function emptyDatabase(): Promise<string> {
  const name = `felt_mig_${Date.now().toString(36)}_${Math.random().toString(16).slice(2, 8)}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  created.push(name);
  return urlFor(name);
}

/** A private copy of the committed migrations that a test may edit. */
function copyMigrations(): string {
  const dir = mkdtempSync(path.join(tmp, 'migrations-'));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

function addMigration(dir: string, name: string, sql: string): void {
  mkdirSync(path.join(dir, name));
  writeFileSync(path.join(dir, name, 'migration.sql'), sql);
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'felt-migrate-'));
});

afterAll(async () => {
  await admin(async (c) => {
    for (const name of created) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
  rmSync(tmp, { recursive: true, force: true });
});

describe('migrate', () => {
  let url: string;
  beforeEach(async () => {
    url = await emptyDatabase();
  });

  it('applies every committed migration to a fresh database and records it as Prisma does', async () => {
    const files = readMigrations();
    expect(files.length).toBeGreaterThan(0);
    const result = await migrate(url);
    expect(result.applied).toEqual(files.map((f) => f.name));
    expect(result.skipped).toEqual([]);

    const rows = await query<{
      id: string;
      checksum: string;
      finished_at: Date | null;
      migration_name: string;
      logs: string | null;
      rolled_back_at: Date | null;
      started_at: Date;
      applied_steps_count: number;
    }>(url, 'SELECT * FROM "_prisma_migrations" ORDER BY started_at');
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, row] of rows.entries()) {
      const file = readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, 'migration.sql'), 'utf8');
      expect(row.checksum).toBe(sha256Hex(file));
      expect(row.checksum).toBe(files[i]!.checksum);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.logs).toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }

    const tables = await query<{ tablename: string }>(
      url,
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    expect(tables.map((t) => t.tablename)).toEqual(
      expect.arrayContaining([
        'users',
        'sessions',
        'rooms',
        'memberships',
        'wallets',
        'ledger_accounts',
        'ledger_transactions',
        'ledger_entries',
        'hands',
      ]),
    );
  });

  it('is idempotent: a second run applies nothing and changes no row', async () => {
    await migrate(url);
    const before = await query(url, 'SELECT * FROM "_prisma_migrations" ORDER BY id');
    const again = await migrate(url);
    expect(again.applied).toEqual([]);
    expect(again.skipped).toEqual(readMigrations().map((m) => m.name));
    expect(await query(url, 'SELECT * FROM "_prisma_migrations" ORDER BY id')).toEqual(before);
  });

  it('applies each migration exactly once when several callers race on one database', async () => {
    const results = await Promise.all([migrate(url), migrate(url), migrate(url), migrate(url)]);
    const appliedCounts = results.map((r) => r.applied.length);
    expect(appliedCounts.filter((n) => n > 0)).toHaveLength(1);
    const rows = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM "_prisma_migrations"');
    expect(Number(rows[0]!.n)).toBe(readMigrations().length);
  });

  it('applies only the new migration when one is added later', async () => {
    const dir = copyMigrations();
    await migrate(url, { migrationsDir: dir });
    addMigration(dir, '29990101000000_later', 'CREATE TABLE "later_table" ("id" int PRIMARY KEY);');
    const result = await migrate(url, { migrationsDir: dir });
    expect(result.applied).toEqual(['29990101000000_later']);
    expect(await query(url, 'SELECT * FROM later_table')).toEqual([]);
  });

  it('refuses a changed migration file with a clear error and applies nothing else', async () => {
    const dir = copyMigrations();
    await migrate(url, { migrationsDir: dir });
    const first = readMigrations(dir)[0]!;
    writeFileSync(path.join(dir, first.name, 'migration.sql'), `${first.sql}\n-- edited after it was applied\n`);
    addMigration(dir, '29990101000000_after_edit', 'CREATE TABLE "after_edit" ("id" int PRIMARY KEY);');

    const err = await migrate(url, { migrationsDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationChecksumMismatchError);
    const mismatch = err as MigrationChecksumMismatchError;
    expect(mismatch.code).toBe('migration_checksum_mismatch');
    expect(mismatch.migrationName).toBe(first.name);
    expect(mismatch.appliedChecksum).toBe(first.checksum);
    expect(mismatch.message).toContain(first.name);
    const tables = await query(url, "SELECT 1 FROM pg_tables WHERE tablename = 'after_edit'");
    expect(tables).toEqual([]);
  });

  it('rolls a failing migration back whole and records nothing for it', async () => {
    const dir = copyMigrations();
    addMigration(
      dir,
      '29990101000000_broken',
      'CREATE TABLE "half_done" ("id" int PRIMARY KEY);\nSELECT * FROM "no_such_table";',
    );
    const err = await migrate(url, { migrationsDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationFailedError);
    expect((err as MigrationFailedError).migrationName).toBe('29990101000000_broken');
    expect((err as Error).message).toMatch(/no_such_table/);
    expect(await query(url, "SELECT 1 FROM pg_tables WHERE tablename = 'half_done'")).toEqual([]);
    const names = await query<{ migration_name: string }>(url, 'SELECT migration_name FROM "_prisma_migrations"');
    expect(names.map((n) => n.migration_name)).toEqual(readMigrations().map((m) => m.name));
  });

  it('refuses to continue past a migration recorded as started but unfinished', async () => {
    await migrate(url);
    await query(
      url,
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ('00000000-0000-4000-8000-000000000000', 'x', '29990101000000_crashed', now(), 0)`,
    );
    await expect(migrate(url)).rejects.toBeInstanceOf(MigrationUnfinishedError);
  });
});
