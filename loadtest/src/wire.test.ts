import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// Test-only: the runner and the k6 bundles carry their own copy of the few shapes they use (k6 can't
// load zod), and this checks that copy against the protocol's schemas.
import fc from 'fast-check';
import {
  LOBBY_ROUTES,
  SESSION_COOKIE as CONTRACT_SESSION_COOKIE,
  clientConfigSchema,
  createRoomSchema,
  createdRoomSchema,
  credentialsSchema,
  joinByCodeSchema,
  parseClientFrame,
  parseRoomConfig,
  pongSchema,
  serverMessageSchema,
  topUpRequestSchema,
  type ValidActionsView,
} from '@felt/protocol';
import {
  LOAD_BUY_IN,
  LobbyRoute,
  SESSION_COOKIE,
  ServerType,
  actionFrame,
  createRoomBody,
  gatewayUrls,
  heroView,
  joinByCodeBody,
  joinTableFrame,
  loadDecision,
  messageHead,
  pingFrame,
  roomRef,
  sessionCookie,
  sitInFrame,
  topUpPath,
  type Credentials,
} from './wire.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Every message each player of the protocol's recorded fixtures received (real traffic of five games). */
function recordedPlayerMessages(): { game: string; messages: Record<string, unknown>[] }[] {
  const dir = join(repoRoot, 'packages/protocol/fixtures');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      const fixture = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
        game: string;
        recipients: { role: string; messages: Record<string, unknown>[] }[];
      };
      return {
        game: fixture.game,
        messages: fixture.recipients.filter((r) => r.role === 'player').flatMap((r) => r.messages),
      };
    });
}

/** Whether `d` is one of the moves `valid` allows, amounts in range. */
function allowed(valid: ValidActionsView, d: ReturnType<typeof loadDecision>): boolean {
  const inRange = (r: ValidActionsView['bet']): boolean =>
    r !== null &&
    d.amount !== undefined &&
    d.amount >= r.min &&
    d.amount <= r.max &&
    (r.choices?.includes(d.amount) ?? true);
  switch (d.action) {
    case 'fold':
      return valid.fold;
    case 'check':
      return valid.check;
    case 'call':
      return valid.call !== null;
    case 'bet':
      return inRange(valid.bet);
    case 'raise':
      return inRange(valid.raise);
    case 'all_in':
      return valid.all_in !== null;
    case 'bring_in':
      return valid.bring_in !== null;
    case 'complete':
      return inRange(valid.complete);
    case 'discard':
      return valid.discard !== null && (d.cards?.length ?? 0) <= valid.discard.max;
  }
}

