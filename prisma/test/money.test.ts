import { SeededRng } from '@felt/engine';
import {
  CashOutConflictError,
  EscrowMismatchError,
  HandConflictError,
  HandNotReadyError,
  HandRecordInvalidError,
  accountBalance,
  createTestDatabase,
  escrowAccount,
  ledgerTotals,
  normalizeHandJob,
  persistHand,
  runAudit,
  claimRoomEpoch,
  persistHands,
  sealRoomRebuild,
  seatBot,
  StaleOwnerEpochError,
  BankrollRefusedError,
  bankrollFlows,
  fundHouseBankroll,
  HOUSE_BANKROLL,
  walletAccount,
  withTransaction,
  type TestDatabase,
} from '@felt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom, deliverCashOut, directSink, heldSink } from '../../test/money/fixtures.js';
import { SimTable, type HandJob } from '../../test/money/sim-table.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
type Rec = {
  settlement: { players: { net: number; finalStack: number; won: number }[]; rake: { amount: number } };
  reveal: { dealt: { index: number; card: string }[]; server_seed: string };
  hand: { operations: { type: string }[] };
};
const rec = (job: HandJob): Rec => job.payload as unknown as Rec;

async function escrows(roomId: string, userIds: readonly string[]): Promise<bigint[]> {
  return Promise.all(userIds.map((u) => accountBalance(db.prisma, escrowAccount(roomId, u))));
}

describe('a hand record (normalizeHandJob)', () => {
  it('accepts what the engine produced and refuses any money, card or seed that does not add up', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'n1', buyIn: 100 },
      { name: 'n2', buyIn: 150 },
      { name: 'n3', buyIn: 200 },
    ]);
    const sink = heldSink();
    const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('normalize'));
    for (let i = 0; i < 6; i++) await t.playHand();
    for (const job of sink.hands) {
      const hand = normalizeHandJob(job);
      expect(hand.players.reduce((a, p) => a + p.net, 0n) + hand.rake).toBe(0n);
      expect(hand.cards.map((c) => c.deckIndex)).toEqual(hand.cards.map((_, i) => i));
    }
    const job = sink.hands[0]!;
    const tampered: [string, (r: Rec) => void][] = [
      ['a net', (r) => (r.settlement.players[0]!.net += 1)],
      [
        'a final stack and net',
        (r) => ((r.settlement.players[0]!.finalStack += 1), (r.settlement.players[0]!.net += 1)),
      ],
      ['the rake', (r) => (r.settlement.rake.amount += 1)],
      ['a dealt card', (r) => (r.reveal.dealt[0]!.card = r.reveal.dealt[0]!.card === 'As' ? 'Ks' : 'As')],
      ['the server seed', (r) => (r.reveal.server_seed = '00'.repeat(32))],
      ['the end of the log', (r) => r.hand.operations.pop()],
    ];
    for (const [what, change] of tampered) {
      const bad = clone(job);
      change(rec(bad));
      expect(() => normalizeHandJob(bad), what).toThrow(HandRecordInvalidError);
    }
    expect(() => normalizeHandJob({ ...job, room_id: 'nope' })).toThrow(HandRecordInvalidError);
  });
});

