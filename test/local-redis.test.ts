// The Redis of `npm start` without REDIS_URL (scripts/local-redis.ts): its password is made once and
// kept (mode 0600), the URL carries it, and the redis-server it starts refuses a client without it.
// A real redis-server on a free port from 6380, its files in a temp directory standing for .felt/.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LOCAL_REDIS_FIRST_PORT,
  LocalRedis,
  localRedisFiles,
  localRedisPassword,
  localRedisUrl,
  redisAddress,
  runningLocalRedisUrl,
} from '../scripts/local-redis.js';
import { waitFor } from './harness/wait.js';

let feltDir: string;
const started: LocalRedis[] = [];

beforeEach(() => {
  feltDir = mkdtempSync(join(tmpdir(), 'felt-local-redis-'));
});

afterEach(async () => {
  for (const server of started.splice(0)) await server.stop();
  rmSync(feltDir, { recursive: true, force: true });
});

const mode = (file: string): number => statSync(file).mode & 0o777;

describe('the local Redis password', () => {
  it('is generated once (64 hex digits, mode 0600) and reused afterwards', () => {
    const first = localRedisPassword(feltDir);
    expect(first.created).toBe(true);
    expect(first.password).toMatch(/^[0-9a-f]{64}$/);
    const file = localRedisFiles(feltDir).passwordFile;
    expect(file).toBe(join(feltDir, 'redis-password'));
    expect(readFileSync(file, 'utf8')).toBe(first.password + '\n');
    expect(mode(file)).toBe(0o600);

    const again = localRedisPassword(feltDir);
    expect(again).toEqual({ password: first.password, created: false });
  });

  it('replaces a file that holds no password, and tightens a kept one to 0600', () => {
    const file = localRedisFiles(feltDir).passwordFile;
    writeFileSync(file, 'short\n', { mode: 0o644 });
    const made = localRedisPassword(feltDir);
    expect(made.created).toBe(true);
    expect(made.password).toMatch(/^[0-9a-f]{64}$/);
    expect(mode(file)).toBe(0o600);

    chmodSync(file, 0o644);
    expect(localRedisPassword(feltDir)).toEqual({ password: made.password, created: false });
    expect(mode(file)).toBe(0o600);
  });

  it('goes into the URL the services get; the address printed for it leaves it out', () => {
    const { password } = localRedisPassword(feltDir);
    const url = localRedisUrl(password, 6381);
    expect(url).toBe(`redis://:${password}@127.0.0.1:6381`);
    const parsed = new URL(url);
    expect([parsed.username, parsed.password, parsed.hostname, parsed.port]).toEqual([
      '',
      password,
      '127.0.0.1',
      '6381',
    ]);
    expect(redisAddress(url)).toBe('127.0.0.1:6381');
  });

  it('names no running Redis before one has started', () => {
    localRedisPassword(feltDir);
    expect(runningLocalRedisUrl(feltDir)).toBeUndefined();
  });
});

describe('the local redis-server', () => {
  it('requires the password, runs as npm start needs it, and is gone once stopped', async () => {
    const server = await LocalRedis.start(feltDir);
    started.push(server);
    const { password } = localRedisPassword(feltDir);
    expect(server.port).toBeGreaterThanOrEqual(LOCAL_REDIS_FIRST_PORT);
    expect(server.url).toBe(localRedisUrl(password, server.port));
    // Other scripts (npm run audit) find it through the port file.
    expect(runningLocalRedisUrl(feltDir)).toBe(server.url);

    // No ready check: its INFO would be refused the same way before the test's own commands.
    const anonymous = new Redis({
      host: '127.0.0.1',
      port: server.port,
      lazyConnect: true,
      enableReadyCheck: false,
      maxRetriesPerRequest: 0,
    });
    anonymous.on('error', () => undefined);
    try {
      await anonymous.connect();
      await expect(anonymous.ping()).rejects.toThrow(/NOAUTH/);
      await expect(anonymous.auth('0'.repeat(64))).rejects.toThrow(/WRONGPASS/);
      expect(await anonymous.auth(password)).toBe('OK');
      expect(await anonymous.ping()).toBe('PONG');
    } finally {
      anonymous.disconnect();
    }

    const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await client.connect();
      expect(await client.ping()).toBe('PONG');
      const config = async (name: string): Promise<string> => ((await client.config('GET', name)) as string[])[1]!;
      expect(await config('maxmemory-policy')).toBe('noeviction');
      expect(await config('bind')).toBe('127.0.0.1');
      expect(await config('save')).toBe('');
      expect(await config('appendonly')).toBe('no');
      expect(await config('dir')).toBe(localRedisFiles(feltDir).dir);
      expect(await config('logfile')).toBe(localRedisFiles(feltDir).logFile);
    } finally {
      client.disconnect();
    }
    // The password reaches the server on stdin: `ps` does not show it.
    const cmdline = `/proc/${server.pid}/cmdline`;
    if (existsSync(cmdline)) expect(readFileSync(cmdline, 'utf8')).not.toContain(password);

    const pid = server.pid!;
    await server.stop();
    expect(server.running).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    expect(existsSync(localRedisFiles(feltDir).portFile)).toBe(false);
    expect(runningLocalRedisUrl(feltDir)).toBeUndefined();
  });

  it('takes the next free port when its first one is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as AddressInfo).port;
    try {
      const server = await LocalRedis.start(feltDir, { firstPort: taken });
      started.push(server);
      expect(server.port).toBeGreaterThan(taken);
      expect(runningLocalRedisUrl(feltDir)).toBe(server.url);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('stops the server a killed npm start left running before it starts another', async () => {
    const left = await LocalRedis.start(feltDir);
    started.push(left);
    const leftPid = left.pid!;
    // npm start was SIGKILLed: its server still runs and its port file still names it.
    const next = await LocalRedis.start(feltDir, { firstPort: left.port });
    started.push(next);
    await waitFor('the left-over server to exit', () => !left.running);
    expect(() => process.kill(leftPid, 0)).toThrow(/ESRCH/);
    expect(new URL(next.url).password).toBe(new URL(left.url).password);
    expect(runningLocalRedisUrl(feltDir)).toBe(next.url);
  });
});