describe('wire shapes', () => {
  it('sends frames the gateway accepts', () => {
    const join = joinTableFrame('0b9c5a3e-2f6d-4c1e-9a57-3c1f0e7d2b10', 'join-1');
    expect(parseClientFrame(JSON.stringify(join))).toEqual({ ok: true, frame: join });
    const ping = pingFrame('7-3');
    expect(parseClientFrame(JSON.stringify(ping))).toEqual({ ok: true, frame: ping });
  });

  it('plays with action and sit_in frames the gateway accepts', () => {
    const turn = {
      tableId: '0b9c5a3e-2f6d-4c1e-9a57-3c1f0e7d2b10',
      handId: '5d0c8f0e-8c4b-4b8e-9d6e-2a1f3c4b5d6e',
      turnToken: 'tok_0123456789abcdef',
    };
    for (const decision of [
      { action: 'raise', amount: 12 },
      { action: 'check' },
      { action: 'discard', cards: [] },
    ] as const) {
      const frame = actionFrame(turn, decision, 'act-1-0-3');
      expect(parseClientFrame(JSON.stringify(frame))).toEqual({ ok: true, frame });
    }
    const sitIn = sitInFrame(turn.tableId, 'sit-1-0-4');
    expect(parseClientFrame(JSON.stringify(sitIn))).toEqual({ ok: true, frame: sitIn });
  });

  it('reads the hero, its turn and the stream fields from recorded traffic as the protocol defines them', () => {
    let states = 0;
    let turns = 0;
    for (const { messages } of recordedPlayerMessages()) {
      for (const raw of messages) {
        const message = serverMessageSchema.parse(raw);
        const head = messageHead(raw);
        expect(head?.type).toBe(message.type);
        if ('table_seq' in message) expect(head?.table_seq).toBe(message.table_seq);
        if (message.type === 'ack') expect(head?.at_table_seq).toBe(message.at_table_seq);
        if (message.type !== 'table_state') {
          expect(heroView(raw)).toBeUndefined();
          continue;
        }
        states++;
        const hero = heroView(raw);
        const seat = message.seats.find((s) => s.seat === message.hero?.seat);
        if (!message.hero || !seat) {
          expect(hero).toBeUndefined();
          continue;
        }
        expect(hero).toMatchObject({ seat: seat.seat, stack: seat.stack, status: seat.status, inHand: seat.in_hand });
        if (message.hero.turn_token === undefined) {
          expect(hero?.turn).toBeUndefined();
        } else {
          turns++;
          expect(hero?.turn).toEqual({
            handId: message.hand_id,
            turnToken: message.hero.turn_token,
            valid: message.hero.valid_actions,
          });
        }
      }
    }
    expect(states).toBeGreaterThan(100);
    expect(turns).toBeGreaterThan(20);
  });

  it('decides only what valid_actions allows, in every game of the recorded traffic', () => {
    const turns: ValidActionsView[] = [];
    for (const { messages } of recordedPlayerMessages()) {
      for (const raw of messages) {
        const message = serverMessageSchema.parse(raw);
        if (message.type === 'table_state' && message.hero?.valid_actions) turns.push(message.hero.valid_actions);
      }
    }
    expect(turns.some((v) => v.discard !== null)).toBe(true);
    expect(turns.some((v) => v.bring_in !== null)).toBe(true);
    fc.assert(
      fc.property(fc.constantFrom(...turns), fc.double({ min: 0, max: 0.999_999, noNaN: true }), (valid, r) =>
        allowed(
          valid,
          loadDecision(valid, () => r),
        ),
      ),
      { seed: 15, numRuns: 2000 },
    );
  });

  it('reacts only to server message types the protocol defines', () => {
    const defined = serverMessageSchema.options.map((o) => o.shape.type.value as string);
    for (const t of Object.values(ServerType)) expect(defined).toContain(t);
  });

  it('reads the fields it needs from a schema-valid pong and error', () => {
    const pong = pongSchema.parse({ type: 'pong', nonce: '1-2', ts: 1 });
    expect(messageHead(pong)).toEqual({ type: 'pong', nonce: '1-2' });
    expect(messageHead({ type: 'error', code: 'not_member', message: 'x', table_id: 't1' })).toEqual({
      type: 'error',
      code: 'not_member',
      table_id: 't1',
    });
    expect(messageHead('pong')).toBeUndefined();
    expect(messageHead({ kind: 'pong' })).toBeUndefined();
  });

  it('uses the session cookie of the lobby’s contract, as docs/dev/contracts.md names it', () => {
    expect(SESSION_COOKIE).toBe(CONTRACT_SESSION_COOKIE);
    const contracts = readFileSync(join(repoRoot, 'docs/dev/contracts.md'), 'utf8');
    const section = contracts.slice(contracts.indexOf('## Session cookie'));
    expect(/`([a-z_]+)`/.exec(section)?.[1]).toBe(SESSION_COOKIE);
    expect(sessionCookie(['other=1; Path=/', `${SESSION_COOKIE}=abc.def; HttpOnly; SameSite=Lax; Path=/`])).toBe(
      `${SESSION_COOKIE}=abc.def`,
    );
    expect(sessionCookie([`${SESSION_COOKIE}=; Max-Age=0`])).toBeUndefined();
    expect(sessionCookie([])).toBeUndefined();
  });

  it('reads session_id and code from a room response', () => {
    expect(roomRef({ session_id: 'r1', code: '123456', seats: 6 })).toEqual({ sessionId: 'r1', code: '123456' });
    expect(roomRef({ session_id: 'r1' })).toBeUndefined();
    expect(roomRef(null)).toBeUndefined();
  });

  it('creates unlisted rooms whose config the protocol accepts, with the load buy-in inside its range', () => {
    for (const seats of [2, 6, 10]) {
      const body = createRoomBody(seats) as { config: unknown; sit: { buy_in: number } };
      const config = parseRoomConfig(body.config);
      expect(config.seats).toBe(seats);
      expect(config.listed).toBe(false);
      expect(body.sit.buy_in).toBe(LOAD_BUY_IN);
      expect(LOAD_BUY_IN).toBeGreaterThanOrEqual(config.buyIn.min);
      expect(LOAD_BUY_IN).toBeLessThanOrEqual(config.buyIn.max);
    }
    expect(() => parseRoomConfig((createRoomBody(11) as { config: unknown }).config)).toThrow();
    expect(createRoomBody(6, false)).not.toHaveProperty('sit');
    expect(joinByCodeBody('042817')).toEqual({ code: '042817', buy_in: LOAD_BUY_IN });
  });

  it('calls only the lobby’s routes, with bodies its contract accepts', () => {
    // The calls the k6 scripts make (loadtest/k6/lib/lobby.ts), as the contract keys its routes.
    const calls = [
      `GET ${LobbyRoute.CONFIG}`,
      `POST ${LobbyRoute.SIGNUP}`,
      `POST ${LobbyRoute.LOGIN}`,
      `POST ${LobbyRoute.ROOMS}`,
      `POST ${LobbyRoute.JOIN_BY_CODE}`,
      `DELETE ${LobbyRoute.ROOMS}/{id}`,
      `POST ${decodeURIComponent(topUpPath('{id}'))}`,
    ];
    for (const call of calls) expect(Object.keys(LOBBY_ROUTES)).toContain(call);
    for (const seats of [2, 6, 10]) {
      expect(createRoomSchema.safeParse(createRoomBody(seats)).success).toBe(true);
      expect(createRoomSchema.safeParse(createRoomBody(seats, false)).success).toBe(true);
    }
    expect(joinByCodeSchema.parse(joinByCodeBody('042817'))).toEqual(joinByCodeBody('042817'));
    const credentials: Credentials = { name: 'load_1', password: 'password-1' };
    expect(credentialsSchema.parse(credentials)).toEqual(credentials);
    expect(topUpRequestSchema.safeParse({ amount: LOAD_BUY_IN }).success).toBe(true);
  });

  it('reads the fields it needs from answers the contract describes', () => {
    const config = clientConfigSchema.parse({ gateway_urls: ['ws://127.0.0.1:8081/ws'] });
    expect(gatewayUrls(config)).toEqual(config.gateway_urls);
    const room = {
      session_id: '0b9c5a3e-2f6d-4c1e-9a57-3c1f0e7d2b10',
      code: '042817',
      status: 'open',
      game: 'holdem',
      limit: 'nl',
      stakes: '1/2',
      seats: 6,
      players: 1,
      buy_in: { min: LOAD_BUY_IN, max: 2 * LOAD_BUY_IN },
      listed: false,
      practice: false,
      host_id: '5d0c8f0e-8c4b-4b8e-9d6e-2a1f3c4b5d6e',
      created_at: '2026-01-01T00:00:00.000Z',
      waitlist: 0,
    };
    const created = createdRoomSchema.parse({
      session_id: room.session_id,
      code: room.code,
      room: { ...room, config: {}, members: [] },
      seat: null,
    });
    expect(roomRef(created)).toEqual({ sessionId: room.session_id, code: room.code });
  });

  it('reads gateway URLs from the lobby config response', () => {
    expect(gatewayUrls({ gateway_urls: ['ws://a:8081/ws', 'wss://b/ws'] })).toEqual(['ws://a:8081/ws', 'wss://b/ws']);
    expect(gatewayUrls({ gateway_urls: ['http://a/ws', 7] })).toBeUndefined();
    expect(gatewayUrls({ gateway_urls: [] })).toBeUndefined();
    expect(gatewayUrls({})).toBeUndefined();
  });
});
