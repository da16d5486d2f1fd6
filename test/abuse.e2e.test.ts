// The table side of the abuse suite (invariants 9 to 11 of docs/architecture.md), through a real
// cluster (gateway, worker, lobby in worker mode, persister): a host who closes the room rather than
// call loses what the hand says; a player who farms bot-fill rooms gets no chip the house did not stake
// and is stopped by the bankroll's daily limit; a spectator who floods a table bloats nothing and a
// crowd of spectators is capped. Each ends with the ledger audit clean and every chip accounted for.
// The lobby's attacks are in lobby-abuse.e2e.test.ts, the socket flood in gateway-limits.e2e.test.ts,
// and the fuzzers in ws-fuzz.e2e.test.ts and the lobby's http-fuzz test.
import { randomUUID } from 'node:crypto';
import { bankrollFlows, ledgerTotals } from '@felt/db';
import { redisKeys } from '@felt/platform';
import type { TableState } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, TEST_BANKROLL, TEST_ORIGIN } from './harness/cluster.js';
import { LobbyClient, type SignedUpUser } from './harness/lobby-client.js';
import { auditCluster, waitPersisted } from './harness/money.js';
import { passivePlay, TableClient } from './harness/table-client.js';
import { waitFor } from './harness/wait.js';
import { TestSocket } from './harness/ws-client.js';

const DAILY_BANKROLL = 1_500;

let cluster: Cluster;
let lobby: LobbyClient;
const open: TableClient[] = [];

beforeAll(async () => {
  cluster = await Cluster.start({
    gateways: 1,
    workers: 1,
    lobby: true,
    persister: true,
    env: {
      FELT_HAND_PAUSE_MS: '200',
      FELT_SEED_WINDOW_MS: '300',
      FELT_ACTION_MS: '1500',
      FELT_TIME_BANK_MS: '0',
      FELT_WARNING_MS: '500',
      FELT_BOT_THINK_MS: '50',
      FELT_CASH_OUT_MODE: 'worker',
      FELT_CLOSE_SWEEP_MS: '500',
      FELT_BOT_BANKROLL_DAILY_MAX: String(DAILY_BANKROLL),
      WORKER_MAX_SPECTATORS: '3',
      // The spectator flood below must reach the worker: the gateway's per-socket rate limit is tested
      // on its own (gateway-limits.e2e.test.ts).
      GATEWAY_RATE_PER_SEC: '2000',
      GATEWAY_RATE_BURST: '2000',
      FELT_REVOCATION_CHECK_MS: '300',
    },
  });
  lobby = new LobbyClient(cluster.lobby!.url);
});

afterAll(async () => {
  for (const c of open) c.close();
  await cluster?.stop();
});

const signUp = (): Promise<SignedUpUser> => lobby.signUp(`ab-${randomUUID().slice(0, 8)}`);

async function connect(user: SignedUpUser, tableId: string, options = {}): Promise<TableClient> {
  const c = await TableClient.join(cluster.gateways[0]!.wsUrl, user.cookie, tableId, user.userId, options);
  open.push(c);
  return c;
}

async function expectCleanAudit(roomIds: string[]): Promise<void> {
  await waitPersisted(cluster, cluster.db.prisma, roomIds, 40_000);
  const audit = await auditCluster(cluster, cluster.db.prisma);
  expect(audit.report.issues).toEqual([]);
  expect(audit.sum).toBe(0n);
  expect(audit.held).toBe(audit.granted);
}

