import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { waitFor } from './wait.js';

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

/**
 * A Redis server of a test's own, on a spare port with its data in a temp directory, for tests that
 * restart or lose Redis (never the shared one on 6379). The append-only file is synced on every
 * write, so `restart({ keepData: true })` after a SIGKILL comes back with everything a client was
 * told was written, as a crashed primary that restarts from its disk does; `keepData: false`
 * comes back empty, as a failover to a replica that had not caught up (or one with no persistence).
 */
export class PrivateRedis {
  private child: ChildProcess | undefined;
  private dir: string;

  private constructor(readonly port: number) {
    this.dir = mkdtempSync(join(tmpdir(), 'felt-redis-'));
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
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
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        // What Felt asks of a production Redis (docs/operations.md): BullMQ's jobs must not be evicted.
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    this.child = child;
    const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await waitFor(
        `redis-server on port ${this.port}`,
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
}
