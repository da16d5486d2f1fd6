// The lobby answers as @felt/protocol's HTTP contract (lobby-api.ts) says. Every route the served
// OpenAPI document lists is called here until it succeeds, and every success answer must parse with
// the contract's schema for that route and status, with nothing left over. A route added to the app
// without a contract entry and a call here fails this suite.
import {
  createTournament,
  newTournament,
  openTournamentAddOn,
  openTournamentTables,
  persistVoidedHand,
  seatTournamentEntry,
  startTournament,
} from '@felt/db';
import { SeededRng } from '@felt/engine';
import { SESSION_COOKIE as PLATFORM_SESSION_COOKIE } from '@felt/platform';
import { LOBBY_ROUTES, parseTournamentConfig, SESSION_COOKIE, type LobbyRouteKey } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { directSink } from '../../../test/money/fixtures.js';
import { SimTable, type HandJob } from '../../../test/money/sim-table.js';
import { componentName } from '../src/schemas.js';
import { startHarness, uniqueName, type Client, type Harness, type Response } from './harness.js';

type User = Client & { id: string; name: string };

const ROUTES = LOBBY_ROUTES;
type RouteKey = LobbyRouteKey;

interface DocOperation {
  readonly security?: readonly unknown[];
  readonly requestBody?: { readonly content?: Readonly<Record<string, { readonly schema?: { $ref?: string } }>> };
  readonly responses: Readonly<
    Record<string, { readonly content?: Readonly<Record<string, { readonly schema?: { $ref?: string } }>> }>
  >;
}
interface Doc {
  readonly paths: Readonly<Record<string, Readonly<Record<string, DocOperation>>>>;
  readonly components: { readonly schemas: Readonly<Record<string, unknown>> };
}

const ROOM = {
  game: 'holdem',
  stakes: { smallBlind: 1, bigBlind: 2 },
  seats: 6,
  buyIn: { min: 40, max: 400 },
} as const;

let h: Harness;
let doc: Doc;
let host: User;
let guest: User;
let roomId: string;
let code: string;
let hands: HandJob[];
const voidedHandId = '0f0e0d0c-0b0a-4909-8807-0605040302aa';

/** A fresh user hosting a fresh room, seated; for the routes that end a seat or a room. */
async function freshRoom(): Promise<{ user: User; roomId: string }> {
  const user = await h.user();
  const res = await user.post<{ session_id: string }>('/api/rooms', { config: ROOM, sit: { buy_in: 100 } });
  expect(res.status).toBe(201);
  return { user, roomId: res.body.session_id };
}

/** A fresh heads-up room with both seats taken, and a user waiting for a seat there. */
async function fullRoomWithWaiter(): Promise<{ waiter: User; roomId: string }> {
  const user = await h.user();
  const res = await user.post<{ session_id: string; code: string }>('/api/rooms', {
    config: { ...ROOM, seats: 2 },
    sit: { buy_in: 100 },
  });
  expect(res.status).toBe(201);
  expect((await (await h.user()).post('/api/rooms/join', { code: res.body.code, buy_in: 100 })).status).toBe(200);
  const waiter = await h.user();
  expect((await waiter.post(`/api/rooms/${res.body.session_id}/waitlist`)).status).toBe(200);
  return { waiter, roomId: res.body.session_id };
}

/** A sit-and-go of six an operator created (npm run tournaments -- create). */
async function sitAndGo(): Promise<string> {
  const config = parseTournamentConfig({ name: 'Contract SNG', format: 'sit_and_go', seats: 6, buyIn: 100, fee: 10 });
  const { id } = await createTournament(h.db.prisma, newTournament(config, null));
  return id;
}

