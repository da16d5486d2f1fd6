/**
 * Authoring tool for migrations, offline: Prisma's migrate commands need a native schema engine
 * that cannot be downloaded here, so this drives the pinned @prisma/schema-engine-wasm through
 * @prisma/adapter-pg instead. It writes Prisma's standard layout (migrations/<ts>_<name>/migration.sql
 * + migration_lock.toml), so operators with network access can still run `prisma migrate deploy`.
 *
 * The services never run this: they apply the committed files with src/migrate.ts.
 *
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/felt_dev npm run migrate -w @felt/db -- <command>
 *
 *   dev <name>    apply pending migrations, then create (and apply) a migration for schema changes
 *   create <name> create a migration for schema changes without applying it (a draft you may edit)
 *   diff          print the SQL that would take the committed migrations to schema.prisma
 *   diff-empty    print the SQL that creates schema.prisma from an empty database
 *   deploy        apply pending migrations (like `prisma migrate deploy`)
 *   status        print the engine's migration-history diagnosis as JSON
 *
 * Hand-written SQL (triggers, CHECKs, functions) belongs in the same migration.sql, below the
 * generated part: Prisma does not introspect triggers or CHECK constraints, so it won't fight them.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import * as bg from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { MigrationList, SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm';

const require = createRequire(import.meta.url);
const prismaDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schemaPath = path.join(prismaDir, 'schema.prisma');
const migrationsDir = path.join(prismaDir, 'migrations');
const filters: SchemaFilter = { externalTables: [], externalEnums: [] };

interface PgConfig {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

interface PerformIoHost {
  performIO: (this: unknown, q: unknown) => Promise<{ fields?: { dataTypeID: number }[]; rows?: object } | undefined>;
  queryRaw: (this: unknown, q: unknown) => Promise<{ rows: object; columnTypes: number[] }>;
  __feltCharPatched?: boolean;
}

interface ExecuteScriptSelf {
  client: { query(sql: string): Promise<unknown> };
  onError: (error: unknown) => never;
}

interface ExecuteScriptHost {
  executeScript: (this: ExecuteScriptSelf, script: string) => Promise<void>;
  __feltScriptPatched?: boolean;
}

function pgConfigFromUrl(url: string): PgConfig {
  const u = new URL(url);
  // Discrete fields, not connectionString: PrismaPg.connectToShadowDb() spreads config + {database},
  // and pg lets connectionString override `database`, which would make the shadow DB the main DB.
  return {
    host: u.hostname,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: u.pathname.slice(1),
  };
}

let wasmLoaded = false;
/** Shadow databases not yet dropped: a panic skips the adapter's dispose, so exit drops them. */
const liveShadows = new Set<string>();

async function dropLeftoverShadows(url: string): Promise<void> {
  if (liveShadows.size === 0) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const db of liveShadows) await client.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** The wasm-bindgen glue keeps one module-wide instance: load it once per process. */
