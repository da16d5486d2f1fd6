// Invariant 11 of docs/architecture.md at the gateway, whose limits were once per socket only: its caps
// on open sockets per account and per client address (close 4029), the payload limit enforced by uWS
// before a frame is buffered (and the larger one of blind_shuffle frames alone), and the cap on tables
// per socket (`limit_reached`), through real gateways, a worker and the lobby.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, TEST_ORIGIN, type GatewayHandle } from './harness/cluster.js';
import { LobbyClient, type SignedUpUser } from './harness/lobby-client.js';
import { metricValue, RawSocket, type RawConnectOptions, type ServerMsg } from './harness/raw-socket.js';
import { sessionCookie } from './harness/session.js';

/** The gateway's close code for the socket caps (services/gateway/src/close-codes.ts). */
const TOO_MANY_SOCKETS = 4029;
const MAX_PAYLOAD = 16384;
/** GATEWAY_MAX_BLIND_PAYLOAD's default: also uWS's read limit at the defaults (it is over 2 × 16384). */
const MAX_BLIND_PAYLOAD = 163840;

let cluster: Cluster;
let lobby: LobbyClient;
/** Small caps: 3 sockets per account, 8 per address, 2 tables per socket. */
let capped: GatewayHandle;
/** Behind one trusted proxy (GATEWAY_TRUST_PROXY=1), 2 sockets per address. */
let proxied: GatewayHandle;
/** Every limit at its default. */
let plain: GatewayHandle;
/** GATEWAY_MAX_PAYLOAD 65536, GATEWAY_MAX_BLIND_PAYLOAD 110000: uWS reads up to 131072 bytes. */
let blindLimits: GatewayHandle;
const BLIND_LIMITS = { payload: 65_536, blind: 110_000 } as const;
const opened: RawSocket[] = [];

beforeAll(async () => {
  cluster = await Cluster.start({ gateways: 0, workers: 1, lobby: false });
  capped = await cluster.addGateway({
    GATEWAY_MAX_SOCKETS_PER_USER: '3',
    GATEWAY_MAX_SOCKETS_PER_ADDRESS: '8',
    GATEWAY_MAX_TABLES_PER_SOCKET: '2',
  });
  proxied = await cluster.addGateway({ GATEWAY_TRUST_PROXY: '1', GATEWAY_MAX_SOCKETS_PER_ADDRESS: '2' });
  plain = await cluster.addGateway();
  blindLimits = await cluster.addGateway({
    GATEWAY_MAX_PAYLOAD: String(BLIND_LIMITS.payload),
    GATEWAY_MAX_BLIND_PAYLOAD: String(BLIND_LIMITS.blind),
  });
  await cluster.startLobby();
  for (const g of cluster.gateways) await cluster.waitReady(g.httpUrl);
  lobby = new LobbyClient(cluster.lobby!.url);
});

afterAll(async () => {
  for (const s of opened) s.close();
  await cluster?.stop();
});

async function cookieFor(name = `u-${randomUUID().slice(0, 8)}`): Promise<string> {
  return sessionCookie(cluster.secret, { userId: randomUUID(), name });
}

async function open(gateway: GatewayHandle, options: RawConnectOptions): Promise<RawSocket> {
  const s = await RawSocket.connect(gateway.wsUrl, { origin: TEST_ORIGIN, ...options });
  opened.push(s);
  return s;
}

/** Opens a socket and asserts the gateway keeps it (it answers a ping). */
async function kept(gateway: GatewayHandle, options: RawConnectOptions): Promise<RawSocket> {
  const s = await open(gateway, options);
  expect(await s.probe(), 'the gateway keeps the socket').toEqual({ pong: true });
  return s;
}

/** Opens a socket and asserts the gateway closes it with 4029 (and answers nothing on it). */
async function refused(gateway: GatewayHandle, options: RawConnectOptions, reason: RegExp): Promise<void> {
  const s = await open(gateway, options);
  const outcome = await s.probe();
  expect(outcome, 'the gateway closes the socket at once').toMatchObject({ closed: { code: TOO_MANY_SOCKETS } });
  if ('closed' in outcome) expect(outcome.closed.reason).toMatch(reason);
  expect(s.messages).toEqual([]);
}

