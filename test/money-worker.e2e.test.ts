// The table worker's money side (docs/dev/money-flows.md) through the real cluster (gateways, workers,
// lobby in FELT_CASH_OUT_MODE=worker, persister): a leave over the WebSocket in the middle of a hand is
// paid at its end; a room deleted with a live hand lets the hand finish and refunds what it left; a
// top-up is added at the next hand boundary, capped at the room's maximum, and its excess goes home.
// After each, the audit (`npm run audit`'s checks, live stacks from the workers' checkpoints) is clean
// and no chip was made or lost.
import { randomUUID } from 'node:crypto';
import type { ValidActionsView } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './harness/cluster.js';
import { LobbyClient, type SignedUpUser } from './harness/lobby-client.js';
import { auditCluster, checkpointMoneyOf, waitPersisted } from './harness/money.js';
import { TableClient } from './harness/table-client.js';
import { waitFor } from './harness/wait.js';

const GRANT = 10_000n;

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
      FELT_MEMBER_TTL_MS: '15000',
      FELT_HAND_PAUSE_MS: '200',
      FELT_SEED_WINDOW_MS: '300',
      FELT_CASH_OUT_MODE: 'worker',
      FELT_CLOSE_SWEEP_MS: '500',
    },
  });
  lobby = new LobbyClient(cluster.lobby!.url);
});

afterAll(async () => {
  for (const c of open) c.close();
  await cluster?.stop();
});

/** A room whose clock never acts during a test: the test drives every decision. */
const MANUAL = {
  startHand: { autoStart: false },
  clock: { actionSeconds: 300, timeBankSeconds: 0, warningSeconds: 10 },
};

async function users(n: number): Promise<SignedUpUser[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => lobby.signUp(`m${i}-${randomUUID().slice(0, 8)}`)));
}

async function seatAll(config: Record<string, unknown>, players: SignedUpUser[]): Promise<string> {
  const room = await lobby.createRoom(players[0]!, config);
  for (const p of players.slice(1)) await lobby.joinByCode(p, room.code);
  return room.sessionId;
}

async function connect(user: SignedUpUser, tableId: string): Promise<TableClient> {
  const c = await TableClient.join(cluster.gateways[0]!.wsUrl, user.cookie, tableId, user.userId);
  open.push(c);
  return c;
}

type Policy = (v: ValidActionsView) => { action: string; amount?: number };
const checkOrCall: Policy = (v) => (v.check ? { action: 'check' } : { action: 'call' });
const checkOrFold: Policy = (v) => (v.check ? { action: 'check' } : { action: 'fold' });
const aggressive: Policy = (v) => {
  if (v.raise) return { action: 'raise', amount: v.raise.min };
  if (v.bet) return { action: 'bet', amount: v.bet.min };
  return checkOrCall(v);
};

/** Plays `handId` to its end: each client takes its policy's decision at each of its turns. */
async function drive(players: [TableClient, Policy][], handId: string): Promise<void> {
  const answered = new Set<string>();
  const [first] = players[0]!;
  await first.until(
    () => {
      for (const [c, policy] of players) {
        const s = c.state;
        const token = s?.hero?.turn_token;
        const valid = s?.hero?.valid_actions;
        if (s?.hand_id !== handId || !token || !valid || answered.has(token)) continue;
        answered.add(token);
        c.command({ type: 'action', hand_id: handId, turn_token: token, ...policy(valid) });
      }
      return first.received.some((m) => m.type === 'hand_result' && m.hand_id === handId);
    },
    20_000,
    `the end of hand ${handId.slice(0, 8)}`,
  );
}

async function startHand(host: TableClient): Promise<string> {
  const before = host.state?.hand_id;
  host.command({ type: 'start_hand' });
  return host.until(
    () => host.state?.phase === 'betting' && host.state.hand_id !== before && host.state.hand_id,
    15_000,
    'the deal',
  );
}

async function wallet(userId: string): Promise<bigint> {
  const a = await cluster.db.prisma.ledgerAccount.findFirst({ where: { kind: 'wallet', userId } });
  return a?.balance ?? 0n;
}

async function expectCleanAudit(roomIds: string[]): Promise<void> {
  await waitPersisted(cluster, cluster.db.prisma, roomIds);
  const audit = await auditCluster(cluster, cluster.db.prisma);
  expect(audit.report.issues).toEqual([]);
  expect(audit.report.ok).toBe(true);
  expect(audit.report.imbalance).toBe(0n);
  expect(audit.sum).toBe(0n);
  expect(audit.held).toBe(audit.granted);
}

