// Invariants 8 and 11 of docs/architecture.md (bad input gets a typed error; every input bounded):
// at least 100,000 generated bodies and query strings against every lobby route, in process on a
// real test database and Redis. No 500, ever; every refusal is a typed 4xx in the documented error
// shape; and the room list still works at the end.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { grant, withTransaction } from '@felt/db';
import { signSessionToken } from '@felt/platform';
import { lobbyErrorSchema } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestGenerator, routesOf, type FuzzRequest, type OpenApiDocument, type Route } from './openapi-fuzz.js';
import { SECRET, startHarness, uniqueName, type Client, type Harness } from './harness.js';

/** The whole run's budget: at least this many requests, spread evenly over the documented routes. */
const TOTAL = 100_000;
/** Requests in flight at once. */
const BATCH = 24;

let h: Harness;
let doc: OpenApiDocument;
let players: (Client & { id: string; name: string })[];
/** Fresh sessions for the logout routes, each used once. */
let disposable: string[];
let sent = 0;

beforeAll(async () => {
  h = await startHarness({
    limits: {
      // Room for every request the fuzz makes to reach a hash; a busy 503 is no refusal of bad input.
      hashQueue: 10_000,
      hashConcurrency: 2,
      // Every address counts, loopback too. No sign-up grants: each would wait its turn on the grant
      // source's row and the run would be mostly that; the players are funded below instead.
      exempt: [],
      signupGrantsPerAddressPerDay: 0,
    },
  });
  players = [];
  for (let i = 0; i < 4; i++) {
    const p = await h.user(uniqueName('fuzz'), `192.0.2.${i + 1}`);
    await withTransaction(h.db.prisma, (tx) =>
      grant(tx, { userId: p.id, amount: 10_000n, idempotencyKey: `fuzz-funds:${p.id}` }),
    );
    players.push(p);
  }
  for (const p of players.slice(0, 2)) {
    await p.post('/api/rooms', { config: {}, sit: { buy_in: 100 } });
    await p.post('/api/rooms', { config: { game: 'stud', listed: false } });
  }
  doc = (await h.client().get<OpenApiDocument>('/openapi.json')).body;

  // Sessions to log out: one sacrificial user each, made directly (a sign-up per request would be
  // most of the run's time).
  // Enough sessions for every logout request of both routes' share of the run to be signed in.
  const users = Array.from({ length: 2 * Math.ceil(TOTAL / 18) + BATCH }, () => ({
    id: randomUUID(),
    name: uniqueName('gone'),
  }));
  await h.db.prisma.user.createMany({
    data: users.map((u) => ({ id: u.id, name: u.name, nameKey: u.name.toLowerCase(), passwordHash: 'x' })),
  });
  const expiresAt = new Date(Date.now() + 3600_000);
  const sessions = users.map((u) => ({ id: randomUUID(), userId: u.id, expiresAt }));
  await h.db.prisma.session.createMany({ data: sessions });
  disposable = await Promise.all(
    sessions.map(
      async (s, i) =>
        `felt_session=${await signSessionToken(SECRET, {
          userId: s.userId,
          sessionId: s.id,
          name: users[i]!.name,
          expiresAt: Math.floor(expiresAt.getTime() / 1000),
        })}`,
    ),
  );
}, 120_000);

afterAll(async () => {
  await h.close();
});

function cookieFor(req: FuzzRequest): string | undefined {
  switch (req.auth.kind) {
    case 'player':
      return players[req.auth.index % players.length]!.cookie;
    case 'disposable': {
      const cookie = disposable.pop();
      if (cookie === undefined) throw new Error('out of disposable sessions');
      return cookie;
    }
    case 'cookie':
      return req.auth.value;
    case 'none':
      return undefined;
  }
}

interface Outcome {
  readonly status: number;
  readonly body: unknown;
  readonly contentType: string | null;
}

async function send(req: FuzzRequest): Promise<Outcome> {
  const cookie = cookieFor(req);
  const res = await h.lobby.app.request(
    req.url,
    {
      method: req.method,
      headers: { ...req.headers, ...(cookie !== undefined ? { cookie } : {}) },
      ...(req.body !== undefined ? { body: req.body } : {}),
    },
    { incoming: { socket: { remoteAddress: req.address } } },
  );
  sent++;
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: judged below.
  }
  return { status: res.status, body, contentType: res.headers.get('content-type') };
}

