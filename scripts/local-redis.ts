// The Redis of a local cluster (`npm start` without REDIS_URL): a redis-server of its own on a free
// port from 6380 up, bound to 127.0.0.1, with a password generated once and kept in
// .felt/redis-password (git-ignored, mode 0600), no persistence and `maxmemory-policy noeviction`
// (the workers and the persister refuse an evicting Redis). Its data directory and log are in
// .felt/redis/, and while it runs .felt/redis/port names its port, so other scripts (`npm run audit`)
// reach the running cluster's Redis with `runningLocalRedisUrl`.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createRedis } from '@felt/platform';
import { Redis } from 'ioredis';
import { waitFor } from '../test/harness/wait.js';

/** The first port tried; the next ones up to FIRST_PORT + 99 when it is taken. */
export const LOCAL_REDIS_FIRST_PORT = 6380;
const PORTS_TRIED = 100;
const READY_TIMEOUT_MS = 10_000;

export interface LocalRedisFiles {
  /** The password, one line of hex. */
  readonly passwordFile: string;
  /** redis-server's working directory (`--dir`). */
  readonly dir: string;
  readonly logFile: string;
  /** The port of the running server; absent when none runs. */
  readonly portFile: string;
}

/** Where the local Redis keeps its files under `feltDir` (the repository's .felt/). */
export function localRedisFiles(feltDir: string): LocalRedisFiles {
  const dir = join(feltDir, 'redis');
  return {
    passwordFile: join(feltDir, 'redis-password'),
    dir,
    logFile: join(dir, 'redis.log'),
    portFile: join(dir, 'port'),
  };
}

const PASSWORD = /^[0-9a-f]{64}$/;

/** The local Redis's password: the one in `feltDir`/redis-password, or a new one written there. */
export function localRedisPassword(feltDir: string): { password: string; created: boolean } {
  const file = localRedisFiles(feltDir).passwordFile;
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    if (PASSWORD.test(saved)) {
      chmodSync(file, 0o600);
      return { password: saved, created: false };
    }
  }
  const password = randomBytes(32).toString('hex');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, password + '\n', { mode: 0o600 });
  // writeFileSync's mode applies to a new file only: a file that held something else keeps its own.
  chmodSync(file, 0o600);
  return { password, created: true };
}

/** The URL the services get for the local Redis on `port`. */
export function localRedisUrl(password: string, port: number): string {
  return `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}`;
}

/** A Redis URL fit for a log line: host and port (or the Sentinels'), never the user or password. */
export { redisAddress } from '@felt/platform';

/**
 * The URL of the local Redis that a running `npm start` started in `feltDir`, or undefined when none
 * runs (no port file, or no password).
 */
export function runningLocalRedisUrl(feltDir: string): string | undefined {
  const files = localRedisFiles(feltDir);
  if (!existsSync(files.portFile) || !existsSync(files.passwordFile)) return undefined;
  const port = Number(readFileSync(files.portFile, 'utf8').trim());
  const password = readFileSync(files.passwordFile, 'utf8').trim();
  if (!Number.isInteger(port) || port <= 0 || !PASSWORD.test(password)) return undefined;
  return localRedisUrl(password, port);
}

/** Stops the server at `url` (SHUTDOWN NOSAVE) if it answers; nothing when it does not. */
export async function shutdownLeftover(url: string | undefined, timeoutMs = 3000): Promise<boolean> {
  if (url === undefined || !(await redisAnswers(url, timeoutMs))) return false;
  const redis = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: timeoutMs });
  redis.on('error', () => undefined);
  // The server drops the connection as it exits: that is the answer.
  await redis.shutdown('NOSAVE').catch(() => undefined);
  redis.disconnect();
  await waitFor('the left-over redis-server to exit', async () => !(await redisAnswers(url, timeoutMs)));
  return true;
}

