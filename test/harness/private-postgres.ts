import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';
import { waitFor } from './wait.js';

/** The directory of the machine's PostgreSQL server binaries (initdb, pg_ctl), newest version first. */
function postgresBin(): string {
  const fromPath = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' }).stdout.trim();
  // Through symlinks (/usr/local/bin/pg_ctl → /usr/lib/postgresql/15/bin/pg_ctl): the other tools
  // (pg_basebackup) are beside the real one.
  if (fromPath) return dirname(realpathSync(fromPath));
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error('no PostgreSQL server binaries (pg_ctl) on this machine');
  return join(base, versions[0]!, 'bin');
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** A temp directory for a server's data, owned by the `postgres` user when this process is root. */
function serverDirectory(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  return dir;
}

/**
 * A PostgreSQL server of a test's own, for tests that stop or restart Postgres (never the shared one
 * on 5432): a fresh cluster (initdb) in a temp directory on a spare port, trust authentication on
 * 127.0.0.1 only. Postgres refuses to run as root, so as root the cluster belongs to the `postgres`
 * user and its commands run as that user (runuser).
 */
export class PrivatePostgres {
  private readonly bin = postgresBin();
  private running = false;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  /** The superuser's URL for the `postgres` database (createTestDatabase's admin URL). */
  get adminUrl(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async start(): Promise<PrivatePostgres> {
    const dir = serverDirectory('felt-pg-');
    const server = new PrivatePostgres(await freePort(), dir);
    await server.run('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    await server.startServer();
    return server;
  }

  /**
   * A hot standby of `primary` (pg_basebackup, streaming replication) on a spare port of its own:
   * read-only, following every database of the primary, those created later included.
   */
  static async startStandby(primary: PrivatePostgres): Promise<PrivatePostgres> {
    const dir = serverDirectory('felt-pg-standby-');
    const server = new PrivatePostgres(await freePort(), dir);
    await server.run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      join(dir, 'data'),
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ]);
    await server.startServer();
    return server;
  }

  /** A standby's URL for `database` (the same name as on the primary). */
  url(database: string): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Runs one statement as the superuser on the `postgres` database, returning its rows. */
  async query<R extends Record<string, unknown>>(sql: string): Promise<R[]> {
    const client = new pg.Client({ connectionString: this.adminUrl });
    await client.connect();
    try {
      return (await client.query<R>(sql)).rows;
    } finally {
      await client.end();
    }
  }

  /** On a standby: waits until it has replayed everything `primary` has written so far. */
  async caughtUpWith(primary: PrivatePostgres): Promise<void> {
    const [row] = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    const lsn = row!.lsn;
    if (!/^[0-9A-F]+\/[0-9A-F]+$/.test(lsn)) throw new Error(`not an LSN: ${lsn}`);
    await waitFor(
      `the standby on port ${this.port} replaying up to ${lsn}`,
      async () => {
        const [row] = await this.query<{ behind: boolean }>(
          `SELECT pg_wal_lsn_diff('${lsn}', pg_last_wal_replay_lsn()) > 0 AS behind`,
        );
        return row?.behind === false;
      },
      20_000,
      50,
    );
  }

  /** Stops the server as a crash does (immediate: no checkpoint, clients cut at once). */
  async kill(): Promise<void> {
    if (!this.running) return;
    await this.run('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']);
    this.running = false;
  }

  /** Starts it again on the same port with the same data (crash recovery replays the WAL). */
  async startServer(): Promise<void> {
    const options = [
      `-p ${this.port}`,
      "-c listen_addresses='127.0.0.1'",
      `-c unix_socket_directories='${this.dir}'`,
      // A test server: durability across a machine crash is not what is tested.
      '-c fsync=off',
      '-c max_connections=200',
    ].join(' ');
    await this.run('pg_ctl', ['-D', join(this.dir, 'data'), '-o', options, '-l', join(this.dir, 'log'), '-w', 'start']);
    this.running = true;
    await waitFor(`postgres on port ${this.port}`, () => this.answers(), 20_000, 50);
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async answers(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.adminUrl, connectionTimeoutMillis: 1_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Runs one of the server's tools (as the postgres user when this process is root), without blocking. */
  private run(tool: string, args: string[]): Promise<void> {
    const command = join(this.bin, tool);
    const child = isRoot
      ? spawn('runuser', ['-u', 'postgres', '--', command, ...args], { cwd: this.dir })
      : spawn(command, args, { cwd: this.dir });
    let output = '';
    // pg_ctl start leaves the server holding its stdout: read until the tool itself exits.
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (output += d.toString('utf8')));
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        if (code === 0) resolve();
        else reject(new Error(`${tool} failed (${code ?? signal}): ${output.trim()}`));
      });
    });
  }
}
