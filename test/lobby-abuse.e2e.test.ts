// The lobby's share of the abuse suite (invariants 10 and 11 of docs/architecture.md): each attack on a
// real lobby process over HTTP, behind a (simulated) trusted proxy so that each attacker and bystander
// has an address of its own. Each test asserts the safe outcome, and the ledger audit passes at the
// end.
import { randomUUID } from 'node:crypto';
import { runAudit } from '@felt/db';
import { parseRoomConfig } from '@felt/protocol';
import {
  revocationState,
  revocationsLoadedKey,
  SESSION_COOKIE,
  verifySessionToken,
  type RevocationState,
} from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, waitFor } from './harness/index.js';

let cluster: Cluster;
let url: string;

beforeAll(async () => {
  cluster = await Cluster.start({
    gateways: 0,
    workers: 0,
    lobby: true,
    env: {
      FELT_TRUST_PROXY: '1',
      FELT_SIGNUP_GRANTS_PER_ADDRESS_PER_DAY: '2',
      FELT_HASH_CONCURRENCY: '1',
      FELT_HASH_QUEUE: '2',
      FELT_MAX_OPEN_ROOMS_PER_USER: '2',
      FELT_JOIN_MISSES_PER_USER: '5',
      FELT_REVOCATION_CHECK_MS: '200',
    },
  });
  url = cluster.lobby!.url;
});

afterAll(async () => {
  await cluster?.stop();
});

interface Answer<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

let lastOctet = 10;
/** A new client address behind the proxy. */
const newAddress = (): string => `203.0.113.${lastOctet++}`;

/** One HTTP client: an address (X-Forwarded-For, as the trusted proxy would set it) and a cookie. */
class Player {
  cookie: string | undefined;
  id = '';
  name = '';

  constructor(readonly address = newAddress()) {}

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        'x-forwarded-for': this.address,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    if (set) this.cookie = set.split(';')[0];
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
  }

  async signUp(name = `u${randomUUID().slice(0, 8)}`): Promise<Answer<{ user: { id: string }; grant: number }>> {
    const res = await this.call<{ user: { id: string }; grant: number }>('POST', '/api/auth/signup', {
      name,
      password: 'password-1',
    });
    if (res.status === 201) {
      this.id = res.body.user.id;
      this.name = name;
    }
    return res;
  }

  async sessionId(): Promise<string> {
    return (await verifySessionToken(cluster.secret, this.cookie!.slice(SESSION_COOKIE.length + 1))).sessionId;
  }
}

async function player(): Promise<Player> {
  const p = new Player();
  const res = await p.signUp();
  expect(res.status).toBe(201);
  return p;
}

function expectCode(res: Answer<unknown>, status: number, code: string): void {
  expect({ status: res.status, code: (res.body as { error?: { code?: string } } | null)?.error?.code }).toEqual({
    status,
    code,
  });
}

function retryAfter(res: Answer<unknown>): number {
  expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  return Number(res.headers.get('retry-after'));
}