/** How each route is made to succeed (a route may answer several times: every answer is checked). */
const CALLS: Record<RouteKey, () => Promise<Response<unknown>[]>> = {
  'GET /api/config': async () => [await h.client().get('/api/config')],
  'POST /api/auth/signup': async () => [
    await h.client().post('/api/auth/signup', { name: uniqueName('c'), password: 'password-1' }),
  ],
  'POST /api/auth/login': async () => {
    const user = await h.user();
    return [await h.client().post('/api/auth/login', { name: user.name, password: 'password-1' })];
  },
  'POST /api/auth/logout': async () => [await (await h.user()).post('/api/auth/logout')],
  'POST /api/auth/logout-all': async () => [await (await h.user()).post('/api/auth/logout-all')],
  'GET /api/me': async () => [await host.get('/api/me'), await (await h.user()).get('/api/me')],
  'PATCH /api/me': async () => {
    const user = await h.user();
    return [
      await user.req('PATCH', '/api/me', { locale: 'zh-CN' }),
      await user.req('PATCH', '/api/me', { locale: null }),
    ];
  },
  'POST /api/rooms': async () => {
    const seated = await h.user();
    const unseated = await h.user();
    return [
      await seated.post('/api/rooms', { config: ROOM, sit: { buy_in: 100 } }, { 'idempotency-key': 'contract-1' }),
      await unseated.post('/api/rooms', {}),
    ];
  },
  'GET /api/rooms': async () => [await host.get('/api/rooms'), await host.get('/api/rooms?game=stud&page_size=5')],
  'POST /api/rooms/join': async () => [await (await h.user()).post('/api/rooms/join', { code, buy_in: 100 })],
  'POST /api/rooms/quick-join': async () => [await (await h.user()).post('/api/rooms/quick-join', { game: 'holdem' })],
  'GET /api/rooms/{id}': async () => [await host.get(`/api/rooms/${roomId}`)],
  'POST /api/rooms/{id}/leave': async () => {
    const { user, roomId: id } = await freshRoom();
    return [await user.post(`/api/rooms/${id}/leave`)];
  },
  'POST /api/rooms/{id}/top-up': async () => {
    const { user, roomId: id } = await freshRoom();
    return [await user.post(`/api/rooms/${id}/top-up`, { amount: 10 }, { 'idempotency-key': 'contract-top-up' })];
  },
  'PATCH /api/rooms/{id}/chat': async () => {
    const { user, roomId: id } = await freshRoom();
    return [
      await user.req('PATCH', `/api/rooms/${id}/chat`, { enabled: false }),
      await user.req('PATCH', `/api/rooms/${id}/chat`, { enabled: true, spectators: true }),
    ];
  },
  'DELETE /api/rooms/{id}': async () => {
    const { user, roomId: id } = await freshRoom();
    return [await user.req('DELETE', `/api/rooms/${id}`)];
  },
  'POST /api/rooms/{id}/waitlist': async () => {
    const { waiter, roomId: id } = await fullRoomWithWaiter();
    return [await waiter.post(`/api/rooms/${id}/waitlist`), await (await h.user()).post(`/api/rooms/${id}/waitlist`)];
  },
  'DELETE /api/rooms/{id}/waitlist': async () => {
    const { waiter, roomId: id } = await fullRoomWithWaiter();
    return [
      await waiter.req('DELETE', `/api/rooms/${id}/waitlist`),
      await waiter.req('DELETE', `/api/rooms/${id}/waitlist`),
    ];
  },
  'GET /api/waitlists': async () => {
    const { waiter } = await fullRoomWithWaiter();
    return [await waiter.get('/api/waitlists'), await host.get('/api/waitlists')];
  },
  'GET /api/hands': async () => [await host.get('/api/hands'), await host.get('/api/hands?page_size=1')],
  'GET /api/hands/{id}': async () => [
    ...(await Promise.all(hands.map((j) => host.get(`/api/hands/${j.hand_id}`)))),
    await host.get(`/api/hands/${voidedHandId}`),
  ],
  'GET /api/hands/{id}/reveal': async () => [await host.get(`/api/hands/${hands[0]!.hand_id}/reveal`)],
  'GET /api/hands/{id}/ohh': async () => [await host.get(`/api/hands/${hands[0]!.hand_id}/ohh`)],
  'GET /api/hands/{id}/phh': async () => [await host.get(`/api/hands/${hands[0]!.hand_id}/phh`)],
  'GET /api/tournaments': async () => {
    await sitAndGo();
    return [await host.get('/api/tournaments'), await host.get('/api/tournaments?status=finished&page_size=3')];
  },
  'GET /api/tournaments/{id}': async () => {
    const id = await sitAndGo();
    const user = await h.user();
    const empty = await user.get(`/api/tournaments/${id}`);
    await user.post(`/api/tournaments/${id}/register`);
    return [empty, await user.get(`/api/tournaments/${id}`)];
  },
  'POST /api/tournaments/{id}/register': async () => {
    const id = await sitAndGo();
    const user = await h.user();
    return [await user.post(`/api/tournaments/${id}/register`), await user.post(`/api/tournaments/${id}/register`)];
  },
  'DELETE /api/tournaments/{id}/register': async () => {
    const id = await sitAndGo();
    const user = await h.user();
    await user.post(`/api/tournaments/${id}/register`);
    return [await user.req('DELETE', `/api/tournaments/${id}/register`)];
  },
  'POST /api/tournaments/{id}/add-on': async () => {
    // A scheduled tournament with an add-on, running, its sale open, the user seated.
    const config = parseTournamentConfig({
      name: 'Contract add-on',
      format: 'scheduled',
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      buyIn: 100,
      fee: 10,
      addOn: { chips: 5_000, cost: 50 },
    });
    const { id } = await createTournament(h.db.prisma, newTournament(config, null));
    const [user, other] = [await h.user(), await h.user()];
    for (const u of [user, other]) await u.post(`/api/tournaments/${id}/register`);
    const { entries } = await startTournament(h.db.prisma, id);
    const [tableId] = await openTournamentTables(h.db.prisma, id, 1);
    for (const e of entries) await seatTournamentEntry(h.db.prisma, e.id, tableId!);
    await openTournamentAddOn(h.db.prisma, id, new Date(Date.now() + 600_000));
    return [await user.post(`/api/tournaments/${id}/add-on`), await user.post(`/api/tournaments/${id}/add-on`)];
  },
  'GET /api/wallet/history': async () => {
    const first = await host.get<{ next: string | null }>('/api/wallet/history?page_size=1');
    return [
      first,
      await host.get(`/api/wallet/history?cursor=${encodeURIComponent(first.body.next ?? '')}`),
      await (await h.user()).get('/api/wallet/history'),
    ];
  },
};

