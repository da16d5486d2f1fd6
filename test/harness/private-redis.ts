import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { waitFor } from './wait.js';

/**
 * A Redis server of a test's own, on a spare port with its data in a temp directory, for tests that
 * restart or lose Redis (never the shared one on 6379). The append-only file is synced on every
 * write, so `restart({ keepData: true })` after a SIGKILL comes back with everything a client was
 * told was written, as a crashed primary that restarts from its disk does; `keepData: false`
 * comes back empty, as a failover to a replica that had not caught up (or one with no persistence).
 */
export interface PrivateRedisOptions {
  /** TLS only (no plaintext port), with this server certificate and key; clients need `ca`. */
  readonly tls?: { readonly cert: string; readonly key: string; readonly ca: string };
  /** An ACL user with every permission, and the default user switched off. */
  readonly user?: { readonly name: string; readonly password: string };
  /**
   * Nothing on disk, as the shared Redis and `npm start`'s run (for benches that measure Redis's
   * CPU): `restart({ keepData: true })` then comes back empty too. Default false: an append-only
   * file synced on every write.
   */
  readonly inMemory?: boolean;
}

export class PrivateRedis {
  private child: ChildProcess | undefined;
  private dir: string;

  private constructor(
    readonly port: number,
    private readonly options: PrivateRedisOptions,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'felt-redis-'));
  }

  /** The URL services use: `rediss://` with TLS, the user and password in it with an ACL user. */
  get url(): string {
    const auth = this.options.user
      ? `${encodeURIComponent(this.options.user.name)}:${encodeURIComponent(this.options.user.password)}@`
      : '';
    return `${this.options.tls ? 'rediss' : 'redis'}://${auth}127.0.0.1:${this.port}`;
  }

  /** Client options a test process needs besides the URL (the CA that signed the TLS certificate). */
  clientOptions(): { tls?: { ca: Buffer } } {
    return this.options.tls ? { tls: { ca: readFileSync(this.options.tls.ca) } } : {};
  }

  static async start(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort(), options);
    await redis.launch();
    return redis;
  }

  /** SIGKILLs the server and starts it again on the same port, with its data or empty. */
  async restart(options: { keepData: boolean }): Promise<void> {
    await this.kill();
    if (!options.keepData) {
      rmSync(this.dir, { recursive: true, force: true });
      this.dir = mkdtempSync(join(tmpdir(), 'felt-redis-'));
    }
    await this.launch();
  }

  /** SIGKILLs the server (its clients see their connections drop). */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async launch(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        ...(this.options.tls
          ? [
              '--port',
              '0',
              '--tls-port',
              String(this.port),
              '--tls-cert-file',
              this.options.tls.cert,
              '--tls-key-file',
              this.options.tls.key,
              '--tls-ca-cert-file',
              this.options.tls.ca,
              '--tls-auth-clients',
              'no',
            ]
          : ['--port', String(this.port)]),
        ...(this.options.user
          ? [
              '--user',
              'default',
              'off',
              '--user',
              this.options.user.name,
              'on',
              `>${this.options.user.password}`,
              '~*',
              '&*',
              '+@all',
            ]
          : []),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--save',
        '',
        ...(this.options.inMemory ? ['--appendonly', 'no'] : ['--appendonly', 'yes', '--appendfsync', 'always']),
        // What Felt asks of a production Redis (docs/operations.md): BullMQ's jobs must not be evicted.
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    this.child = child;
    await untilRedisAnswers(child, this.url, this.clientOptions());
  }
}

/**
 * Waits until the redis-server `child` answers PING at `url` (refused connections while it starts are
 * expected), or fails at once if it exits.
 */
export async function untilRedisAnswers(
  child: ChildProcess,
  url: string,
  options: { tls?: { ca: Buffer } } = {},
): Promise<void> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, ...options });
  probe.on('error', () => undefined);
  try {
    await waitFor(
      `redis-server at ${url.replace(/\/\/[^@]*@/, '//')}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
        try {
          if (probe.status !== 'ready') await probe.connect();
          return (await probe.ping()) === 'PONG';
        } catch {
          probe.disconnect();
          return false;
        }
      },
      10_000,
      50,
    );
  } finally {
    probe.disconnect();
  }
}
