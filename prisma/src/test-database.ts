import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPrisma, type PrismaClient } from './client.js';
import { migrate, migrationsHash, readMigrations } from './migrate.js';

export const DEFAULT_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

/** "felt tpl" as a big-endian int8: serialises template builds across test processes. */
const TEMPLATE_LOCK_KEY = '7378422810532933740';

export interface TestDatabase {
  /** Connection string of the fresh, migrated database. */
  readonly url: string;
  readonly name: string;
  /** A client on it, created on first use and disconnected by drop(). */
  readonly prisma: PrismaClient;
  /** Disconnects the client and drops the database (WITH (FORCE)). Safe to call twice. */
  drop(): Promise<void>;
}

export interface CreateTestDatabaseOptions {
  /** Server to create it on; defaults to DATABASE_URL's server, else DEFAULT_ADMIN_URL. */
  readonly adminUrl?: string;
  /** Prefix of the database name, to tell leftovers apart. Default "felt_test". */
  readonly prefix?: string;
  /** Defaults to the committed migrations. */
  readonly migrationsDir?: string;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

function quoteIdent(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unsafe database name ${name}`);
  return `"${name}"`;
}

function adminUrlFromEnv(): string {
  const fromEnv = process.env.DATABASE_URL;
  // The admin connection only issues CREATE/DROP DATABASE, so any database on the server will do;
  // `postgres` always exists, the service's own database may not yet.
  return fromEnv ? withDatabase(fromEnv, 'postgres') : DEFAULT_ADMIN_URL;
}

/**
 * A fresh database with every committed migration applied, for one test file.
 *
 * Fast: the migrations run once per migration set, into a template database named by their hash
 * (felt_tpl_<hash>); each test database is then a `CREATE DATABASE ... TEMPLATE` copy. Safe when
 * several test processes start at once: template builds are serialised by an advisory lock, and a
 * template is built under a temporary name and renamed only when complete, so a crash mid-build
 * never leaves a half-migrated template behind.
 */
export async function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  const adminUrl = options.adminUrl ?? adminUrlFromEnv();
  const template = templateName(options.migrationsDir);
  const name = `${options.prefix ?? 'felt_test'}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, application_name: 'felt-test-db' });
  await admin.connect();
  try {
    await ensureTemplate(admin, adminUrl, template, options.migrationsDir);
    await admin.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  let prisma: PrismaClient | undefined;
  let dropped = false;
  return {
    url,
    name,
    get prisma(): PrismaClient {
      prisma ??= createPrisma(url);
      return prisma;
    },
    async drop(): Promise<void> {
      if (dropped) return;
      dropped = true;
      await prisma?.$disconnect();
      const c = new pg.Client({ connectionString: adminUrl, application_name: 'felt-test-db' });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

async function templateExists(admin: pg.Client, template: string): Promise<boolean> {
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
  return (rowCount ?? 0) > 0;
}

/**
 * The template database for a migration set. Templates of earlier sets stay until someone drops
 * them: removing one while another test process copies it would fail that process.
 */
export function templateName(migrationsDir?: string): string {
  return `felt_tpl_${migrationsHash(readMigrations(migrationsDir)).slice(0, 16)}`;
}

async function ensureTemplate(
  admin: pg.Client,
  adminUrl: string,
  template: string,
  migrationsDir: string | undefined,
): Promise<void> {
  if (await templateExists(admin, template)) return;
  await admin.query('SELECT pg_advisory_lock($1::int8)', [TEMPLATE_LOCK_KEY]);
  try {
    if (await templateExists(admin, template)) return;
    const building = `${template}_b${randomBytes(3).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${quoteIdent(building)}`);
    try {
      await migrate(withDatabase(adminUrl, building), migrationsDir === undefined ? {} : { migrationsDir });
      // migrate() has closed its connection, so nobody is attached and the rename can't fail on it.
      await admin.query(`ALTER DATABASE ${quoteIdent(building)} RENAME TO ${quoteIdent(template)}`);
      await admin.query(`ALTER DATABASE ${quoteIdent(template)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    } catch (err) {
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(building)} WITH (FORCE)`).catch(() => undefined);
      throw err;
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1::int8)', [TEMPLATE_LOCK_KEY]);
  }
}
