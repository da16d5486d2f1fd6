// Log-in and sign-up once had no throttle (thirty wrong passwords in a row all got 401), a
// sign-up storm saturated the lobby with password hashing, and every sign-up minted a grant.
import { ledgerTotals } from '@felt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCRYPT } from '../src/passwords.js';
import { expectError, startHarness, uniqueName, type Harness, type Response } from './harness.js';

const PASSWORD = 'password-1';

function retryAfter(res: Response<unknown>): number {
  const header = res.headers.get('retry-after');
  expect(header, 'Retry-After').toMatch(/^[1-9][0-9]*$/);
  return Number(header);
}

describe('log-in throttle', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ limits: { loginFailsPerName: 5, loginFailsPerAddress: 20, backoffBaseSeconds: 30 } });
  });

  afterAll(async () => {
    await h.close();
  });

  it('answers 30 wrong passwords for one name with 401s, then 429 with Retry-After; others are unaffected', async () => {
    const victim = await h.user(uniqueName('victim'), '198.51.100.1');
    const bystander = await h.user(uniqueName('bystander'), '198.51.100.2');
    const attacker = h.client('203.0.113.10');

    const statuses: number[] = [];
    let limited: Response<unknown> | undefined;
    for (let i = 0; i < 30; i++) {
      const res = await attacker.post('/api/auth/login', { name: victim.name, password: `wrong-${i}-pw` });
      statuses.push(res.status);
      if (res.status === 401) expectError(res, 401, 'invalid_credentials');
      else {
        expectError(res, 429, 'rate_limited');
        limited ??= res;
      }
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual(Array<number>(25).fill(429));
    expect(retryAfter(limited!)).toBe(30);
    expect((limited!.body as { error: { details: Record<string, unknown> } }).error.details).toEqual({
      retry_after_seconds: 30,
    });

    // During the block even the right password waits: guessing is what the block stops.
    expectError(await attacker.post('/api/auth/login', { name: victim.name, password: PASSWORD }), 429, 'rate_limited');
    // A different name from another address is unaffected.
    const other = h.client('198.51.100.2');
    expect((await other.post('/api/auth/login', { name: bystander.name, password: PASSWORD })).status).toBe(200);
    // And the attacker's address is spent too: the next name it tries is refused after its limit.
    const fresh = await h.user(uniqueName('fresh'), '198.51.100.3');
    expectError(await attacker.post('/api/auth/login', { name: fresh.name, password: PASSWORD }), 429, 'rate_limited');
  });

  it('backs off exponentially: once blocked, each further failure blocks for twice as long', async () => {
    const user = await h.user(uniqueName('backoff'), '198.51.100.20');
    const guesser = h.client('203.0.113.20');
    for (let i = 0; i < 5; i++) {
      expect((await guesser.post('/api/auth/login', { name: user.name, password: `nope-${i}-pw` })).status).toBe(401);
    }
    const first = await guesser.post('/api/auth/login', { name: user.name, password: 'nope-x-pw' });
    expect(retryAfter(first)).toBe(30);

    // The block runs out (as its TTL would): the name's counter is gone, its strikes are not.
    await h.redis.del(`${h.prefix}rl:login-name:${user.name.toLowerCase()}`);
    expect((await guesser.post('/api/auth/login', { name: user.name, password: 'nope-y-pw' })).status).toBe(401);
    const second = await guesser.post('/api/auth/login', { name: user.name, password: 'nope-z-pw' });
    expectError(second, 429, 'rate_limited');
    expect(retryAfter(second)).toBe(60);

    await h.redis.del(`${h.prefix}rl:login-name:${user.name.toLowerCase()}`);
    expect((await guesser.post('/api/auth/login', { name: user.name, password: 'nope-w-pw' })).status).toBe(401);
    expect(retryAfter(await guesser.post('/api/auth/login', { name: user.name, password: 'nope-v-pw' }))).toBe(120);
  });

  it('resets the name on a successful log-in', async () => {
    const user = await h.user(uniqueName('forgetful'), '198.51.100.30');
    const c = h.client('198.51.100.30');
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) {
        expect((await c.post('/api/auth/login', { name: user.name, password: `typo-${i}-pw` })).status).toBe(401);
      }
      expect((await c.post('/api/auth/login', { name: user.name, password: PASSWORD })).status).toBe(200);
    }
  });

  it('limits failures per address across names', async () => {
    const spray = h.client('203.0.113.40');
    const statuses: number[] = [];
    // One guess each at 25 names (unknown ones cost a hash all the same).
    for (let i = 0; i < 25; i++) {
      statuses.push((await spray.post('/api/auth/login', { name: uniqueName('spray'), password: PASSWORD })).status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array<number>(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array<number>(5).fill(429));
    // The limits are in Redis: a second lobby on the same prefix (another replica) refuses it too.
    const { createLobbyApp } = await import('../src/app.js');
    const { createLogger } = await import('@felt/platform');
    const replica = createLobbyApp({
      prisma: h.db.prisma,
      redis: h.redis,
      redisPrefix: h.prefix,
      sessionSecret: 'test-secret-0123456789abcdef0123456789',
      cookieSecure: false,
      signupGrant: 10_000,
      gatewayUrls: ['ws://127.0.0.1:8081/ws'],
      logger: createLogger('lobby', { level: 'silent' }),
      limits: { loginFailsPerName: 5, loginFailsPerAddress: 20 },
    });
    const res = await replica.app.request(
      '/api/auth/login',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: uniqueName('spray'), password: PASSWORD }),
      },
      { incoming: { socket: { remoteAddress: '203.0.113.40' } } },
    );
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  });
});