describe('persisting hands (persistHand)', () => {
  it('writes the hand, its players, actions, cards, pots and seeds, and moves nets and rake in the ledger', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'w1', buyIn: 100 },
      { name: 'w2', buyIn: 120 },
      { name: 'w3', buyIn: 140 },
    ]);
    const users = room.users.map((u) => u.id);
    const before = await escrows(room.roomId, users);
    const sink = heldSink();
    const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('persist'));
    await t.playHand();
    const job = sink.hands[0]!;
    const hand = normalizeHandJob(job);
    const out = await persistHand(db.prisma, hand);
    expect(out.result).toBe('written');

    const stored = await db.prisma.hand.findFirstOrThrow({
      where: { handId: job.hand_id },
      include: { players: true, actions: { orderBy: { seq: 'asc' } }, cards: true, pots: true },
    });
    expect(stored.handNo).toBe(1);
    expect(stored.players).toHaveLength(hand.players.length);
    expect(stored.actions.map((a) => a.type)).toEqual(
      (rec(job).hand.operations as { type: string }[]).map((o) => o.type),
    );
    expect(stored.cards).toHaveLength(rec(job).reveal.dealt.length);
    expect(stored.seedCommit).toMatch(/^sha256:/);
    expect(stored.serverSeed).toBe(rec(job).reveal.server_seed);
    expect(stored.rake).toBe(hand.rake);
    expect((await db.prisma.room.findUniqueOrThrow({ where: { id: room.roomId } })).lastHandNo).toBe(1);

    const after = await escrows(room.roomId, users);
    for (const [i, u] of users.entries()) {
      const p = hand.players.find((x) => x.userId === u);
      expect(after[i]).toBe(before[i]! + (p?.net ?? 0n));
    }
    expect(await accountBalance(db.prisma, { kind: 'house_rake' })).toBeGreaterThanOrEqual(hand.rake);

    // A replay changes nothing.
    const totals = await ledgerTotals(db.prisma);
    expect((await persistHand(db.prisma, normalizeHandJob(clone(job)))).result).toBe('duplicate');
    expect(await ledgerTotals(db.prisma)).toEqual(totals);
    expect(await escrows(room.roomId, users)).toEqual(after);
  });

  it('writes the hands of a room in order, refuses a second hand with the same number, and changes nothing on refusal', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'o1', buyIn: 200 },
      { name: 'o2', buyIn: 200 },
    ]);
    const sink = heldSink();
    const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('order'));
    for (let i = 0; i < 3; i++) await t.playHand();
    const [h1, h2, h3] = sink.hands.map((j) => normalizeHandJob(j));
    await expect(persistHand(db.prisma, h3!)).rejects.toBeInstanceOf(HandNotReadyError);
    await expect(persistHand(db.prisma, h2!)).rejects.toBeInstanceOf(HandNotReadyError);
    expect(await db.prisma.hand.count({ where: { roomId: room.roomId } })).toBe(0);
    await persistHand(db.prisma, h1!);
    await persistHand(db.prisma, h2!);
    await persistHand(db.prisma, h3!);

    const impostor = clone(sink.hands[2]!);
    impostor.hand_id = '11111111-1111-4111-8111-111111111111';
    (impostor.payload as { hand: { setup: { handId: string } } }).hand.setup.handId = impostor.hand_id;
    (impostor.payload as { settlement: { handId: string } }).settlement.handId = impostor.hand_id;
    (impostor.payload as { reveal: { hand_id: string } }).reveal.hand_id = impostor.hand_id;
    await expect(persistHand(db.prisma, normalizeHandJob(impostor))).rejects.toBeInstanceOf(HandConflictError);

    const moved = clone(sink.hands[0]!);
    moved.hand_no = 7;
    await expect(persistHand(db.prisma, normalizeHandJob(moved))).rejects.toBeInstanceOf(HandConflictError);
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });

  it('refuses a hand whose starting stacks the escrows do not hold, and writes nothing', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'm1', buyIn: 100 },
      { name: 'm2', buyIn: 100 },
    ]);
    const sink = heldSink();
    const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('mismatch'));
    await t.playHand();
    const job = clone(sink.hands[0]!);
    // The table claims one player sat down with 10 more chips than they bought in for.
    const r = job.payload as {
      hand: { setup: { players: { stack: number }[] }; operations: { type: string; stacks?: { stack: number }[] }[] };
      settlement: { players: { startingStack: number; finalStack: number }[] };
    };
    r.hand.setup.players[0]!.stack += 10;
    r.settlement.players[0]!.startingStack += 10;
    r.settlement.players[0]!.finalStack += 10;
    const end = r.hand.operations[r.hand.operations.length - 1]!;
    end.stacks![0]!.stack += 10;
    const totals = await ledgerTotals(db.prisma);
    await expect(persistHand(db.prisma, normalizeHandJob(job))).rejects.toBeInstanceOf(EscrowMismatchError);
    expect(await ledgerTotals(db.prisma)).toEqual(totals);
    expect(await db.prisma.hand.count({ where: { roomId: room.roomId } })).toBe(0);
  });

  it('refuses to change or delete persisted history, and the hand cursor only steps forward', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'i1', buyIn: 100 },
      { name: 'i2', buyIn: 100 },
    ]);
    const t = await SimTable.load(db.prisma, room.roomId, directSink(db.prisma), new SeededRng('immutable'));
    await t.playHand();
    await expect(
      db.prisma.$executeRaw`UPDATE "hands" SET "rake" = 0 WHERE "room_id" = ${room.roomId}::uuid`,
    ).rejects.toThrow(/immutable/);
    await expect(db.prisma.$executeRaw`DELETE FROM "hand_players"`).rejects.toThrow(/immutable/);
    await expect(
      db.prisma.$executeRaw`UPDATE "rooms" SET "last_hand_no" = 5 WHERE "id" = ${room.roomId}::uuid`,
    ).rejects.toThrow(/advance by one/);
    await expect(
      db.prisma.$executeRaw`UPDATE "rooms" SET "last_hand_no" = 2 WHERE "id" = ${room.roomId}::uuid`,
    ).rejects.toThrow(/not persisted/);
  });
});