function describeRequest(req: FuzzRequest): string {
  const body =
    req.body === undefined
      ? '(none)'
      : typeof req.body === 'string'
        ? req.body.slice(0, 300)
        : `bytes ${Buffer.from(req.body).toString('hex').slice(0, 200)}`;
  return `${req.method} ${req.url.slice(0, 300)} auth=${req.auth.kind} from ${req.address} headers=${JSON.stringify(req.headers)} body=${body}`;
}

/** Why this outcome breaks the contract, or null. */
function violation(out: Outcome): string | null {
  if (out.status >= 500) return `status ${out.status}`;
  if (out.status < 400) return null;
  if (!out.contentType?.startsWith('application/json')) return `a ${out.status} that is not JSON`;
  const parsed = lobbyErrorSchema.safeParse(out.body);
  if (!parsed.success) return `a ${out.status} not in the documented error shape`;
  return null;
}

describe('HTTP fuzzing of every documented lobby route', () => {
  it(
    `${TOTAL}+ generated requests: no 500, every refusal typed, the room list still answers`,
    { timeout: 400_000 },
    async () => {
      const routes = routesOf(doc);
      // Every route the API documents is fuzzed, so a new route is covered without touching this test.
      expect(routes.length).toBeGreaterThanOrEqual(18);
      expect(disposable.length).toBeGreaterThanOrEqual(2 * Math.ceil(TOTAL / routes.length));
      const known = {
        roomIds: (await h.db.prisma.room.findMany({ select: { id: true } })).map((r) => r.id),
        codes: (await h.db.prisma.room.findMany({ select: { code: true } })).map((r) => r.code),
        names: players.map((p) => p.name),
      };
      const gen = new RequestGenerator(doc, known);
      const perRoute = Math.ceil(TOTAL / routes.length);
      const statuses = new Map<string, Map<number, number>>();

      for (const [i, route] of routes.entries()) {
        const started = performance.now();
        const seen = new Map<number, number>();
        statuses.set(`${route.method} ${route.path}`, seen);
        await fc.assert(
          fc.asyncProperty(fc.array(gen.request(route), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
            const outcomes = await Promise.all(batch.map(send));
            outcomes.forEach((out, j) => {
              seen.set(out.status, (seen.get(out.status) ?? 0) + 1);
              const why = violation(out);
              if (why) {
                throw new Error(`${why}: ${describeRequest(batch[j]!)} → ${JSON.stringify(out.body).slice(0, 300)}`);
              }
            });
          }),
          // A failure names its request; shrinking a batch of real requests would only repeat them.
          { numRuns: Math.ceil(perRoute / BATCH), seed: 1300 + i, endOnFailure: true },
        );
        seen.set(-1, Math.round(performance.now() - started));
      }

      expect(sent).toBeGreaterThanOrEqual(TOTAL);
      const list = await players[2]!.get<{ rooms: unknown[] }>('/api/rooms');
      expect(list.status).toBe(200);
      // The run reached past validation: every route answered something other than 400 at least once.
      for (const [route, seen] of statuses) {
        const beyond = [...seen.keys()].filter((s) => s !== 400 && s !== -1);
        expect(beyond.length, `${route} only ever answered 400: ${JSON.stringify([...seen])}`).toBeGreaterThan(0);
      }
      summary(statuses, routes);
    },
  );
});

function summary(statuses: Map<string, Map<number, number>>, routes: Route[]): void {
  const lines = [...statuses].map(
    ([route, seen]) =>
      `${route}: ${[...seen]
        .filter(([s]) => s !== -1)
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')} in ${seen.get(-1)} ms`,
  );
  // The per-route table (status × count, and time) when FELT_FUZZ_VERBOSE=1; one line otherwise.
  const detail = process.env.FELT_FUZZ_VERBOSE === '1' ? `\n${lines.join('\n')}` : '';
  console.info(`FUZZ requests=${sent} routes=${routes.length}${detail}`);
}