describe('lobby abuse', () => {
  it('overflowing config: refused with a typed 400; a broken stored row breaks neither the list nor quick join', async () => {
    const host = await player();
    const res = await host.call<{ error: { details: { issues: { path: string }[] } } }>('POST', '/api/rooms', {
      config: { stakes: { smallBlind: 50_000_000_000_000, bigBlind: 100_000_000_000_000 } },
    });
    expectCode(res, 400, 'invalid_room_config');
    expect(res.body.error.details.issues.map((i) => i.path)).toContain('buyIn.max');

    const good = await host.call<{ session_id: string }>('POST', '/api/rooms', { config: {} });
    expect(good.status).toBe(201);
    // What the old lobby stored for that request: unreadable now.
    const defaults = parseRoomConfig({});
    const stored = {
      ...defaults,
      stakes: { ...defaults.stakes, smallBlind: 50_000_000_000_000, bigBlind: 100_000_000_000_000 },
      buyIn: { min: 4_000_000_000_000_000, max: 10_000_000_000_000_000 },
    };
    const brokenId = randomUUID();
    await cluster.db.prisma.$executeRaw`
      INSERT INTO "rooms" ("id", "code", "config", "is_public", "host_id", "created_at")
      VALUES (${brokenId}::uuid, '999999', ${JSON.stringify(stored)}::jsonb, true, ${host.id}::uuid, now() - interval '1 day')`;

    const other = await player();
    const list = await other.call<{ rooms: { session_id: string }[] }>('GET', '/api/rooms');
    expect(list.status).toBe(200);
    expect(list.body.rooms.map((r) => r.session_id)).toContain(good.body.session_id);
    expect(list.body.rooms.map((r) => r.session_id)).not.toContain(brokenId);
    const joined = await other.call<{ session_id: string }>('POST', '/api/rooms/quick-join', { buy_in: 100 });
    expect(joined.status).toBe(200);
    expect(joined.body.session_id).toBe(good.body.session_id);
    await waitFor('the unreadable room logged with its id', () =>
      cluster.lobby!.proc.jsonLogs().find((l) => l.event === 'room_config_unreadable' && l.roomId === brokenId),
    );
  });

  it('log-in brute force: 30 wrong passwords get 401, then 429 with Retry-After; another name elsewhere is unaffected', async () => {
    const victim = await player();
    const bystander = await player();
    const attacker = new Player();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await attacker.call('POST', '/api/auth/login', { name: victim.name, password: `guess-${i}-pw` });
      statuses.push(res.status);
      if (res.status === 429) {
        expectCode(res, 429, 'rate_limited');
        expect(retryAfter(res)).toBeGreaterThanOrEqual(1);
      } else expectCode(res, 401, 'invalid_credentials');
    }
    expect(statuses.slice(0, 5)).toEqual(Array<number>(5).fill(401));
    expect(statuses.slice(5)).toEqual(Array<number>(25).fill(429));
    const again = new Player(bystander.address);
    expect((await again.call('POST', '/api/auth/login', { name: bystander.name, password: 'password-1' })).status).toBe(
      200,
    );
  });

  it('sign-up storm: beyond the hashing queue, 503 busy with Retry-After at once; the room list still answers', async () => {
    const reader = await player();
    const storm = Array.from({ length: 30 }, () => new Player().signUp());
    const list = await reader.call('GET', '/api/rooms');
    expect(list.status).toBe(200);
    const results = await Promise.all(storm);
    const busy = results.filter((r) => r.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const r of busy) {
      expectCode(r, 503, 'busy');
      retryAfter(r);
    }
    for (const r of results.filter((x) => x.status !== 503)) expect(r.status).toBe(201);
  });

  it('grant farming: an address gets its daily grants, then accounts without chips and no ledger entry', async () => {
    const address = newAddress();
    const signedUp: { id: string; grant: number }[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await new Player(address).signUp();
      expect(res.status).toBe(201);
      signedUp.push({ id: res.body.user.id, grant: res.body.grant });
    }
    expect(signedUp.map((s) => s.grant)).toEqual([10_000, 10_000, 0, 0]);
    const grantTxs = await cluster.db.prisma.ledgerTransaction.count({
      where: { idempotencyKey: { in: signedUp.map((s) => `signup-grant:${s.id}`) } },
    });
    expect(grantTxs).toBe(2);
  });

  it('code probing: a wrong code and a right code with a bad body get the same answer; misses are limited', async () => {
    const host = await player();
    const room = await host.call<{ code: string }>('POST', '/api/rooms', {
      config: { listed: false, seats: 2 },
      sit: { buy_in: 100 },
    });
    const prober = await player();
    let missing = await prober.call('POST', '/api/rooms/join', { code: '000000', buy_in: 100 });
    if (room.body.code === '000000')
      missing = await prober.call('POST', '/api/rooms/join', { code: '000001', buy_in: 100 });
    expectCode(missing, 404, 'room_not_found');
    for (const body of [
      { code: room.body.code, buy_in: 1 },
      { code: room.body.code, buy_in: 5000 },
      { code: room.body.code, seat: 1, buy_in: 100 },
      { code: room.body.code, seat: 7, buy_in: 100 },
    ]) {
      const res = await prober.call('POST', '/api/rooms/join', body);
      expect({ status: res.status, body: res.body }).toEqual({ status: missing.status, body: missing.body });
    }
    // Five misses so far (the limit): the next is refused before the room is even looked up.
    const limited = await prober.call('POST', '/api/rooms/join', { code: room.body.code, buy_in: 100 });
    expectCode(limited, 429, 'rate_limited');
    retryAfter(limited);
    // Whoever was given the code joins at once.
    const guest = await player();
    expect((await guest.call('POST', '/api/rooms/join', { code: room.body.code, buy_in: 100 })).status).toBe(200);
  });

  it('room spam: one host may hold only so many open rooms', async () => {
    const host = await player();
    expect((await host.call('POST', '/api/rooms', { config: { listed: false } })).status).toBe(201);
    expect((await host.call('POST', '/api/rooms', { config: { listed: false } })).status).toBe(201);
    expectCode(await host.call('POST', '/api/rooms', { config: { listed: false } }), 409, 'room_limit_reached');
  });

  it('CSRF: a state-changing request from another origin is refused; the lobby sends CSP and nosniff', async () => {
    const victim = await player();
    const before = await cluster.db.prisma.room.count();
    const forged = await victim.call('POST', '/api/rooms', { config: {} }, { origin: 'https://evil.example' });
    expectCode(forged, 403, 'origin_not_allowed');
    const crossSite = await victim.call('POST', '/api/auth/logout', undefined, { 'sec-fetch-site': 'cross-site' });
    expectCode(crossSite, 403, 'origin_not_allowed');
    expect(await cluster.db.prisma.room.count()).toBe(before);
    // The lobby's own pages may.
    const own = await victim.call('POST', '/api/rooms', { config: { listed: false } }, { origin: url });
    expect(own.status).toBe(201);

    const page = await fetch(`${url}/`);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain('connect-src');
    // FELT_GATEWAY_URLS, here its default: the web client opens its WebSockets there.
    expect(csp).toMatch(/connect-src 'self' ws:\/\/127\.0\.0\.1:8081(;|$)/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a badly encoded session cookie is a 401, not a 500', async () => {
    const res = await fetch(`${url}/api/me`, { headers: { cookie: `${SESSION_COOKIE}=%E0%A4%A` } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
  });

  it('durable logout: after Redis loses it, the session is unknown (fail closed) until the lobby reloads it', async () => {
    const state = (sid: string): Promise<RevocationState> => revocationState(cluster.redis, cluster.prefix, sid);
    await waitFor('the revocation list marked complete', async () =>
      (await cluster.redis.exists(revocationsLoadedKey(cluster.prefix))) === 1 ? true : undefined,
    );
    const out = await player();
    const sid = await out.sessionId();
    expect(await state(sid)).toBe('live');
    expect((await out.call('POST', '/api/auth/logout')).status).toBe(204);
    expect(await state(sid)).toBe('revoked');

    // Redis forgets the revocation list and its marker (a restart without persistence).
    const keys = await cluster.redis.keys(`${cluster.prefix}{revocations}:*`);
    await cluster.redis.del(...keys);
    expect(await state(sid)).toBe('unknown');
    expect(
      await waitFor('the lobby to reload revocations', async () =>
        (await state(sid)) === 'revoked' ? true : undefined,
      ),
    ).toBe(true);

    // Log out everywhere: every session of the user, and no one else's.
    const a = await player();
    const b = new Player(a.address);
    expect((await b.call('POST', '/api/auth/login', { name: a.name, password: 'password-1' })).status).toBe(200);
    const bystander = await player();
    const res = await a.call<{ revoked: number }>('POST', '/api/auth/logout-all');
    expect(res.body).toEqual({ revoked: 2 });
    expect(await state(await b.sessionId())).toBe('revoked');
    expect((await b.call('GET', '/api/me')).status).toBe(401);
    expect(await state(await bystander.sessionId())).toBe('live');
  });

  it('leaves the ledger sound', async () => {
    const report = await runAudit(cluster.db.prisma);
    expect(report.issues).toEqual([]);
    expect(report.imbalance).toBe(0n);
    expect(report.ok).toBe(true);
    expect(cluster.lobby!.proc.jsonLogs().filter((l) => (l.level as number) >= 50)).toEqual([]);
  });
});