async function closeAll(sockets: RawSocket[]): Promise<void> {
  for (const s of sockets) s.close();
  // The gateway counted each out when it read the close frame, before it echoed the close.
  await Promise.all(sockets.map((s) => s.closed));
}

async function metrics(gateway: GatewayHandle): Promise<string> {
  return (await fetch(`${gateway.httpUrl}/metrics`)).text();
}

async function allHealthy(): Promise<void> {
  for (const p of cluster.processes()) expect(p.alive, `${p.name} is running`).toBe(true);
  for (const url of [...cluster.gateways.map((g) => g.httpUrl), ...cluster.workers.map((w) => w.httpUrl)]) {
    expect((await fetch(`${url}/healthz`)).status, `${url}/healthz`).toBe(200);
    expect((await fetch(`${url}/readyz`)).status, `${url}/readyz`).toBe(200);
  }
}

describe('open sockets per account', () => {
  it('closes the socket over the cap with 4029; the others keep working, and a freed slot is reusable', async () => {
    const cookie = await cookieFor();
    const first = [await kept(capped, { cookie }), await kept(capped, { cookie }), await kept(capped, { cookie })];
    await refused(capped, { cookie }, /account/);
    // Several at once: every one is refused, none slips through while the others upgrade.
    const burst = await Promise.all(Array.from({ length: 5 }, () => open(capped, { cookie })));
    for (const c of await Promise.all(burst.map((s) => s.closed))) expect(c.code).toBe(TOO_MANY_SOCKETS);
    for (const s of first) expect(await s.probe()).toEqual({ pong: true });
    // Another account from the same address is not affected.
    const other = await kept(capped, { cookie: await cookieFor() });

    await closeAll([first[0]!]);
    const again = await kept(capped, { cookie });
    await refused(capped, { cookie }, /account/);

    const text = await metrics(capped);
    expect(metricValue(text, 'felt_gateway_refusals_total', { reason: 'user_socket_limit' })).toBe(7);
    expect(metricValue(text, 'felt_gateway_server_closes_total', { code: '4029' })).toBe(7);
    expect(metricValue(text, 'felt_gateway_sockets')).toBe(4);
    await closeAll([...first, other, again]);
  });
});

describe('open sockets per client address', () => {
  it('closes the socket over the cap with 4029 whichever account opens it; X-Forwarded-For is ignored without a trusted proxy', async () => {
    const sockets: RawSocket[] = [];
    for (let i = 0; i < 8; i++) sockets.push(await kept(capped, { cookie: await cookieFor() }));
    await refused(capped, { cookie: await cookieFor() }, /address/);
    // A client cannot claim another address on a gateway that trusts no proxy.
    await refused(capped, { cookie: await cookieFor(), headers: { 'x-forwarded-for': '203.0.113.99' } }, /address/);
    expect(metricValue(await metrics(capped), 'felt_gateway_refusals_total', { reason: 'address_socket_limit' })).toBe(
      2,
    );
    await closeAll(sockets.slice(0, 1));
    sockets.push(await kept(capped, { cookie: await cookieFor() }));
    await closeAll(sockets);
  });

  it('behind a trusted proxy counts the address the proxy appended, not what the client wrote, and IPv6 per /64', async () => {
    const via = (xff: string): RawConnectOptions => ({ headers: { 'x-forwarded-for': xff } });
    const withCookie = async (options: RawConnectOptions): Promise<RawConnectOptions> => ({
      ...options,
      cookie: await cookieFor(),
    });
    const a = [
      await kept(proxied, await withCookie(via('203.0.113.7'))),
      await kept(proxied, await withCookie(via('203.0.113.7'))),
    ];
    await refused(proxied, await withCookie(via('203.0.113.7')), /address/);
    // The client wrote the first entry; the proxy appended the address it saw.
    await refused(proxied, await withCookie(via('198.51.100.200, 203.0.113.7')), /address/);
    // Other addresses have their own count; without the header the socket's own address counts.
    const b = await kept(proxied, await withCookie(via('7.7.7.7, 198.51.100.9')));
    const direct = await kept(proxied, await withCookie({}));
    const v6 = [
      await kept(proxied, await withCookie(via('2001:db8:1:2::1'))),
      await kept(proxied, await withCookie(via('[2001:db8:1:2::2]:443'))),
    ];
    await refused(proxied, await withCookie(via('2001:db8:1:2:ffff::3')), /address/);
    await kept(proxied, await withCookie(via('2001:db8:1:3::1')));
    await closeAll([...a, b, direct, ...v6]);
  });
});