describe('sign-up throttle and grants', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ limits: { signupsPerAddress: 4, signupGrantsPerAddressPerDay: 2 } });
  });

  afterAll(async () => {
    await h.close();
  });

  it('limits sign-ups per address with 429 and Retry-After; other addresses sign up', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await h
        .client('203.0.113.50')
        .post('/api/auth/signup', { name: uniqueName('s'), password: PASSWORD });
      statuses.push(res.status);
      if (res.status === 429) retryAfter(res);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
    expect(
      (await h.client('203.0.113.51').post('/api/auth/signup', { name: uniqueName('s'), password: PASSWORD })).status,
    ).toBe(201);
  });

  it('pays the grant to the first sign-ups of an address each day; later ones get an account and no grant', async () => {
    const address = '203.0.113.60';
    const signUp = (name = uniqueName('g')) =>
      h
        .client(address)
        .post<{ user: { id: string }; wallet: number; grant: number; grant_withheld: string | null }>(
          '/api/auth/signup',
          { name, password: PASSWORD },
        );
    // A sign-up that fails (a taken name) gives its grant back.
    const taken = await h.user(uniqueName('taken'), '203.0.113.61');
    expectError(await signUp(taken.name), 409, 'name_taken');

    const results = [await signUp(), await signUp(), await signUp()];
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(results.map((r) => [r.body.grant, r.body.grant_withheld, r.body.wallet])).toEqual([
      [10_000, null, 10_000],
      [10_000, null, 10_000],
      [0, 'address_daily_cap', 0],
    ]);
    // No ledger transaction for the withheld grant, and the ledger still balances.
    const withheld = results[2]!.body.user.id;
    expect(await h.db.prisma.ledgerTransaction.count({ where: { idempotencyKey: `signup-grant:${withheld}` } })).toBe(
      0,
    );
    expect(await h.db.prisma.user.count({ where: { id: withheld } })).toBe(1);
    const t = await ledgerTotals(h.db.prisma);
    expect(t.wallets + t.escrow + t.rake).toBe(t.granted);

    // Another address still gets its grants.
    const elsewhere = await h.client('203.0.113.62').post<{ grant: number }>('/api/auth/signup', {
      name: uniqueName('g'),
      password: PASSWORD,
    });
    expect(elsewhere.body.grant).toBe(10_000);
  });

  it('counts an IPv6 client by its /64', async () => {
    const a = await h.client('2001:db8:1:2::1').post<{ grant: number }>('/api/auth/signup', {
      name: uniqueName('v6'),
      password: PASSWORD,
    });
    const b = await h.client('2001:db8:1:2:ffff::9').post<{ grant: number }>('/api/auth/signup', {
      name: uniqueName('v6'),
      password: PASSWORD,
    });
    const c = await h.client('2001:db8:1:2:abcd::7').post<{ grant: number }>('/api/auth/signup', {
      name: uniqueName('v6'),
      password: PASSWORD,
    });
    expect([a.body.grant, b.body.grant, c.body.grant]).toEqual([10_000, 10_000, 0]);
  });
});

describe('password hashing queue', () => {
  let h: Harness;

  beforeAll(async () => {
    // Production scrypt cost, one hash at a time, two waiting: a burst is far beyond it.
    h = await startHarness({
      scrypt: DEFAULT_SCRYPT,
      limits: { hashConcurrency: 1, hashQueue: 2, signupsPerAddress: 1000, signupGrantsPerAddressPerDay: 1000 },
    });
  });

  afterAll(async () => {
    await h.close();
  });

  it('refuses a sign-up burst beyond the queue with 503 busy and Retry-After, while the room list answers', async () => {
    const player = await h.user(uniqueName('reader'));
    const finished: string[] = [];
    const burst = Array.from({ length: 12 }, (_, i) =>
      h
        .client(`203.0.113.${100 + i}`)
        .post('/api/auth/signup', { name: uniqueName('storm'), password: PASSWORD })
        .then((res) => {
          if (res.status === 201) finished.push('signup');
          return res;
        }),
    );
    const list = await player.get<{ rooms: unknown[] }>('/api/rooms');
    finished.push('list');
    expect(list.status).toBe(200);
    const results = await Promise.all(burst);

    const created = results.filter((r) => r.status === 201);
    const busy = results.filter((r) => r.status !== 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.length).toBeLessThanOrEqual(3);
    expect(busy.length).toBe(12 - created.length);
    for (const r of busy) {
      expectError(r, 503, 'busy');
      retryAfter(r);
    }
    // The list was answered while admitted sign-ups were still hashing.
    expect(finished.indexOf('list')).toBeLessThan(finished.lastIndexOf('signup'));
    // Refused sign-ups created nothing.
    expect(await h.db.prisma.user.count({ where: { name: { startsWith: 'storm' } } })).toBe(created.length);
  });
});