describe('hostile players at the table', () => {
  it('a host facing a bet who closes the room does not void the hand: it plays out, the host loses the blind', async () => {
    const [host, raiser] = await Promise.all([signUp(), signUp()]);
    const room = await lobby.createRoom(host, { startHand: { autoStart: false } });
    await lobby.joinByCode(raiser, room.code);
    const h = await connect(host, room.sessionId);
    const r = await connect(raiser, room.sessionId);
    h.command({ type: 'start_hand' });
    const handId = await h.until(() => h.state?.phase === 'betting' && h.state.hand_id, 15_000, 'the deal');
    // Whoever acts first: the raiser raises when it is their turn, and the host then faces a bet.
    await r.until(() => r.state?.hero?.turn_token || h.state?.hero?.turn_token, 10_000, 'a turn');
    if (h.state?.hero?.turn_token) {
      h.command({ type: 'action', hand_id: handId, turn_token: h.state.hero.turn_token, action: 'call' });
    }
    const turn = await r.until(() => r.state?.hero?.valid_actions?.raise && r.state.hero, 10_000, 'the raise');
    r.command({
      type: 'action',
      hand_id: handId,
      turn_token: turn.turn_token,
      action: 'raise',
      amount: turn.valid_actions!.raise!.min,
    });
    await h.until(() => h.state?.hero?.turn_token, 10_000, 'the host facing the raise');
    expect(await lobby.closeRoom(host, room.sessionId)).toBe('closing');
    await h.until(() => h.state?.closing === true, 10_000, 'the closing notice');
    // The host does nothing: the clock folds them; the hand ends with a result, never a void.
    await h.until(() => h.received.some((m) => m.type === 'table_closed'), 30_000, 'table_closed');
    expect(h.received.some((m) => m.type === 'hand_voided')).toBe(false);
    const result = h.received.find((m) => m.type === 'hand_result' && m.hand_id === handId);
    expect(result).toBeDefined();
    await waitFor(
      'the room closed',
      async () => (await cluster.db.prisma.room.findUnique({ where: { id: room.sessionId } }))?.status === 'closed',
      30_000,
      100,
    );
    const played = await cluster.db.prisma.handPlayer.findMany({ where: { handId } });
    const hostRow = played.find((p) => p.userId === host.userId)!;
    expect(hostRow.net).toBeLessThan(0n);
    const refund = await cluster.db.prisma.cashOut.findFirstOrThrow({
      where: { roomId: room.sessionId, userId: host.userId },
    });
    expect(refund.paidAmount).toBe(hostRow.finalStack);
    await expectCleanAudit([room.sessionId]);
  });

  it('farming bot-fill rooms: every bot chip is the bankroll’s, and its daily limit stops the bots', async () => {
    const farmer = await signUp();
    const grantedBefore = (await ledgerTotals(cluster.db.prisma)).granted;
    const rooms: string[] = [];
    let blocked: TableState | undefined;
    // Each bot buys in for the room's maximum (200 here): the 1,500 a day lets the bankroll stake 7.
    for (let i = 0; i < 10 && blocked === undefined; i++) {
      const room = await lobby.createRoom(farmer, { seats: 4, botFill: { mode: 'fill', targetPlayers: 3 } });
      rooms.push(room.sessionId);
      const c = await connect(farmer, room.sessionId, { decide: passivePlay });
      await c.until(
        () => (c.state?.seats.filter((s) => s.bot).length ?? 0) >= 2 || c.state?.bots_blocked !== undefined,
        20_000,
        'bots or a refusal',
      );
      if (c.state?.bots_blocked !== undefined) blocked = c.state;
      c.close();
      expect(await lobby.closeRoom(farmer, room.sessionId)).toBe('closing');
    }
    expect(blocked?.bots_blocked).toBe('daily_limit');
    const flows = (await bankrollFlows(cluster.db.prisma)).report;
    expect(flows.stakedToday).toBeLessThanOrEqual(BigInt(DAILY_BANKROLL));
    // No chip was granted for a bot: the grant source moved by nothing since (the farmer signed up before).
    expect((await ledgerTotals(cluster.db.prisma)).granted).toBe(grantedBefore);
    await waitFor(
      'every farmed room closed and refunded',
      async () =>
        (await cluster.db.prisma.room.count({ where: { id: { in: rooms }, status: { not: 'closed' } } })) === 0,
      40_000,
      200,
    );
    const after = (await bankrollFlows(cluster.db.prisma)).report;
    expect(after.balance).toBe(TEST_BANKROLL - after.staked + after.returned);
    await expectCleanAudit(rooms);
  });

  it('a spectator’s flood of refused frames grows no checkpoint; a crowd of spectators stops at the limit', async () => {
    const [host, guest] = await Promise.all([signUp(), signUp()]);
    const room = await lobby.createRoom(host, { startHand: { autoStart: false } });
    await lobby.joinByCode(guest, room.code);
    const h = await connect(host, room.sessionId);
    await connect(guest, room.sessionId);
    const spies = await Promise.all([signUp(), signUp(), signUp(), signUp()]);
    const spy = await connect(spies[0], room.sessionId, { spectate: true });
    const checkpoint = async () =>
      (await cluster.redis.get(redisKeys(cluster.prefix).tableCheckpoint(room.sessionId))) ?? '';
    const before = (await checkpoint()).length;
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) ids.push(spy.command({ type: 'sit_in' }));
    // Every frame is refused, then a barrier: the host's ack comes after the worker handled them all.
    await spy.until(() => spy.errors.length >= 200, 20_000, `the refusals (${spy.errors.length} so far)`);
    expect(new Set(spy.errors.map((e) => e.code))).toEqual(new Set(['not_seated']));
    const barrier = h.command({ type: 'sit_out' });
    expect(await h.answer(barrier)).toMatchObject({ type: 'ack' });
    const after = await checkpoint();
    const state = (JSON.parse(after) as { state: { commands: Record<string, unknown> } }).state;
    expect(Object.keys(state.commands)).not.toContain(spies[0].userId);
    expect(after).not.toContain(`"${ids.at(-1)!}"`);
    expect(after.length).toBeLessThan(before + 2_000);
    // Three spectators fit, the fourth is refused with limit_reached.
    await connect(spies[1], room.sessionId, { spectate: true });
    await connect(spies[2], room.sessionId, { spectate: true });
    await expect(connect(spies[3], room.sessionId, { spectate: true })).rejects.toThrow(/limit_reached/);
    await expectCleanAudit([room.sessionId]);
  });

  it('a logged-out cookie never opens a socket again, even after Redis lost every revocation key', async () => {
    const user = await signUp();
    const url = cluster.gateways[0]!.wsUrl;
    const opts = { cookie: user.cookie, origin: TEST_ORIGIN };
    (await TestSocket.connect(url, opts)).close();
    await lobby.logout(user);
    expect(await TestSocket.refusal(url, opts)).toBe(401);
    // Redis loses its data (a failover to a replica that lagged): every revocation key is gone.
    const keys = await cluster.redis.keys(`${cluster.prefix}{revocations}:*`);
    expect(keys.length).toBeGreaterThan(0);
    await cluster.redis.del(...keys);
    // Whatever the gateway answers meanwhile, it never lets the cookie in: 503 until a lobby has
    // reloaded the list from Postgres, 401 after.
    await waitFor(
      'the lobby to reload the revocations from Postgres',
      async () => {
        const status = await TestSocket.refusal(url, opts);
        expect([401, 503]).toContain(status);
        return status === 401;
      },
      15_000,
      100,
    );
  });
});