describe('cash-outs (requestCashOut)', () => {
  it('waits for every earlier hand, then pays exactly the final stack; a replay pays nothing more', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'c1', buyIn: 100 },
      { name: 'c2', buyIn: 100 },
      { name: 'c3', buyIn: 100 },
    ]);
    const leaver = room.users[0]!;
    const sink = heldSink();
    const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('cash-out'));
    await t.playHand();
    await t.playHand();
    await db.prisma.membership.update({ where: { id: leaver.membershipId }, data: { leaveRequestedAt: new Date() } });
    await t.sync();
    const request = sink.cashOuts[0]!;
    expect(t.lastHandNo).toBe(2);
    expect(request).toMatchObject({ user_id: leaver.id, reason: 'leave', last_hand_no: 2 });

    const wallet = await accountBalance(db.prisma, walletAccount(leaver.id));
    // Hand 2 is not persisted yet: recorded, seat freed, nothing paid.
    await persistHand(db.prisma, normalizeHandJob(sink.hands[0]!));
    const early = await deliverCashOut(db.prisma, request);
    expect(early.status).toBe('pending');
    expect(await accountBalance(db.prisma, walletAccount(leaver.id))).toBe(wallet);
    expect((await db.prisma.membership.findUniqueOrThrow({ where: { id: leaver.membershipId } })).status).toBe('left');

    // Persisting hand 2 pays it in the same transaction.
    const written = await persistHand(db.prisma, normalizeHandJob(sink.hands[1]!));
    expect(written.cashOuts).toMatchObject([{ requestId: request.request_id, status: 'paid' }]);
    expect(await accountBalance(db.prisma, walletAccount(leaver.id))).toBe(wallet + BigInt(request.final_stack));
    expect(await accountBalance(db.prisma, escrowAccount(room.roomId, leaver.id))).toBe(0n);

    const again = await deliverCashOut(db.prisma, request);
    expect(again).toMatchObject({ status: 'paid', replayed: true });
    expect(await accountBalance(db.prisma, walletAccount(leaver.id))).toBe(wallet + BigInt(request.final_stack));
    await expect(
      deliverCashOut(db.prisma, { ...request, final_stack: request.final_stack + 1 }),
    ).rejects.toBeInstanceOf(CashOutConflictError);
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });

  it('pays nothing when the final stack does not reconcile, and flags it loudly', async () => {
    // A database of its own: the audit below must see this mismatch and nothing else's.
    const db = await createTestDatabase();
    const room = await createRoom(db.prisma, [
      { name: 'x1', buyIn: 100 },
      { name: 'x2', buyIn: 100 },
    ]);
    const [a] = room.users;
    const wallet = await accountBalance(db.prisma, walletAccount(a!.id));
    const out = await deliverCashOut(db.prisma, {
      request_id: `leave-${a!.membershipId}`,
      room_id: room.roomId,
      user_id: a!.id,
      reason: 'leave',
      last_hand_no: 0,
      final_stack: 150,
      top_ups_applied: [],
      requested_at: new Date().toISOString(),
    });
    expect(out).toMatchObject({ status: 'mismatch', escrow: 100n, paid: null });
    expect(await accountBalance(db.prisma, walletAccount(a!.id))).toBe(wallet);
    const audit = await runAudit(db.prisma);
    expect(audit.ok).toBe(false);
    expect(audit.issues.map((i) => i.code)).toEqual(['cash_out_mismatch']);
    // The seat was freed, but the player cannot sit down there again until an operator settles it.
    expect((await db.prisma.membership.findUniqueOrThrow({ where: { id: a!.membershipId } })).status).toBe('left');
    await db.drop();
  });
});