describe('payload limit', () => {
  /** A JSON text of exactly `bytes` bytes that is a valid frame but for its size. */
  const frameOf = (bytes: number): string => {
    const head = '{"type":"ping","nonce":"';
    return `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
  };

  it("answers a frame at the limit, closes with 1009 past it, and past uWS's read limit drops the connection unread", async () => {
    const cookie = await cookieFor();
    const oversized = async () =>
      metricValue(await metrics(plain), 'felt_gateway_messages_in_total', { type: 'oversized' });
    const unread = async () =>
      metricValue(await metrics(plain), 'felt_gateway_messages_in_total', { type: 'oversized_unread' });
    const before = { oversized: await oversized(), unread: await unread() };

    const atLimit = await kept(plain, { cookie });
    atLimit.send(frameOf(MAX_PAYLOAD));
    // Read and parsed: the nonce is longer than 64 characters.
    expect(await atLimit.next((m) => m.type === 'error')).toMatchObject({ code: 'invalid_frame' });
    expect(await atLimit.probe()).toEqual({ pong: true });

    // uWS reads up to the larger of twice GATEWAY_MAX_PAYLOAD and GATEWAY_MAX_BLIND_PAYLOAD (so that
    // a blind_shuffle can be read whole); every other frame over GATEWAY_MAX_PAYLOAD closes with 1009.
    const read = [MAX_PAYLOAD + 1, 2 * MAX_PAYLOAD, 2 * MAX_PAYLOAD + 1, MAX_BLIND_PAYLOAD];
    for (const size of read) {
      const s = await kept(plain, { cookie });
      s.send(frameOf(size));
      expect((await s.closed).code, `${size} bytes`).toBe(1009);
    }
    expect(await oversized()).toBe(before.oversized + read.length);

    // Past uWS's maxPayloadLength the frame's header is enough: the connection is dropped without
    // a close frame (1006 at the client), and the frame never reaches the gateway's handler.
    for (const size of [MAX_BLIND_PAYLOAD + 1, 4 * 1024 * 1024]) {
      const s = await kept(plain, { cookie });
      s.send(frameOf(size));
      expect((await s.closed).code, `${size} bytes`).toBe(1006);
    }
    expect(await unread()).toBe(before.unread + 2);
    expect(await oversized()).toBe(before.oversized + read.length);
    // Fragments count together: a message sent in small fragments is refused the same way.
    const fragmented = await kept(plain, { cookie });
    const chunk = Buffer.from('x'.repeat(4096));
    const chunks = MAX_BLIND_PAYLOAD / chunk.length + 1;
    for (let i = 0; i < chunks - 1; i++) fragmented.ws.send(chunk, { binary: false, fin: false });
    fragmented.ws.send(chunk, { binary: false, fin: true });
    expect((await fragmented.closed).code).toBe(1006);
    expect(await unread()).toBe(before.unread + 3);
    await allHealthy();
  });
});

describe('engine-blind frames past the payload limit', () => {
  const HAND = '11111111-1111-4111-8111-111111111111';
  const hex = (n: number) => (n % 256).toString(16).padStart(2, '0').repeat(32);
  let host: SignedUpUser;
  let tableId: string;

  /** A blind_shuffle (schema-valid, not a valid proof) of at most `bytes` bytes, as close to it as openings allow. */
  function blindShuffle(bytes: number, commandId: string): string {
    const frame = (openings: number) =>
      JSON.stringify({
        type: 'blind_shuffle',
        table_id: tableId,
        hand_id: HAND,
        command_id: commandId,
        output: Array.from({ length: 52 }, (_, i) => ({ c1: hex(i), c2: hex(i + 1) })),
        proof: {
          openings: Array.from({ length: openings }, (_, k) =>
            k % 2 === 0
              ? { seed: hex(k) }
              : {
                  perm: Array.from({ length: 52 }, (_, j) => (j + k) % 52),
                  rand: Array.from({ length: 52 }, (_, j) => hex(j)),
                },
          ),
        },
      });
    let n = 1;
    while (n < 256 && frame(n + 1).length <= bytes) n++;
    return frame(n);
  }

  beforeAll(async () => {
    host = await lobby.signUp(`blind-${randomUUID().slice(0, 8)}`);
    tableId = (await lobby.createRoom(host, { startHand: { autoStart: false } })).sessionId;
  });

  async function joined(gateway: GatewayHandle): Promise<RawSocket> {
    const s = await kept(gateway, { cookie: host.cookie });
    s.send({ type: 'join_table', table_id: tableId });
    await s.next((m) => m.type === 'table_state' && m.table_id === tableId);
    return s;
  }

  it('forwards a ~100 KB blind_shuffle to the worker, which refuses it with not_engine_blind; a ~100 KB chat still closes 1009', async () => {
    const s = await joined(plain);
    const big = blindShuffle(100_000, 'shuffle-1');
    expect(big.length).toBeGreaterThan(90_000);
    expect(big.length).toBeLessThanOrEqual(100_000);
    s.send(big);
    expect(await s.next((m) => m.type === 'error' && m.command_id === 'shuffle-1')).toMatchObject({
      code: 'not_engine_blind',
      table_id: tableId,
    });
    // The other two frames, small, get the same answer.
    s.send({
      type: 'blind_key',
      table_id: tableId,
      hand_id: HAND,
      command_id: 'key-1',
      proof: { Y: hex(1), c: hex(2), s: hex(3) },
    });
    s.send({
      type: 'blind_shares',
      table_id: tableId,
      hand_id: HAND,
      command_id: 'shares-1',
      shares: [{ position: 0, D: hex(4), c: hex(5), s: hex(6) }],
    });
    for (const id of ['key-1', 'shares-1']) {
      expect(await s.next((m) => m.type === 'error' && m.command_id === id)).toMatchObject({
        code: 'not_engine_blind',
      });
    }
    // The same command again is answered the same (kept by its command_id), and the socket stays open.
    const from = s.messages.length;
    s.send(big);
    expect(await s.next((m) => m.type === 'error' && m.command_id === 'shuffle-1', 10_000, from)).toMatchObject({
      code: 'not_engine_blind',
    });
    expect(await s.probe()).toEqual({ pong: true });

    const chat = await joined(plain);
    chat.send({ type: 'chat', table_id: tableId, text: 'x'.repeat(100_000), command_id: 'chat-1' });
    expect((await chat.closed).code).toBe(1009);
    expect(chat.messages.some((m) => m.command_id === 'chat-1')).toBe(false);
    // Over GATEWAY_MAX_BLIND_PAYLOAD, which is uWS's read limit at the defaults: dropped unread.
    const over = await joined(plain);
    over.send(blindShuffle(MAX_BLIND_PAYLOAD + 20_000, 'shuffle-2'));
    expect((await over.closed).code).toBe(1006);
    await closeAll([s]);
    await allHealthy();
  });

  it('closes a blind_shuffle over GATEWAY_MAX_BLIND_PAYLOAD with 1009 where uWS reads it (twice GATEWAY_MAX_PAYLOAD is more)', async () => {
    const s = await joined(blindLimits);
    const fits = blindShuffle(BLIND_LIMITS.blind, 'fits');
    expect(fits.length).toBeGreaterThan(BLIND_LIMITS.payload);
    s.send(fits);
    expect(await s.next((m) => m.type === 'error' && m.command_id === 'fits')).toMatchObject({
      code: 'not_engine_blind',
    });
    const over = blindShuffle(2 * BLIND_LIMITS.payload, 'over');
    expect(over.length).toBeGreaterThan(BLIND_LIMITS.blind);
    s.send(over);
    expect((await s.closed).code).toBe(1009);
    expect(s.messages.some((m) => m.command_id === 'over')).toBe(false);
    await allHealthy();
  });
});

describe('tables per socket', () => {
  let host: SignedUpUser;
  let watcher: SignedUpUser;
  const tables: string[] = [];

  beforeAll(async () => {
    host = await lobby.signUp(`host-${randomUUID().slice(0, 8)}`);
    watcher = await lobby.signUp(`watch-${randomUUID().slice(0, 8)}`);
    for (let i = 0; i < 3; i++)
      tables.push((await lobby.createRoom(host, { startHand: { autoStart: false } })).sessionId);
  });

  const snapshotOf = (tableId: string) => (m: ServerMsg) => m.type === 'table_state' && m.table_id === tableId;
  const answerTo = (commandId: string) => (m: ServerMsg) => m.type === 'error' && m.command_id === commandId;

  it('refuses one join_table more than the cap with limit_reached, as a member or as a spectator', async () => {
    for (const [who, spectate] of [
      [host, false],
      [watcher, true],
    ] as const) {
      const s = await open(capped, { cookie: who.cookie });
      const join = (tableId: string, commandId: string) =>
        s.send({ type: 'join_table', table_id: tableId, command_id: commandId, ...(spectate ? { spectate } : {}) });
      join(tables[0]!, 'j0');
      await s.next(snapshotOf(tables[0]!));
      join(tables[1]!, 'j1');
      await s.next(snapshotOf(tables[1]!));
      join(tables[2]!, 'j2');
      expect(await s.next((m) => m.type === 'error' || snapshotOf(tables[2]!)(m))).toMatchObject({
        type: 'error',
        code: 'limit_reached',
        command_id: 'j2',
        table_id: tables[2],
      });
      // The cap is checked before any worker is asked: an id that names no table is refused the same way.
      const unknown = randomUUID();
      join(unknown, 'j3');
      expect(await s.next(answerTo('j3'))).toMatchObject({ code: 'limit_reached', table_id: unknown });
      // A table the socket is at does not count again.
      const from = s.messages.length;
      join(tables[1]!, 'j4');
      await s.next(snapshotOf(tables[1]!), 10_000, from);
      // Leaving one frees its place.
      s.send({ type: 'leave_table', table_id: tables[0] });
      join(tables[2]!, 'j5');
      await s.next(snapshotOf(tables[2]!));
      expect(await s.probe()).toEqual({ pong: true });
      expect(s.messages.filter((m) => m.type === 'error').map((m) => m.command_id)).toEqual(['j2', 'j3']);
      s.close();
      await s.closed;
    }
  });

  it('counts joins still in flight, and frees the place of a join the worker refused', async () => {
    const s = await open(capped, { cookie: host.cookie });
    for (const [i, t] of tables.entries()) s.send({ type: 'join_table', table_id: t, command_id: `b${i}` });
    expect(await s.next((m) => m.type === 'error' || snapshotOf(tables[2]!)(m))).toMatchObject({
      type: 'error',
      code: 'limit_reached',
      command_id: 'b2',
    });
    await s.next(snapshotOf(tables[0]!));
    await s.next(snapshotOf(tables[1]!));
    expect(await s.probe()).toEqual({ pong: true });
    expect(s.messages.some(snapshotOf(tables[2]!))).toBe(false);

    const t = await open(capped, { cookie: host.cookie });
    t.send({ type: 'join_table', table_id: randomUUID(), command_id: 'gone' });
    expect(await t.next(answerTo('gone'))).toMatchObject({ code: 'table_not_found' });
    t.send({ type: 'join_table', table_id: tables[0], command_id: 'k0' });
    t.send({ type: 'join_table', table_id: tables[1], command_id: 'k1' });
    await t.next(snapshotOf(tables[0]!));
    await t.next(snapshotOf(tables[1]!));
    expect(t.messages.filter((m) => m.type === 'error').map((m) => m.code)).toEqual(['table_not_found']);
    await closeAll([s, t]);
    await allHealthy();
  });
});