/** Whether a server at `url` answers PING (authenticated with the URL's credentials). */
export async function redisAnswers(url: string, timeoutMs = 3000): Promise<boolean> {
  const redis = createRedis(
    url,
    { name: 'felt-probe', maxRetriesPerRequest: 0 },
    { lazyConnect: true, retryStrategy: () => null, sentinelRetryStrategy: () => null, connectTimeout: timeoutMs },
  );
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first port from `first` up that nothing listens on at 127.0.0.1. */
export async function freePortFrom(first: number): Promise<number> {
  for (let port = first; port < first + PORTS_TRIED; port++) if (await portIsFree(port)) return port;
  throw new Error(`no free port for Redis in ${first}–${first + PORTS_TRIED - 1}`);
}

/**
 * A running local redis-server. It runs in a process group of its own, so a Ctrl-C in the terminal
 * reaches the services and `npm start` but not Redis: `stop()` it after the services have stopped.
 */
export class LocalRedis {
  private exitCode: number | null | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    readonly port: number,
    readonly url: string,
    readonly files: LocalRedisFiles,
    private readonly child: ChildProcess,
  ) {
    // A spawn that fails (no redis-server) reports 'error' and maybe no 'exit': either ends it.
    this.exited = new Promise((resolve) => {
      const ended = (code: number | null): void => {
        if (this.exitCode === undefined) this.exitCode = code;
        resolve();
      };
      child.once('exit', (code) => ended(code));
      child.once('error', () => ended(null));
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the server has exited (stopped, or died). */
  get running(): boolean {
    return this.exitCode === undefined;
  }

  /** Calls `listener` when the server exits, with its exit code (null when a signal ended it). */
  onExit(listener: (code: number | null) => void): void {
    void this.exited.then(() => listener(this.exitCode ?? null));
  }

  /**
   * Starts redis-server for `feltDir` on the first free port from `firstPort`. The password goes to
   * it on stdin (a config line), never on its command line, where `ps` would show it.
   */
  static async start(feltDir: string, options: { firstPort?: number } = {}): Promise<LocalRedis> {
    const files = localRedisFiles(feltDir);
    const { password } = localRedisPassword(feltDir);
    mkdirSync(files.dir, { recursive: true, mode: 0o700 });
    // A server a killed `npm start` left running still answers with this password: stop it rather
    // than leave one more behind on the next port.
    await shutdownLeftover(runningLocalRedisUrl(feltDir));
    rmSync(files.portFile, { force: true });
    const port = await freePortFrom(options.firstPort ?? LOCAL_REDIS_FIRST_PORT);
    const child = spawn(
      'redis-server',
      [
        '-',
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
        '--dir',
        files.dir,
        '--logfile',
        files.logFile,
      ],
      { stdio: ['pipe', 'ignore', 'ignore'], detached: true },
    );
    const spawnError = new Promise<never>((_, reject) => child.once('error', reject));
    spawnError.catch(() => undefined);
    child.stdin.on('error', () => undefined);
    child.stdin.end(`requirepass ${password}\n`);
    const server = new LocalRedis(port, localRedisUrl(password, port), files, child);
    try {
      await Promise.race([
        spawnError,
        waitFor(
          `redis-server on 127.0.0.1:${port}`,
          async () => {
            if (!server.running) {
              throw new Error(`redis-server exited with code ${server.exitCode} (its log: ${files.logFile})`);
            }
            return redisAnswers(server.url, 1000);
          },
          READY_TIMEOUT_MS,
          50,
        ),
      ]);
    } catch (err) {
      await server.stop();
      throw err;
    }
    writeFileSync(files.portFile, `${port}\n`);
    return server;
  }

  /** SIGTERMs the server (it keeps nothing: no persistence), SIGKILLs it after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.running) {
      this.child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), graceMs);
      });
      if ((await Promise.race([this.exited, late])) === 'late') {
        this.child.kill('SIGKILL');
        await this.exited;
      }
      clearTimeout(timer);
    }
    this.forgetPort();
  }

  /** SIGKILLs the server at once: for a process `exit` handler, where nothing can be awaited. */
  killNow(): void {
    if (this.running) this.child.kill('SIGKILL');
    this.forgetPort();
  }

  private forgetPort(): void {
    // Only this server's port: a later start may have written its own.
    if (existsSync(this.files.portFile) && readFileSync(this.files.portFile, 'utf8').trim() === String(this.port)) {
      rmSync(this.files.portFile, { force: true });
    }
  }
}