function loadWasm(): void {
  if (wasmLoaded) return;
  (globalThis as Record<string, unknown>).PRISMA_WASM_PANIC_REGISTRY ??= {
    message: '',
    set_message(this: { message: string }, m: string) {
      this.message = m;
    },
  };
  const wasmPath = path.join(
    path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
    'schema_engine_bg.wasm',
  );
  const mod = new WebAssembly.Module(readFileSync(wasmPath));
  const inst = new WebAssembly.Instance(mod, { './schema_engine_bg.js': bg as unknown as WebAssembly.ModuleImports });
  bg.__wbg_set_wasm(inst.exports);
  (inst.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
  wasmLoaded = true;
}

async function loadEngine(url: string, schemaFiles: { path: string; content: string }[]): Promise<SchemaEngine> {
  loadWasm();
  const cfg = pgConfigFromUrl(url);
  const factory = new PrismaPg(cfg);
  // adapter-pg 7.10.1 drops the shadow database before closing its pool ("being accessed by other
  // users"): close the pool first, then DROP ... WITH (FORCE).
  const wrapped = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => factory.connect(),
    async connectToShadowDb() {
      const main = await factory.connect();
      const db = `prisma_shadow_${randomUUID().replace(/-/g, '')}`;
      await main.executeScript(`CREATE DATABASE "${db}"`);
      liveShadows.add(db);
      const shadow = await new PrismaPg({ ...cfg, database: db }).connect();
      const dispose = shadow.dispose.bind(shadow);
      shadow.dispose = async () => {
        await dispose();
        await main.executeScript(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
        liveShadows.delete(db);
        await main.dispose();
      };
      return shadow;
    },
  };
  // adapter-pg 7.10.1 rejects Postgres's internal "char" type (OID 18), which the engine's catalog
  // queries return (relkind, contype, ...). Let it through as text, then report those columns as
  // Character (which the engine's describer expects; plain text makes it panic on CHECK constraints).
  const charColumns = new WeakMap<object, number[]>();
  const probe = await factory.connect();
  let proto: unknown = Object.getPrototypeOf(probe);
  while (proto && !Object.prototype.hasOwnProperty.call(proto, 'performIO')) proto = Object.getPrototypeOf(proto);
  const ioHost = proto as PerformIoHost | null;
  if (ioHost && !ioHost.__feltCharPatched) {
    const performIO = ioHost.performIO;
    ioHost.performIO = async function (this: unknown, q: unknown) {
      const r = await performIO.call(this, q);
      const idx: number[] = [];
      r?.fields?.forEach((f, i) => {
        if (f.dataTypeID === PG_CHAR_OID) {
          f.dataTypeID = PG_TEXT_OID;
          idx.push(i);
        }
      });
      if (r?.rows && idx.length > 0) charColumns.set(r.rows, idx);
      return r;
    };
    const queryRaw = ioHost.queryRaw;
    ioHost.queryRaw = async function (this: unknown, q: unknown) {
      const res = await queryRaw.call(this, q);
      for (const i of charColumns.get(res.rows) ?? []) res.columnTypes[i] = ColumnTypeEnum.Character;
      return res;
    };
    ioHost.__feltCharPatched = true;
  }
  // adapter-pg 7.10.1's executeScript splits the script on every ";" (comments and plpgsql bodies
  // included). Prisma's native engine sends the script whole; so do we (simple query protocol).
  let adapterProto: unknown = Object.getPrototypeOf(probe);
  while (adapterProto && !Object.prototype.hasOwnProperty.call(adapterProto, 'executeScript')) {
    adapterProto = Object.getPrototypeOf(adapterProto);
  }
  const scriptHost = adapterProto as ExecuteScriptHost | null;
  if (scriptHost && !scriptHost.__feltScriptPatched) {
    scriptHost.executeScript = async function (this: ExecuteScriptSelf, script: string) {
      try {
        await this.client.query(script);
      } catch (error) {
        this.onError(error);
      }
    };
    scriptHost.__feltScriptPatched = true;
  }
  await probe.dispose();
  const adapter = bindMigrationAwareSqlAdapterFactory(wrapped as unknown as SqlMigrationAwareDriverAdapterFactory);
  return bg.SchemaEngine.new(
    { datamodels: schemaFiles.map((f) => [f.path, f.content] as [string, string]) },
    (log: string) => {
      if (process.env.DEBUG_SE) console.error('[schema-engine]', log);
    },
    adapter,
  );
}

function migrationsList(): MigrationList {
  const dirs = existsSync(migrationsDir)
    ? readdirSync(migrationsDir)
        .filter((d) => statSync(path.join(migrationsDir, d)).isDirectory())
        .sort()
    : [];
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: dirs.map((d) => {
      const f = path.join(migrationsDir, d, 'migration.sql');
      return {
        path: d,
        migrationFile: {
          path: 'migration.sql',
          content: existsSync(f) ? { tag: 'ok', value: readFileSync(f, 'utf8') } : { tag: 'error', value: 'missing' },
        },
      };
    }),
  };
}

function writeMigration(name: string, script: string, connectorType: string, extension: string): void {
  const dir = path.join(migrationsDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `migration.${extension}`), script);
  writeFileSync(
    path.join(migrationsDir, 'migration_lock.toml'),
    `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${connectorType}"\n`,
  );
  console.log('created', name);
}

const usage = 'usage: migrate.ts dev <name> | create <name> | diff | diff-empty | deploy | status';
const [cmd, name = 'migration'] = process.argv.slice(2);
const url = process.env.DATABASE_URL ?? '';
if (!cmd) throw new Error(usage);
if (url === '')
  throw new Error('DATABASE_URL must name a development database (the shadow database is created beside it)');