beforeAll(async () => {
  h = await startHarness();
  host = await h.user();
  guest = await h.user();
  const created = await host.post<{ session_id: string; code: string }>('/api/rooms', {
    config: ROOM,
    sit: { buy_in: 200 },
  });
  roomId = created.body.session_id;
  code = created.body.code;
  await guest.post('/api/rooms/join', { code, buy_in: 200 });
  const sink = directSink(h.db.prisma);
  const table = await SimTable.load(h.db.prisma, roomId, sink, new SeededRng('contract'));
  for (let i = 0; i < 4; i++) await table.playHand();
  hands = sink.hands;
  await persistVoidedHand(h.db.prisma, {
    kind: 'voided',
    hand_id: voidedHandId,
    room_id: roomId,
    reason: 'checkpoint_lost',
    voided_at: '2099-01-01T00:00:00.000Z',
    players: [
      { seat: 1, user_id: host.id, name: host.name, stack: 180 },
      { seat: 2, user_id: guest.id, name: guest.name, stack: 220 },
    ],
  });
  doc = (await h.client().get<Doc>('/openapi.json')).body;
});

afterAll(async () => {
  await h.close();
});

const routesOf = (d: Doc): string[] =>
  Object.entries(d.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));

const schemaRef = (name: string | undefined): string | undefined => name && `#/components/schemas/${name}`;