describe('top-ups', () => {
  it('count as escrow until the table adds them, never above the maximum (the excess goes home)', async () => {
    const room = await createRoom(db.prisma, [
      { name: 't1', buyIn: 150 },
      { name: 't2', buyIn: 100 },
    ]);
    const [a] = room.users;
    const { recordTopUp } = await import('@felt/db');
    await withTransaction(db.prisma, (tx) =>
      recordTopUp(tx, {
        roomId: room.roomId,
        userId: a!.id,
        membershipId: a!.membershipId,
        amount: 100n,
        idempotencyKey: `top-up:${a!.id}:1`,
        applyNow: false,
        lastHandNo: 0,
        now: new Date(),
      }),
    );
    const wallet = await accountBalance(db.prisma, walletAccount(a!.id));
    const sink = directSink(db.prisma);
    const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('top-up'));
    await t.playHand();
    const reported = (sink.hands[0]!.payload as { top_ups: { id: string; applied: number }[] }).top_ups;
    // Stack 150, room maximum 200: the table adds 50 and the other 50 go back.
    expect(reported).toEqual([{ id: expect.any(String), applied: 50 }]);
    const row = await db.prisma.topUp.findFirstOrThrow({ where: { userId: a!.id } });
    expect(row).toMatchObject({ status: 'applied', appliedAmount: 50n, appliedHandNo: 1 });
    expect(await accountBalance(db.prisma, walletAccount(a!.id))).toBe(wallet + 50n);
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });
});