describe('the table worker’s money side, end to end', () => {
  it('a leave over the WebSocket in the middle of a hand: folded at their turn, paid their final stack at the hand’s end', async () => {
    const [ann, bob, cat] = await users(3);
    const tableId = await seatAll(MANUAL, [ann!, bob!, cat!]);
    const a = await connect(ann!, tableId);
    const b = await connect(bob!, tableId);
    const c = await connect(cat!, tableId);
    const handId = await startHand(a);
    const clients = [a, b, c];
    const actor = await a.until(() => clients.find((x) => x.state?.hero?.turn_token), 10_000, 'a turn');
    // The player after the one to act leaves while not on turn.
    const leaver = clients[(clients.indexOf(actor) + 1) % 3]!;
    const id = leaver.command({ type: 'leave' });
    expect(await leaver.answer(id)).toMatchObject({ type: 'ack' });
    const membership = await cluster.db.prisma.membership.findFirstOrThrow({
      where: { roomId: tableId, userId: leaver.userId, status: 'active' },
    });
    // Nothing is paid while the hand runs.
    expect(await cluster.db.prisma.cashOut.count({ where: { roomId: tableId } })).toBe(0);
    await drive(
      clients.filter((x) => x !== leaver).map((x) => [x, checkOrCall] as [TableClient, Policy]),
      handId,
    );
    const paid = await waitFor(
      'the cash-out paid',
      async () => {
        const row = await cluster.db.prisma.cashOut.findUnique({ where: { requestId: `leave-${membership.id}` } });
        return row?.status === 'paid' ? row : undefined;
      },
      20_000,
      100,
    );
    const hand = await cluster.db.prisma.hand.findFirstOrThrow({ where: { handId } });
    const played = await cluster.db.prisma.handPlayer.findFirstOrThrow({ where: { handId, userId: leaver.userId } });
    expect(paid).toMatchObject({ reason: 'leave', lastHandNo: hand.handNo, finalStack: played.finalStack });
    expect(paid.paidAmount).toBe(played.finalStack);
    expect(await wallet(leaver.userId)).toBe(GRANT - 80n + played.finalStack);
    // The seat is free and the membership over; the leaver's own decisions were the clock's.
    const left = await cluster.db.prisma.membership.findUniqueOrThrow({ where: { id: membership.id } });
    expect(left.status).not.toBe('active');
    const leaverSeat = played.seat;
    const actions = await cluster.db.prisma.handAction.findMany({ where: { handId, seat: leaverSeat } });
    expect(
      actions.filter((x) => ['fold', 'check', 'call', 'bet', 'raise'].includes(x.type)).every((x) => x.timeout),
    ).toBe(true);
    await a.until(
      () => a.state?.seats.find((s) => s.seat === leaverSeat)?.status === 'empty',
      10_000,
      'the empty seat',
    );
    await expectCleanAudit([tableId]);
  });

  it('a room deleted with a live hand: the hand is never voided, it plays to its end and counts; then every seat gets its final stack and the room closes', async () => {
    const [ann, bob, cat] = await users(3);
    const tableId = await seatAll(MANUAL, [ann!, bob!, cat!]);
    const a = await connect(ann!, tableId);
    const b = await connect(bob!, tableId);
    const c = await connect(cat!, tableId);
    const handId = await startHand(a);
    // The first to act raises: blinds and a raise are in the pot.
    const clients = [a, b, c];
    const actor = await a.until(() => clients.find((x) => x.state?.hero?.turn_token), 10_000, 'a turn');
    const s = actor.state!;
    actor.command({
      type: 'action',
      hand_id: handId,
      turn_token: s.hero!.turn_token!,
      action: 'raise',
      amount: s.hero!.valid_actions!.raise!.min,
    });
    await a.until(() => (a.state?.pot_total ?? 0) >= 7 && a.state, 10_000, 'the raise');
    // The host closes the room rather than call: it cancels nothing.
    expect(await lobby.closeRoom(ann!, tableId)).toBe('closing');
    await drive(
      [
        [a, checkOrFold],
        [b, checkOrCall],
        [c, checkOrCall],
      ],
      handId,
    );
    for (const x of clients) {
      await x.until(() => x.received.some((m) => m.type === 'table_closed'), 20_000, 'table_closed');
      const types = x.received.map((m) => m.type);
      expect(types).not.toContain('hand_voided');
      expect(types.indexOf('hand_result')).toBeLessThan(types.indexOf('table_closed'));
    }
    await waitFor(
      'the room closed',
      async () => (await cluster.db.prisma.room.findUnique({ where: { id: tableId } }))?.status === 'closed',
      20_000,
      100,
    );
    // The hand counts: a numbered hands row with its result, and each refund is the stack it left.
    const hand = await cluster.db.prisma.hand.findFirstOrThrow({ where: { handId } });
    expect(hand).toMatchObject({ handNo: 1, voidedReason: null });
    const played = await cluster.db.prisma.handPlayer.findMany({ where: { handId } });
    const refunds = await cluster.db.prisma.cashOut.findMany({ where: { roomId: tableId } });
    expect(refunds).toHaveLength(3);
    let total = 0n;
    for (const r of refunds) {
      const p = played.find((x) => x.userId === r.userId)!;
      expect(r).toMatchObject({ reason: 'room_close', status: 'paid', lastHandNo: 1, finalStack: p.finalStack });
      expect(r.paidAmount).toBe(p.finalStack);
      expect(await wallet(r.userId)).toBe(GRANT - 80n + p.finalStack);
      total += p.finalStack;
    }
    expect(total).toBe(240n - hand.rake);
    await expectCleanAudit([tableId]);
  });

  it('a top-up is added at the next hand boundary, capped at the room’s maximum; the excess goes back to the wallet', async () => {
    const [ann, bob] = await users(2);
    const tableId = await seatAll(MANUAL, [ann!, bob!]);
    const a = await connect(ann!, tableId);
    const b = await connect(bob!, tableId);
    const policies: [TableClient, Policy][] = [
      [a, aggressive],
      [b, checkOrFold],
    ];
    const first = await startHand(a);
    // Paid in during the hand: the escrow allows 120 more (80 + 120 = the maximum, 200).
    const { topUpId, status } = await lobby.topUp(ann!, tableId, 120);
    expect(status).toBe('pending');
    const stackOf = (): number | undefined => a.state?.seats.find((x) => x.user_id === ann!.userId)?.stack;
    expect(stackOf()).toBeLessThanOrEqual(80);
    await drive(policies, first);
    // Ann won Bob's blind: above her buy-in, so the table adds only what brings her to 200.
    const result = a.received.find((m) => m.type === 'hand_result' && m.hand_id === first) as unknown as {
      players: { seat: number; stack: number }[];
    };
    const annSeat = a.state!.hero!.seat;
    const afterFirst = result.players.find((p) => p.seat === annSeat)!.stack;
    expect(afterFirst).toBeGreaterThan(80);
    const money = await waitFor('the checkpoint with the top-up', async () => {
      const m = await checkpointMoneyOf(cluster, tableId);
      const seat = m?.seats.find((x) => x.userId === ann!.userId);
      return seat && seat.appliedTopUps.length > 0 ? seat : undefined;
    });
    expect(money).toEqual({
      userId: ann!.userId,
      stack: 200,
      appliedTopUps: [{ id: topUpId, applied: 200 - afterFirst }],
    });
    const second = await startHand(a);
    // The next hand starts from the capped stack (less the blind Ann posts).
    expect(stackOf()! + (a.state!.seats.find((x) => x.user_id === ann!.userId)?.bet ?? 0)).toBe(200);
    await drive(policies, second);
    await waitPersisted(cluster, cluster.db.prisma, [tableId]);
    const row = await cluster.db.prisma.topUp.findUniqueOrThrow({ where: { id: topUpId } });
    expect(row).toMatchObject({ status: 'applied', appliedAmount: BigInt(200 - afterFirst), appliedHandNo: 2 });
    const record = await cluster.db.prisma.handPlayer.findFirstOrThrow({
      where: { handId: second, userId: ann!.userId },
    });
    expect(record.startingStack).toBe(200n);
    // 200 paid in, 200 - afterFirst added: the rest is back in the wallet.
    expect(await wallet(ann!.userId)).toBe(GRANT - 200n + BigInt(afterFirst - 80));
    await expectCleanAudit([tableId]);
    // Live stacks were compared with the escrows (the table is at the persisted cursor).
    expect((await auditCluster(cluster, cluster.db.prisma)).liveCompared).toBeGreaterThan(0);
  });
});
