import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { MigrationChecksumMismatchError, MigrationFailedError, MigrationUnfinishedError } from './errors.js';

/**
 * The committed migrations: prisma/migrations/<timestamp>_<name>/migration.sql. From src/ and
 * from dist/ alike, that is one directory up.
 */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

export interface MigrationFile {
  readonly name: string;
  readonly sql: string;
  /** sha256 hex of the file's bytes, as Prisma records it. */
  readonly checksum: string;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The migration files in apply order (their directory names sort by timestamp). */
export function readMigrations(dir: string = MIGRATIONS_DIR): MigrationFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((d) => statSync(path.join(dir, d)).isDirectory() && existsSync(path.join(dir, d, 'migration.sql')))
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: sha256Hex(sql) };
    });
}

/** One hash over every migration's name and checksum: names a template database built from them. */
export function migrationsHash(migrations: readonly MigrationFile[] = readMigrations()): string {
  return sha256Hex(migrations.map((m) => `${m.name}:${m.checksum}`).join('\n'));
}

// Prisma's own DDL for its bookkeeping table, so `prisma migrate status/deploy` reads our rows.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** "felt mig" as a big-endian int8. Advisory locks are per database, so one fixed key suffices. */
const MIGRATION_LOCK_KEY = '7378422810532473191';

export interface MigrateOptions {
  /** Defaults to the committed migrations. */
  readonly migrationsDir?: string;
  /** Called once per migration applied by this run. */
  readonly onApplied?: (name: string) => void;
}

export interface MigrateResult {
  /** Migrations this run applied, in order. */
  readonly applied: string[];
  /** Migrations that were already applied. */
  readonly skipped: string[];
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Applies the committed migrations that this database lacks, in order, each in its own
 * transaction, holding a Postgres advisory lock so that concurrent callers (several services
 * starting at once) apply each migration exactly once. Records them in `_prisma_migrations` the way
 * Prisma does, so `prisma migrate status` and `deploy` agree with it.
 *
 * Refuses, changing nothing, when an applied migration's file has changed since
 * (MigrationChecksumMismatchError) or when a migration is recorded as started but unfinished
 * (MigrationUnfinishedError). A failing migration rolls back whole (MigrationFailedError).
 */
export async function migrate(databaseUrl: string, options: MigrateOptions = {}): Promise<MigrateResult> {
  const migrations = readMigrations(options.migrationsDir);
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'felt-migrate' });
  await client.connect();
  try {
    // Keep the notices of IF NOT EXISTS out of the service's stderr.
    client.on('notice', () => undefined);
    await client.query('SELECT pg_advisory_lock($1::int8)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const { rows } = await client.query<AppliedRow>(
        `SELECT "migration_name", "checksum", "finished_at", "rolled_back_at" FROM "_prisma_migrations"
         WHERE "rolled_back_at" IS NULL ORDER BY "started_at"`,
      );
      const done = new Map<string, AppliedRow>();
      for (const row of rows) {
        if (row.finished_at === null) throw new MigrationUnfinishedError(row.migration_name);
        done.set(row.migration_name, row);
      }
      // Check every applied file before applying anything, so a refusal changes nothing.
      for (const m of migrations) {
        const row = done.get(m.name);
        if (row && !checksumMatches(row.checksum, m)) {
          throw new MigrationChecksumMismatchError(m.name, row.checksum, m.checksum);
        }
      }
      const applied: string[] = [];
      const skipped: string[] = [];
      for (const m of migrations) {
        if (done.has(m.name)) {
          skipped.push(m.name);
          continue;
        }
        await applyOne(client, m);
        applied.push(m.name);
        options.onApplied?.(m.name);
      }
      return { applied, skipped };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::int8)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

/** Prisma accepts a file whose only change is CRLF → LF (a Windows checkout); so do we. */
function checksumMatches(recorded: string, m: MigrationFile): boolean {
  return recorded === m.checksum || recorded === sha256Hex(m.sql.replace(/\n/g, '\r\n'));
}

async function applyOne(client: pg.Client, m: MigrationFile): Promise<void> {
  await client.query('BEGIN');
  try {
    const id = randomUUID();
    await client.query(
      `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "applied_steps_count")
       VALUES ($1, $2, $3, now(), 0)`,
      [id, m.checksum, m.name],
    );
    // The whole file in one simple-protocol query, as Prisma's engine sends it: statements split by
    // ";" would break PL/pgSQL bodies.
    await client.query(m.sql);
    await client.query(
      `UPDATE "_prisma_migrations" SET "finished_at" = clock_timestamp(), "applied_steps_count" = 1 WHERE "id" = $1`,
      [id],
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw new MigrationFailedError(m.name, { cause: err });
  }
}