describe('bots (seatBot)', () => {
  beforeAll(async () => {
    await fundHouseBankroll(db.prisma, 1_000_000n, 'bots-suite');
  });

  it('the house bankroll stakes them: no chip is granted, and what a bot cashes out goes back to it', async () => {
    const before = await ledgerTotals(db.prisma);
    const bankroll = (await bankrollFlows(db.prisma)).report;
    const room = await createRoom(db.prisma, [{ name: 'house', buyIn: 150 }]);
    const afterRoom = await ledgerTotals(db.prisma);
    const botId = '0b0b0b0b-0000-4000-8000-000000000031';
    const seated = await seatBot(db.prisma, { roomId: room.roomId, botId, seat: 3, buyIn: 200n });
    // The grant source paid only the human's sign-up (createRoom); the bot's 200 came from the bankroll.
    expect((await ledgerTotals(db.prisma)).granted).toBe(afterRoom.granted);
    expect(afterRoom.granted).toBeGreaterThanOrEqual(before.granted);
    expect(await accountBalance(db.prisma, HOUSE_BANKROLL)).toBe(bankroll.balance - 200n);
    expect(await accountBalance(db.prisma, walletAccount(botId))).toBe(0n);
    const sink = directSink(db.prisma);
    const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('bankroll'));
    for (let i = 0; i < 3; i++) await t.playHand();
    await db.prisma.membership.update({ where: { id: seated.membershipId }, data: { leaveRequestedAt: new Date() } });
    await t.sync();
    const cashedOut = sink.cashOuts.find((c) => c.user_id === botId)!;
    expect(cashedOut).toBeDefined();
    // The bot's wallet is empty again; the bankroll got back exactly what the bot left the table with.
    expect(await accountBalance(db.prisma, walletAccount(botId))).toBe(0n);
    const now = (await bankrollFlows(db.prisma)).report;
    expect(now.balance).toBe(bankroll.balance - 200n + BigInt(cashedOut.final_stack));
    expect(now.staked - bankroll.staked).toBe(200n);
    expect(now.returned - bankroll.returned).toBe(BigInt(cashedOut.final_stack));
    const audit = await runAudit(db.prisma);
    expect(audit.issues).toEqual([]);
    expect(audit.bankroll).toEqual(now);
  });

  it('an empty bankroll seats no bot; nor one past the room’s or the day’s limit; nothing is written', async () => {
    const room = await createRoom(db.prisma, [{ name: 'limits', buyIn: 150 }]);
    const snapshot = async () => ({
      totals: await ledgerTotals(db.prisma),
      members: await db.prisma.membership.count({ where: { roomId: room.roomId } }),
    });
    const bot = (n: number) => `0b0b0b0b-0000-4000-8000-0000000004${String(n).padStart(2, '0')}`;
    const balance = await accountBalance(db.prisma, HOUSE_BANKROLL);
    const before = await snapshot();
    // More than the bankroll holds.
    await expect(
      seatBot(db.prisma, { roomId: room.roomId, botId: bot(1), seat: 2, buyIn: balance + 1n }),
    ).rejects.toMatchObject({ code: 'bankroll_refused', reason: 'bankroll_empty' });
    expect(await snapshot()).toEqual(before);
    expect(await db.prisma.user.count({ where: { id: bot(1) } })).toBe(0);
    // The room limit counts every bot's escrow there, this buy-in included.
    await seatBot(db.prisma, { roomId: room.roomId, botId: bot(2), seat: 2, buyIn: 300n, limits: { perRoom: 500n } });
    const withOne = await snapshot();
    const overRoom = seatBot(db.prisma, {
      roomId: room.roomId,
      botId: bot(3),
      seat: 3,
      buyIn: 300n,
      limits: { perRoom: 500n },
    });
    await expect(overRoom).rejects.toBeInstanceOf(BankrollRefusedError);
    await expect(overRoom).rejects.toMatchObject({ reason: 'room_limit' });
    expect(await snapshot()).toEqual(withOne);
    // The daily limit counts the stakes of the last 24 hours, every room included.
    const staked = (await bankrollFlows(db.prisma)).report.stakedToday;
    await expect(
      seatBot(db.prisma, {
        roomId: room.roomId,
        botId: bot(4),
        seat: 3,
        buyIn: 100n,
        limits: { perDay: staked + 99n },
      }),
    ).rejects.toMatchObject({ reason: 'daily_limit' });
    await seatBot(db.prisma, {
      roomId: room.roomId,
      botId: bot(4),
      seat: 3,
      buyIn: 100n,
      limits: { perDay: staked + 100n },
    });
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });

  it('seat with real chips, play, and go home through a cash-out like players; the audit holds', async () => {
    const room = await createRoom(db.prisma, [{ name: 'human', buyIn: 150 }]);
    const botId = '0b0b0b0b-0000-4000-8000-000000000001';
    const first = await seatBot(db.prisma, { roomId: room.roomId, botId, seat: 4, buyIn: 120n });
    expect(await seatBot(db.prisma, { roomId: room.roomId, botId, seat: 4, buyIn: 120n })).toEqual(first);
    expect(await accountBalance(db.prisma, escrowAccount(room.roomId, botId))).toBe(120n);
    const sink = directSink(db.prisma);
    const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('bots'));
    for (let i = 0; i < 4; i++) await t.playHand();
    expect(sink.hands.length).toBeGreaterThan(0);
    await db.prisma.membership.update({ where: { id: first.membershipId }, data: { leaveRequestedAt: new Date() } });
    await t.sync();
    expect(sink.cashOuts.map((c) => c.user_id)).toEqual([botId]);
    expect(await accountBalance(db.prisma, escrowAccount(room.roomId, botId))).toBe(0n);
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });

  it('is fenced by the worker’s lease epoch: a lower one is refused and changes nothing, a higher one raises it', async () => {
    const room = await createRoom(db.prisma, [{ name: 'fenced', buyIn: 150 }]);
    const epochOf = async () =>
      (await db.prisma.room.findUniqueOrThrow({ where: { id: room.roomId }, select: { ownerEpoch: true } })).ownerEpoch;
    expect(await epochOf()).toBe(0n);
    const bot1 = '0b0b0b0b-0000-4000-8000-000000000011';
    await seatBot(db.prisma, { roomId: room.roomId, botId: bot1, seat: 2, buyIn: 100n, epoch: 7 });
    expect(await epochOf()).toBe(7n);
    // The same owner again, and an unfenced call, go through without moving it.
    await seatBot(db.prisma, { roomId: room.roomId, botId: bot1, seat: 2, buyIn: 100n, epoch: 7 });
    await seatBot(db.prisma, { roomId: room.roomId, botId: bot1, seat: 2, buyIn: 100n });
    expect(await epochOf()).toBe(7n);

    // An older owner (epoch 6) is refused and nothing changes: no user, membership, chips or epoch.
    const stale = '0b0b0b0b-0000-4000-8000-000000000012';
    const totals = await ledgerTotals(db.prisma);
    const members = await db.prisma.membership.count({ where: { roomId: room.roomId } });
    const refused = seatBot(db.prisma, { roomId: room.roomId, botId: stale, seat: 3, buyIn: 100n, epoch: 6 });
    await expect(refused).rejects.toBeInstanceOf(StaleOwnerEpochError);
    await expect(refused).rejects.toMatchObject({ code: 'stale_epoch', epoch: 6, current: 7 });
    expect(await db.prisma.user.count({ where: { id: stale } })).toBe(0);
    expect(await db.prisma.membership.count({ where: { roomId: room.roomId } })).toBe(members);
    expect(await ledgerTotals(db.prisma)).toEqual(totals);
    expect(await epochOf()).toBe(7n);
    // Even a bot it had seated itself: the old owner can no longer touch the room.
    await expect(
      seatBot(db.prisma, { roomId: room.roomId, botId: bot1, seat: 2, buyIn: 100n, epoch: 6 }),
    ).rejects.toBeInstanceOf(StaleOwnerEpochError);

    // A newer owner goes through and raises the epoch.
    await seatBot(db.prisma, { roomId: room.roomId, botId: stale, seat: 3, buyIn: 100n, epoch: 9 });
    expect(await epochOf()).toBe(9n);
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });

  it('a new owner claims the room for its epoch before it serves: the old owner is refused at once', async () => {
    const room = await createRoom(db.prisma, [{ name: 'claimed', buyIn: 150 }]);
    const epochOf = async () =>
      (await db.prisma.room.findUniqueOrThrow({ where: { id: room.roomId }, select: { ownerEpoch: true } })).ownerEpoch;
    await claimRoomEpoch(db.prisma, room.roomId, 3);
    expect(await epochOf()).toBe(3n);
    // The same epoch again (a reload under the same lease) changes nothing.
    await claimRoomEpoch(db.prisma, room.roomId, 3);
    expect(await epochOf()).toBe(3n);
    // The owner of epoch 2, which has not noticed it lost the table, can no longer seat a bot.
    const bot = '0b0b0b0b-0000-4000-8000-000000000021';
    await expect(
      seatBot(db.prisma, { roomId: room.roomId, botId: bot, seat: 2, buyIn: 100n, epoch: 2 }),
    ).rejects.toMatchObject({ code: 'stale_epoch', epoch: 2, current: 3 });
    expect(await db.prisma.user.count({ where: { id: bot } })).toBe(0);
    // Nor claim the room back.
    await expect(claimRoomEpoch(db.prisma, room.roomId, 2)).rejects.toBeInstanceOf(StaleOwnerEpochError);
    expect(await epochOf()).toBe(3n);
    // A fresh lease (just acquired) whose epoch the room already saw: Redis handed the epoch out
    // twice (it lost its counters), so two workers could write under it. Refused, changing nothing;
    // the next epoch up is claimed, and the claim says the table was served before.
    await expect(claimRoomEpoch(db.prisma, room.roomId, 3, { fresh: true })).rejects.toMatchObject({
      code: 'stale_epoch',
      epoch: 3,
      current: 3,
    });
    expect(await epochOf()).toBe(3n);
    expect(await claimRoomEpoch(db.prisma, room.roomId, 4, { fresh: true })).toBe(3);
    expect(await epochOf()).toBe(4n);
    // A room that does not exist is left alone.
    expect(await claimRoomEpoch(db.prisma, '0c0c0c0c-0000-4000-8000-000000000001', 5)).toBe(0);
  });
});

