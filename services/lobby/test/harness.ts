import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createTestDatabase, ledgerTotals, type PrismaClient, type TestDatabase } from '@felt/db';
import { closeRedis, createLogger, createRedis, redisKeys, type Logger, type Redis } from '@felt/platform';
import { lobbyErrorSchema, SESSION_COOKIE, type LobbyErrorBody } from '@felt/protocol';
import { createLobbyApp, type LobbyApp, type LobbyDeps } from '../src/app.js';

export const SECRET = 'test-secret-0123456789abcdef0123456789';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** scrypt at 1/32 of the production cost: the format and checks are the same, the tests faster. */
export const TEST_SCRYPT = { N: 1024, r: 8, p: 1 } as const;

export interface Response<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

/** A browser-like client: keeps the session cookie that the lobby sets. */
export class Client {
  cookie: string | undefined;

  /**
   * @param address the socket address the lobby sees, as @hono/node-server passes it. The default
   *   is this host, which the per-address limits skip by default, as a local player would be.
   */
  constructor(
    private readonly lobby: LobbyApp,
    readonly address = '127.0.0.1',
  ) {}

  async req<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response<T>> {
    const init: RequestInit = {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    };
    const res = await this.lobby.app.request(path, init, { incoming: { socket: { remoteAddress: this.address } } });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      const value = new RegExp(`^${SESSION_COOKIE}=([^;]*)`).exec(setCookie)?.[1];
      this.cookie = value ? `${SESSION_COOKIE}=${value}` : undefined;
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Non-JSON bodies (HTML, metrics) stay text.
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = Record<string, unknown>>(path: string): Promise<Response<T>> {
    return this.req<T>('GET', path);
  }

  /** A GET on the operations port's app (LOBBY_OPS_PORT): /healthz, /readyz, /metrics, /debug/spans. */
  async ops<T = Record<string, unknown>>(path: string): Promise<Response<T>> {
    const res = await this.lobby.ops.request(path);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Metrics stay text.
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  post<T = Record<string, unknown>>(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.req<T>('POST', path, body, headers);
  }
}

export interface Harness {
  readonly lobby: LobbyApp;
  readonly db: TestDatabase;
  readonly redis: Redis;
  readonly prefix: string;
  /** A client calling from `address` (default 127.0.0.1). */
  client(address?: string): Client;
  /** A signed-up, signed-in client. */
  user(name?: string, address?: string): Promise<Client & { id: string; name: string }>;
  /** Wallet, memberships and ledger, to show that a refused request changed nothing. */
  snapshot(): Promise<unknown>;
  close(): Promise<void>;
}

let names = 0;

export function uniqueName(base = 'p'): string {
  return `${base}${++names}_${randomBytes(3).toString('hex')}`;
}

export interface HarnessOptions {
  /** The Postgres server to create the test database on (a private one); default the shared one. */
  readonly postgresAdminUrl?: string;
  /** A client on a read replica of the test database, given its name (LobbyDeps.replica). */
  readonly replicaOf?: (database: string) => PrismaClient;
}

export async function startHarness(overrides: Partial<LobbyDeps> = {}, options: HarnessOptions = {}): Promise<Harness> {
  const db = await createTestDatabase(options.postgresAdminUrl ? { adminUrl: options.postgresAdminUrl } : {});
  const replica = options.replicaOf?.(db.name);
  const redis = createRedis(REDIS_URL, { name: 'lobby-test' });
  const prefix = `felt-test:${randomBytes(6).toString('hex')}:`;
  const lobby = createLobbyApp({
    prisma: db.prisma,
    redis,
    redisPrefix: prefix,
    sessionSecret: SECRET,
    cookieSecure: false,
    signupGrant: 10_000,
    gatewayUrls: ['ws://127.0.0.1:8081/ws', 'ws://127.0.0.1:8082/ws'],
    logger: createLogger('lobby', { level: 'silent' }),
    scrypt: TEST_SCRYPT,
    // These suites pay leaves and closes from the ledger unless a test asks for the worker mode
    // (money.test.ts); the process default (FELT_CASH_OUT_MODE) is `worker`.
    cashOutMode: 'ledger',
    ...(replica ? { replica } : {}),
    ...overrides,
  });
  return {
    lobby,
    db,
    redis,
    prefix,
    client: (address?: string) => new Client(lobby, address),
    async user(name = uniqueName(), address?: string) {
      const c = new Client(lobby, address);
      const res = await c.post<{ user: { id: string; name: string } }>('/api/auth/signup', {
        name,
        password: 'password-1',
      });
      if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
      return Object.assign(c, { id: res.body.user.id, name });
    },
    async snapshot() {
      const [memberships, accounts, transactions, rooms, totals] = await Promise.all([
        db.prisma.membership.findMany({ orderBy: { id: 'asc' } }),
        db.prisma.ledgerAccount.findMany({ orderBy: { key: 'asc' }, select: { key: true, balance: true } }),
        db.prisma.ledgerTransaction.count(),
        db.prisma.room.findMany({ orderBy: { id: 'asc' } }),
        ledgerTotals(db.prisma),
      ]);
      return { memberships, accounts, transactions, rooms, totals };
    },
    async close() {
      await lobby.revocationSync.stop();
      await flushPrefix(redis, prefix);
      await closeRedis(redis);
      await replica?.$disconnect();
      await db.drop();
    },
  };
}

export interface RoomEventListener {
  /** Every room event received so far, in order. */
  readonly events: unknown[];
  /**
   * A barrier: publishes a probe on the channel through the lobby's own Redis connection and waits
   * for it, then returns the room events that arrived before it. The lobby issues its PUBLISH before
   * it answers the request, and Redis runs one connection's commands in order, so every event a
   * finished request published is in the list, and an event that should not exist would be too.
   */
  settled(): Promise<unknown[]>;
  close(): Promise<void>;
}

const PROBE = 'room-events-test-probe';

/** Subscribes to the lobby's room-events channel and collects what arrives. */
export async function listenRoomEvents(h: Pick<Harness, 'redis' | 'prefix'>): Promise<RoomEventListener> {
  const sub = createRedis(REDIS_URL, { name: 'lobby-test-sub' });
  const channel = redisKeys(h.prefix).roomEvents;
  const events: unknown[] = [];
  const probes = new Map<string, () => void>();
  sub.on('message', (_channel: string, message: string) => {
    const parsed = JSON.parse(message) as { [PROBE]?: string };
    const probe = parsed[PROBE];
    if (probe === undefined) events.push(parsed);
    else probes.get(probe)?.();
  });
  await sub.subscribe(channel);
  return {
    events,
    async settled() {
      const id = randomBytes(6).toString('hex');
      const arrived = new Promise<void>((resolve) => probes.set(id, resolve));
      await h.redis.publish(channel, JSON.stringify({ [PROBE]: id }));
      await arrived;
      probes.delete(id);
      return [...events];
    },
    close: () => closeRedis(sub),
  };
}

/** A logger whose JSON lines a test can read back. */
export function capturedLogger(level = 'info'): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger('lobby', { level, destination });
  return {
    logger,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/** Asserts the lobby's documented error shape and code, and returns the body. */
export function expectError(res: Response<unknown>, status: number, code: string): LobbyErrorBody {
  const parsed = lobbyErrorSchema.safeParse(res.body);
  if (!parsed.success) throw new Error(`not the error shape: ${res.status} ${JSON.stringify(res.body)}`);
  if (res.status !== status || parsed.data.error.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  return parsed.data;
}

/** Deletes every Redis key under the prefix (what a Redis restart without persistence does to them). */
export async function flushPrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) deleted += await redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
}