const schema = { files: [{ path: 'schema.prisma', content: readFileSync(schemaPath, 'utf8') }] };

process.on('uncaughtException', (err) => {
  // A Rust panic surfaces as "RuntimeError: unreachable" from a callback; its message is in the
  // panic registry.
  const panic = (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { message: string } }).PRISMA_WASM_PANIC_REGISTRY;
  console.error(panic?.message ? `schema engine panic: ${panic.message}` : err);
  dropLeftoverShadows(url).then(
    () => process.exit(1),
    () => process.exit(1),
  );
});

/**
 * One engine per phase: after an engine has used its shadow database once, a later createMigration
 * on the same engine fails with "shadow DB must be provided through an external factory".
 */
async function withEngine<T>(fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const engine = await loadEngine(url, schema.files);
  try {
    return await fn(engine);
  } finally {
    engine.free();
  }
}

/** Partial unique indexes are hand-written (Prisma can't express them); find their names. */
function handWrittenIndexNames(): Set<string> {
  const names = new Set<string>();
  for (const dir of migrationsList().migrationDirectories) {
    if (dir.migrationFile.content.tag !== 'ok') continue;
    for (const m of dir.migrationFile.content.value.matchAll(/CREATE UNIQUE INDEX "([^"]+)"[^;]*\bWHERE\b/g)) {
      if (m[1]) names.add(m[1]);
    }
  }
  return names;
}

/** Drops any statement that would remove a hand-written partial index. */
function keepHandWrittenIndexes(script: string): string {
  const names = handWrittenIndexNames();
  return script
    .split(/\n\n/)
    .filter((stmt) => {
      const m = /DROP INDEX "([^"]+)"/.exec(stmt);
      if (m?.[1] && names.has(m[1])) {
        console.warn(`kept hand-written partial index ${m[1]} (removed its DROP from the generated script)`);
        return false;
      }
      return true;
    })
    .join('\n\n');
}

switch (cmd) {
  case 'diff':
  case 'diff-empty': {
    const r = await withEngine((engine) =>
      engine.diff({
        from: cmd === 'diff' ? { tag: 'migrations', ...migrationsList() } : { tag: 'empty' },
        to: { tag: 'schemaDatamodel', ...schema },
        script: true,
        exitCode: null,
        filters,
      }),
    );
    process.stdout.write(r.stdout ?? '');
    break;
  }
  case 'dev':
  case 'create': {
    const apply = cmd === 'dev';
    if (apply) {
      await withEngine(async (engine) => {
        const diag = await engine.devDiagnostic({ migrationsList: migrationsList(), filters });
        if (diag.action.tag === 'reset') throw new Error(`the database needs a reset: ${diag.action.reason}`);
        await engine.applyMigrations({ migrationsList: migrationsList(), filters });
      });
    }
    const out = await withEngine(async (engine) => {
      // devDiagnostic primes the engine's shadow-database factory; createMigration alone fails.
      await engine.devDiagnostic({ migrationsList: migrationsList(), filters });
      return engine.createMigration({
        draft: false,
        migrationName: name,
        migrationsList: migrationsList(),
        schema,
        filters,
      });
    });
    const script = out.migrationScript == null ? null : keepHandWrittenIndexes(out.migrationScript);
    if (script == null || script.trim() === '') {
      console.log('No schema changes.');
      break;
    }
    writeMigration(out.generatedMigrationName, script, out.connectorType, out.extension);
    if (apply) {
      const applied = await withEngine((engine) =>
        engine.applyMigrations({ migrationsList: migrationsList(), filters }),
      );
      console.log('applied', applied.appliedMigrationNames);
    }
    break;
  }
  case 'deploy': {
    const applied = await withEngine((engine) => engine.applyMigrations({ migrationsList: migrationsList(), filters }));
    console.log('applied', applied.appliedMigrationNames);
    break;
  }
  case 'status': {
    const status = await withEngine((engine) =>
      engine.diagnoseMigrationHistory({ migrationsList: migrationsList(), optInToShadowDatabase: false, filters }),
    );
    console.log(JSON.stringify(status, null, 2));
    break;
  }
  default:
    throw new Error(usage);
}