describe('a table rebuilt from the room rows (sealRoomRebuild)', () => {
  // Redis lost its data: the old owner's hand 2 (epoch 3) was still held by a persister when the
  // table was built again from the rows at hand 1 under epoch 4 and dealt its own hand 2 from them.
  it('refuses, as superseded, an older epoch’s hands past the hand the table went on from', async () => {
    const room = await createRoom(db.prisma, [
      { name: 'r1', buyIn: 200 },
      { name: 'r2', buyIn: 200 },
    ]);
    const users = room.users.map((u) => u.id);
    const oldSink = heldSink();
    const old = await SimTable.load(db.prisma, room.roomId, oldSink, new SeededRng('sealed-old'));
    for (let i = 0; i < 2; i++) await old.playHand();
    const [h1, h2] = oldSink.hands.map((j) => normalizeHandJob({ ...j, epoch: 3 }));
    await claimRoomEpoch(db.prisma, room.roomId, 3);
    expect(await persistHand(db.prisma, h1!)).toMatchObject({ result: 'written' });
    const sealOf = async () =>
      db.prisma.room.findUniqueOrThrow({
        where: { id: room.roomId },
        select: { rebuiltEpoch: true, rebuiltHandNo: true, lastHandNo: true },
      });

    await claimRoomEpoch(db.prisma, room.roomId, 4, { fresh: true });
    // Rows read before hand 1 landed: the seal is refused, changing nothing, and the table reads again.
    expect(await sealRoomRebuild(db.prisma, room.roomId, 4, 0)).toBe(false);
    expect(await sealOf()).toEqual({ rebuiltEpoch: 0n, rebuiltHandNo: 0, lastHandNo: 1 });
    // The old owner cannot seal (it is fenced like any write), the new one can.
    await expect(sealRoomRebuild(db.prisma, room.roomId, 3, 1)).rejects.toBeInstanceOf(StaleOwnerEpochError);
    expect(await sealRoomRebuild(db.prisma, room.roomId, 4, 1)).toBe(true);
    expect(await sealOf()).toEqual({ rebuiltEpoch: 4n, rebuiltHandNo: 1, lastHandNo: 1 });

    const before = await escrows(room.roomId, users);
    // The old hand 2 lands now: not written, no chip moves, nothing fails.
    expect(await persistHand(db.prisma, h2!)).toMatchObject({ result: 'superseded', handId: h2!.handId });
    expect(await db.prisma.hand.count({ where: { roomId: room.roomId } })).toBe(1);
    expect(await escrows(room.roomId, users)).toEqual(before);

    // The rebuilt table deals on from the rows: its hands 2 and 3 are written, in a batch too, and the
    // old hand 2 is still superseded beside them.
    const newSink = heldSink();
    const rebuilt = await SimTable.load(db.prisma, room.roomId, newSink, new SeededRng('sealed-new'));
    for (let i = 0; i < 2; i++) await rebuilt.playHand();
    const [n2, n3] = newSink.hands.map((j) => normalizeHandJob({ ...j, epoch: 4 }));
    expect(n2!.handNo).toBe(2);
    const outcomes = await persistHands(db.prisma, [h2!, n2!, n3!]);
    expect(outcomes.map((o) => (o.ok ? o.result.result : o.error))).toEqual(['superseded', 'written', 'written']);
    expect((await sealOf()).lastHandNo).toBe(3);
    expect(await persistHand(db.prisma, h2!)).toMatchObject({ result: 'superseded' });
    // A hand that names no epoch (an unfenced producer) is never superseded: hand 2 is taken.
    const { epoch: _unfenced, ...plain } = h2!;
    await expect(persistHand(db.prisma, plain)).rejects.toBeInstanceOf(HandConflictError);
    expect((await runAudit(db.prisma)).issues).toEqual([]);
  });
});