describe('the lobby’s HTTP contract', () => {
  it('answers every route that needs a session with 401 unauthenticated when there is none, never 500', async () => {
    // A route registered without its auth middleware would reach its handler with no caller (a 500).
    const anonymous = h.client();
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if ((op.security ?? []).length === 0) continue;
        const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        const res = await anonymous.req(method.toUpperCase(), url, ['post', 'patch'].includes(method) ? {} : undefined);
        expect(res.status, `${method.toUpperCase()} ${path}: ${JSON.stringify(res.body)}`).toBe(401);
        expect(res.body).toMatchObject({ error: { code: 'unauthenticated' } });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(25);
  });

  it('documents exactly the contract’s routes, each with the contract’s success statuses and schemas', () => {
    expect(routesOf(doc).sort()).toEqual(Object.keys(ROUTES).sort());
    for (const [key, contract] of Object.entries(ROUTES)) {
      const [method, path] = key.split(' ') as [string, string];
      const op = doc.paths[path]![method.toLowerCase()]!;
      const documented = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      expect(documented.sort(), key).toEqual(Object.keys(contract.success).sort());
      for (const [status, schema] of Object.entries(contract.success) as [string, z.ZodType | null][]) {
        const content = op.responses[status]!.content;
        if (schema === null) {
          expect(content, key).toBeUndefined();
          continue;
        }
        const media = Object.values(content ?? {})[0]?.schema;
        expect(media, key).toBeDefined();
        // A named component is the contract's own schema; an inline one is checked by the calls below.
        const name = componentName(schema);
        if (name !== undefined) expect(media!.$ref, key).toBe(schemaRef(name));
      }
      if ('body' in contract) {
        const body = op.requestBody?.content?.['application/json']?.schema;
        expect(body?.$ref, key).toBe(schemaRef(componentName(contract.body)));
      }
    }
  });

  it('names its components as before the schemas moved to @felt/protocol', () => {
    expect(Object.keys(doc.components.schemas).sort()).toEqual(
      [
        'ClientConfig',
        'Closed',
        'CreateRoom',
        'CreatedRoom',
        'Credentials',
        'Error',
        'HandDetail',
        'HandSummary',
        'HistoryPage',
        'Joined',
        'JoinByCode',
        'Left',
        'LoggedOutEverywhere',
        'Me',
        'QuickJoin',
        'Reveal',
        'RoomChatRequest',
        'RoomConfig',
        'RoomDetail',
        'RoomList',
        'RoomSummary',
        'Seat',
        'SeatRequest',
        'Session',
        'SignedUp',
        'TopUp',
        'TopUpRequest',
        'TournamentAddOn',
        'TournamentDetail',
        'TournamentEntry',
        'TournamentList',
        'TournamentSummary',
        'TournamentUnregistered',
        'UpdateMe',
        'User',
        'WaitlistEntry',
        'Waitlists',
        'WalletEntry',
        'WalletHistoryPage',
      ].sort(),
    );
  });

  it('answers every documented route as the contract says', async () => {
    for (const key of routesOf(doc)) {
      const contract = ROUTES[key as RouteKey] as (typeof ROUTES)[RouteKey] | undefined;
      const call = CALLS[key as RouteKey] as (typeof CALLS)[RouteKey] | undefined;
      expect(contract, `${key} has no entry in @felt/protocol LOBBY_ROUTES`).toBeDefined();
      expect(call, `${key} is not called by this suite`).toBeDefined();
      const answers = await call!();
      expect(answers.length).toBeGreaterThan(0);
      for (const res of answers) {
        const success = contract!.success as Readonly<Record<number, z.ZodType | null>>;
        expect(Object.keys(success), `${key} answered ${res.status}: ${JSON.stringify(res.body)}`).toContain(
          String(res.status),
        );
        const schema = success[res.status]!;
        if (schema === null) {
          expect(res.body, key).toBeNull();
          continue;
        }
        const parsed = schema.safeParse(res.body);
        if (!parsed.success) throw new Error(`${key} ${res.status}: ${parsed.error.message}`);
        // Parsing drops fields the contract does not name: equal means there were none.
        expect(parsed.data, key).toEqual(res.body);
      }
    }
  });

  it('sets the contract’s session cookie, the one the gateways read', async () => {
    expect(PLATFORM_SESSION_COOKIE).toBe(SESSION_COOKIE);
    const res = await h.client().post('/api/auth/signup', { name: uniqueName('k'), password: 'password-1' });
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^${SESSION_COOKIE}=[^;]+;`));
  });

  it('lists a voided hand with its reason and no result', async () => {
    const page = await host.get<{ hands: { hand_id: string; voided_reason?: string; net: number }[] }>(
      '/api/hands?page_size=1',
    );
    expect(page.body.hands[0]).toMatchObject({ hand_id: voidedHandId, voided_reason: 'checkpoint_lost', net: 0 });
  });
});
