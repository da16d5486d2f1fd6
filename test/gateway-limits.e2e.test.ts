// Invariant 11 of docs/architecture.md at the gateway, whose limits were once per socket only: its caps
// on open sockets per account and per client address (close 4029), the payload limit enforced by uWS
// before a frame is buffered, and the cap on tables per socket (`limit_reached`), through real
// gateways, a worker and the lobby.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, TEST_ORIGIN, type GatewayHandle } from './harness/cluster.js';
import { LobbyClient, type SignedUpUser } from './harness/lobby-client.js';
import { metricValue, RawSocket, type RawConnectOptions, type ServerMsg } from './harness/raw-socket.js';
import { sessionCookie } from './harness/session.js';

/** The gateway's close code for the socket caps (services/gateway/src/close-codes.ts). */
const TOO_MANY_SOCKETS = 4029;
const MAX_PAYLOAD = 16384;

let cluster: Cluster;
let lobby: LobbyClient;
/** Small caps: 3 sockets per account, 8 per address, 2 tables per socket. */
let capped: GatewayHandle;
/** Behind one trusted proxy (GATEWAY_TRUST_PROXY=1), 2 sockets per address. */
let proxied: GatewayHandle;
/** Every limit at its default. */
let plain: GatewayHandle;
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

  it('answers a frame at the limit, closes with 1009 past it, and past twice the limit uWS drops the connection unread', async () => {
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

    for (const size of [MAX_PAYLOAD + 1, 2 * MAX_PAYLOAD]) {
      const s = await kept(plain, { cookie });
      s.send(frameOf(size));
      expect((await s.closed).code, `${size} bytes`).toBe(1009);
    }
    expect(await oversized()).toBe(before.oversized + 2);

    // Past uWS's maxPayloadLength the frame's header is enough: the connection is dropped without
    // a close frame (1006 at the client), and the frame never reaches the gateway's handler.
    for (const size of [2 * MAX_PAYLOAD + 1, 3 * MAX_PAYLOAD, 4 * 1024 * 1024]) {
      const s = await kept(plain, { cookie });
      s.send(frameOf(size));
      expect((await s.closed).code, `${size} bytes`).toBe(1006);
    }
    expect(await unread()).toBe(before.unread + 3);
    expect(await oversized()).toBe(before.oversized + 2);
    // Fragments count together: a message sent in small fragments is refused the same way.
    const fragmented = await kept(plain, { cookie });
    const chunk = Buffer.from('x'.repeat(4096));
    for (let i = 0; i < 12; i++) fragmented.ws.send(chunk, { binary: false, fin: false });
    fragmented.ws.send(chunk, { binary: false, fin: true });
    expect((await fragmented.closed).code).toBe(1006);
    expect(await unread()).toBe(before.unread + 4);
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
