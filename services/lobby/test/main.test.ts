import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, SECRET } from './harness.js';

/** The built service, as `npm start` and the containers run it. */
const lobbyDir = fileURLToPath(new URL('..', import.meta.url));
const adminUrl = (() => {
  const u = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  u.pathname = '/postgres';
  return u.toString();
})();

let dbName: string;
let dbUrl: string;
const prefix = `felt-test:${randomBytes(6).toString('hex')}:`;

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    return (await c.query<R>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

interface Running {
  readonly child: ChildProcess;
  readonly port: number;
  /** LOBBY_OPS_PORT, as the ready line announces it. */
  readonly opsPort: number;
  readonly lines: Record<string, unknown>[];
  stop(): Promise<number | null>;
}

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DATABASE_URL: dbUrl,
    REDIS_URL,
    FELT_REDIS_PREFIX: prefix,
    FELT_SESSION_SECRET: SECRET,
    LOBBY_HOST: '127.0.0.1',
    LOBBY_PORT: '0',
    LOBBY_OPS_PORT: '0',
    FELT_GATEWAY_URLS: 'ws://127.0.0.1:9001/ws',
    ...extra,
  };
}

/** Starts dist/main.js with the telemetry preload and waits for its ready line. */
async function startLobby(extra: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, ['--import', './dist/telemetry.js', 'dist/main.js'], {
    cwd: lobbyDir,
    env: env(extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const [port, opsPort] = await new Promise<[number, number]>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`no ready line; stderr: ${stderr}`)), 45_000);
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        try {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          lines.push(parsed);
          if (parsed.event === 'ready') {
            clearTimeout(timer);
            resolve([parsed.port as number, parsed.opsPort as number]);
          }
        } catch {
          // Not a log line.
        }
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before ready; stderr: ${stderr}`));
    });
  });
  return {
    child,
    port,
    opsPort,
    lines,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

async function http(port: number, method: string, path: string, body?: unknown, cookie?: string) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(cookie ? { cookie } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: (text ? JSON.parse(text) : null) as Record<string, unknown>,
    cookie: /^(felt_session=[^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1],
  };
}

beforeAll(async () => {
  if (!existsSync(`${lobbyDir}dist/main.js`) || !existsSync(`${lobbyDir}dist/telemetry.js`)) {
    throw new Error('build the lobby first: npx tsc -b services/lobby');
  }
  // An empty database: the service must migrate it itself.
  dbName = `felt_lobby_main_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await admin(`CREATE DATABASE "${dbName}"`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  dbUrl = u.toString();
});

afterAll(async () => {
  await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
});

describe('the lobby process', () => {
  it('migrates, announces readiness with its port, serves real HTTP with traces, and stops cleanly', async () => {
    const lobby = await startLobby({ FELT_TRACE_MEMORY: '1' });
    try {
      const ready = lobby.lines.find((l) => l.event === 'ready')!;
      expect(ready).toMatchObject({ service: 'lobby', level: 30 });
      expect(lobby.port).toBeGreaterThan(0);
      const applied = await query<{ migration_name: string }>('SELECT migration_name FROM "_prisma_migrations"');
      expect(applied.length).toBeGreaterThan(0);

      expect(await http(lobby.port, 'GET', '/healthz')).toMatchObject({ status: 200 });
      // Readiness, metrics and span captures are on the operations port only, never the public one.
      expect(lobby.opsPort).toBeGreaterThan(0);
      expect(lobby.opsPort).not.toBe(lobby.port);
      expect(await http(lobby.opsPort, 'GET', '/readyz')).toMatchObject({ status: 200, body: { ready: true } });
      expect((await http(lobby.opsPort, 'GET', '/healthz')).status).toBe(200);
      for (const path of ['/readyz', '/metrics', '/debug/spans']) {
        expect((await fetch(`http://127.0.0.1:${lobby.port}${path}`)).status, path).toBe(404);
      }
      const signup = await http(lobby.port, 'POST', '/api/auth/signup', { name: 'proc_user', password: 'password-1' });
      expect(signup.status).toBe(201);
      const room = await http(lobby.port, 'POST', '/api/rooms', { sit: { buy_in: 150 } }, signup.cookie);
      expect(room.status).toBe(201);

      // The telemetry preload instrumented node:http: the signup left a server span.
      const spans = await http(lobby.opsPort, 'GET', '/debug/spans');
      const names = (spans.body.spans as { name: string; kind: number; attributes: Record<string, unknown> }[]).map(
        (s) => `${s.kind}:${JSON.stringify(s.attributes['http.target'] ?? s.attributes['url.path'] ?? s.name)}`,
      );
      expect(names.some((n) => n.startsWith('1:') && n.includes('/api/auth/signup'))).toBe(true);
      // Logs are pino JSON with the service name.
      expect(lobby.lines.some((l) => l.event === 'http_request' && l.route === '/api/auth/signup')).toBe(true);
    } finally {
      expect(await lobby.stop()).toBe(0);
    }
  });

  it('finishes a room deletion that a crash interrupted, on the next start', async () => {
    const rooms = await query<{ id: string }>('SELECT id::text AS id FROM rooms');
    expect(rooms).toHaveLength(1);
    // The crash: the tombstone was written, nothing else. In ledger mode the lobby refunds from escrow
    // itself (in worker mode, the default, it reminds the table and the money tests cover the rest).
    await query(`UPDATE rooms SET status = 'closing', closing_at = now() WHERE id = $1`, [rooms[0]!.id]);
    const lobby = await startLobby({ FELT_CASH_OUT_MODE: 'ledger' });
    try {
      const [room] = await query<{ status: string }>('SELECT status::text AS status FROM rooms WHERE id = $1', [
        rooms[0]!.id,
      ]);
      expect(room!.status).toBe('closed');
      const [wallet] = await query<{ balance: string }>(
        "SELECT a.balance::text AS balance FROM ledger_accounts a JOIN users u ON a.user_id = u.id WHERE u.name = 'proc_user' AND a.kind = 'wallet'",
      );
      expect(wallet!.balance).toBe('10000');
      expect(lobby.lines.some((l) => l.event === 'room_closures_resumed')).toBe(true);
    } finally {
      expect(await lobby.stop()).toBe(0);
    }
  });

  it('exits non-zero at start-up naming each bad variable', () => {
    const run = (extra: Record<string, string | undefined>) =>
      spawnSync(process.execPath, ['dist/main.js'], {
        cwd: lobbyDir,
        env: { ...env(), ...extra },
        encoding: 'utf8',
        timeout: 30_000,
      });
    const badPort = run({ LOBBY_PORT: 'eighty' });
    expect(badPort.status).toBe(1);
    expect(badPort.stderr).toContain('lobby: invalid configuration');
    expect(badPort.stderr).toContain('LOBBY_PORT');

    const several = run({ FELT_SESSION_SECRET: 'short', FELT_GATEWAY_URLS: 'http://not-ws', FELT_SIGNUP_GRANT: '-5' });
    expect(several.status).toBe(1);
    expect(several.stderr).toContain('FELT_SESSION_SECRET: must be at least 32 characters');
    expect(several.stderr).toContain('FELT_GATEWAY_URLS');
    expect(several.stderr).toContain('FELT_SIGNUP_GRANT');

    const noSecret = run({ FELT_SESSION_SECRET: undefined });
    expect(noSecret.status).toBe(1);
    expect(noSecret.stderr).toContain('FELT_SESSION_SECRET');
  });
});
