import { SeededRng } from '@felt/engine';
import {
  EscrowMismatchError,
  HandNotReadyError,
  accountBalance,
  recordTopUp,
  walletAccount,
  withTransaction,
  createPgPool,
  createTestDatabase,
  ledgerTotals,
  normalizeHandJob,
  persistHand,
  persistHands,
  runAudit,
  type HandBatchOutcome,
  type NormalizedHand,
  type PersistHandsOptions,
  type PgPool,
  type TestDatabase,
} from '@felt/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom, heldSink } from '../../test/money/fixtures.js';
import { SimTable, type HandJob } from '../../test/money/sim-table.js';

/*
 * persistHands against the real Postgres, through Prisma and through a pg pool (the persister's
 * path): a batch gives each hand the outcome persistHand would, writes nothing twice, and one bad
 * hand never costs the others their write.
 */

let db: TestDatabase;
let pool: PgPool;

beforeAll(async () => {
  db = await createTestDatabase({ prefix: 'felt_batch' });
  pool = createPgPool(db.url, { max: 3 });
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** A room of `players` seated players and `hands` hand jobs its table played, none persisted yet. */
async function playedRoom(tag: string, hands: number, players = 3): Promise<{ roomId: string; jobs: HandJob[] }> {
  const room = await createRoom(
    db.prisma,
    Array.from({ length: players }, (_, i) => ({ name: `${tag}${i}`, buyIn: 150 + 20 * i })),
  );
  const sink = heldSink();
  const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng(`batch-${tag}`));
  for (let i = 0; i < hands; i++) {
    // Fixed seeds: a table whose players went broke this early would fail the same way every run.
    if (!(await t.playHand())) throw new Error(`room ${tag} could play only ${i} hands`);
  }
  return { roomId: room.roomId, jobs: sink.hands };
}

const hand = (job: HandJob): NormalizedHand => normalizeHandJob(clone(job));

function results(out: readonly HandBatchOutcome[]): string[] {
  return out.map((o) => (o.ok ? o.result.result : ((o.error as Error).constructor.name ?? 'error')));
}

async function cursor(roomId: string): Promise<number> {
  return (await db.prisma.room.findUniqueOrThrow({ where: { id: roomId }, select: { lastHandNo: true } })).lastHandNo;
}

async function audited(): Promise<void> {
  expect((await runAudit(db.prisma)).issues).toEqual([]);
  const t = await ledgerTotals(db.prisma);
  expect(t.wallets + t.escrow + t.rake + t.bankroll).toBe(t.granted);
  expect([t.unbalancedTransactions, t.driftedAccounts, t.negativeAccounts]).toEqual([0, 0, 0]);
}

const RUNNERS: readonly { name: string; options: () => PersistHandsOptions }[] = [
  { name: 'through Prisma', options: () => ({}) },
  { name: 'on a pg pool', options: () => ({ pool }) },
];

describe.each(RUNNERS)('persistHands $name', ({ name, options }) => {
  const tag = name === 'on a pg pool' ? 'g' : 'p';

  it('writes hands of several rooms, several per room, as persistHand would, in one go', async () => {
    const a = await playedRoom(`${tag}a`, 3);
    const b = await playedRoom(`${tag}b`, 2, 4);
    // Interleaved and backwards within a room, as jobs in flight may be.
    const batch = [a.jobs[2]!, b.jobs[1]!, a.jobs[0]!, b.jobs[0]!, a.jobs[1]!].map(hand);
    const out = await persistHands(db.prisma, batch, options());
    expect(results(out)).toEqual(['written', 'written', 'written', 'written', 'written']);
    expect(out.map((o) => o.hand.handId)).toEqual(batch.map((h) => h.handId));
    expect([await cursor(a.roomId), await cursor(b.roomId)]).toEqual([3, 2]);
    // Every row persistHand writes: players, the whole log, every dealt card, pots, ledger entries.
    for (const h of batch) {
      const row = await db.prisma.hand.findFirstOrThrow({
        where: { handId: h.handId },
        include: { players: { orderBy: { seat: 'asc' } }, actions: true, cards: true, pots: true },
      });
      expect(row.handNo).toBe(h.handNo);
      expect(row.players.map((p) => [p.seat, p.userId, p.finalStack])).toEqual(
        h.players.map((p) => [p.seat, p.userId, p.finalStack]),
      );
      expect(row.actions.length).toBe(h.actions.length);
      expect(row.cards.map((c) => c.card).sort()).toEqual(h.cards.map((c) => c.card).sort());
      expect(row.pots.length).toBe(h.pots.length);
      expect(row.board).toEqual([...h.board]);
      expect(JSON.parse(JSON.stringify(row.payload))).toEqual(h.payload);
      const entries = await db.prisma.ledgerEntry.findMany({
        where: { transaction: { handId: h.handId } },
        include: { account: { select: { key: true } } },
      });
      const moved = new Map<string, bigint>();
      for (const e of entries) moved.set(e.account.key, (moved.get(e.account.key) ?? 0n) + e.amount);
      for (const p of h.players) {
        expect(moved.get(`escrow:${h.roomId}:${p.userId}`) ?? 0n, `${h.handId} seat ${p.seat}`).toBe(p.net);
      }
      expect(moved.get('house_rake') ?? 0n).toBe(h.rake);
    }
    await audited();
  });

  it('applies the top-ups a hand reports, refunds their excess once, and checks the next hand against them', async () => {
    const room = await createRoom(db.prisma, [
      { name: `${tag}t1`, buyIn: 150 },
      { name: `${tag}t2`, buyIn: 100 },
      { name: `${tag}t3`, buyIn: 120 },
    ]);
    const a = room.users[0]!;
    await withTransaction(db.prisma, (tx) =>
      recordTopUp(tx, {
        roomId: room.roomId,
        userId: a.id,
        membershipId: a.membershipId,
        amount: 100n,
        idempotencyKey: `top-up:${a.id}:batch`,
        applyNow: false,
        lastHandNo: 0,
        now: new Date(),
      }),
    );
    const wallet = await accountBalance(db.prisma, walletAccount(a.id));
    const sink = heldSink();
    const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng(`batch-top-up-${tag}`));
    expect(await t.playHand()).toBe(true);
    expect(await t.playHand()).toBe(true);
    // Stack 150, room maximum 200: the table added 50 before hand 1, and 50 go back to the wallet.
    expect((sink.hands[0]!.payload as { top_ups: unknown[] }).top_ups).toEqual([
      { id: expect.any(String), applied: 50 },
    ]);
    const other = await playedRoom(`${tag}u`, 1);
    const out = await persistHands(
      db.prisma,
      [hand(sink.hands[1]!), hand(other.jobs[0]!), hand(sink.hands[0]!)],
      options(),
    );
    expect(results(out)).toEqual(['written', 'written', 'written']);
    const row = await db.prisma.topUp.findFirstOrThrow({ where: { userId: a.id, roomId: room.roomId } });
    expect(row).toMatchObject({ status: 'applied', appliedAmount: 50n, appliedHandNo: 1 });
    expect(await accountBalance(db.prisma, walletAccount(a.id))).toBe(wallet + 50n);
    // Replayed: nothing is applied or refunded again.
    const again = await persistHands(db.prisma, [hand(sink.hands[0]!), hand(sink.hands[1]!)], options());
    expect(results(again)).toEqual(['duplicate', 'duplicate']);
    expect(await accountBalance(db.prisma, walletAccount(a.id))).toBe(wallet + 50n);
    await audited();
  });

  it('a duplicate in a batch is a no-op, whether persisted before or twice in the batch', async () => {
    const a = await playedRoom(`${tag}d`, 2);
    await persistHand(db.prisma, hand(a.jobs[0]!));
    const totals = await ledgerTotals(db.prisma);
    const out = await persistHands(db.prisma, [hand(a.jobs[0]!), hand(a.jobs[1]!), hand(a.jobs[1]!)], options());
    expect(results(out)).toEqual(['duplicate', 'written', 'duplicate']);
    expect(await db.prisma.hand.count({ where: { roomId: a.roomId } })).toBe(2);
    expect(await cursor(a.roomId)).toBe(2);
    // Hand 2's moves only: the replays moved nothing.
    expect((await ledgerTotals(db.prisma)).transactions - totals.transactions).toBeLessThanOrEqual(2);
    await audited();
  });

  it('an out-of-order hand in a batch waits, and holds up nothing of another room', async () => {
    const a = await playedRoom(`${tag}o`, 3, 4);
    const b = await playedRoom(`${tag}q`, 1);
    const out = await persistHands(db.prisma, [hand(a.jobs[2]!), hand(b.jobs[0]!), hand(a.jobs[0]!)], options());
    expect(results(out)).toEqual(['HandNotReadyError', 'written', 'written']);
    const early = out[0]!;
    expect(!early.ok && early.error instanceof HandNotReadyError && early.error.lastHandNo).toBe(1);
    expect([await cursor(a.roomId), await cursor(b.roomId)]).toEqual([1, 1]);
    // Once the missing hand comes, both are written in order.
    const later = await persistHands(db.prisma, [hand(a.jobs[2]!), hand(a.jobs[1]!)], options());
    expect(results(later)).toEqual(['written', 'written']);
    expect(await cursor(a.roomId)).toBe(3);
    await audited();
  });

  it('a hand whose escrows do not hold its stacks is refused alone: other rooms are written, its room waits', async () => {
    const a = await playedRoom(`${tag}m`, 2);
    const b = await playedRoom(`${tag}n`, 1);
    // The table claims a player sat down with 10 more chips than they bought in for.
    const bad = clone(a.jobs[0]!);
    const r = bad.payload as {
      hand: { setup: { players: { seat: number; stack: number }[] }; operations: { stacks?: unknown }[] };
      settlement: { players: { seat: number; startingStack: number; finalStack: number }[] };
    };
    const seat = r.settlement.players[0]!.seat;
    r.hand.setup.players.find((p) => p.seat === seat)!.stack += 10;
    r.settlement.players[0]!.startingStack += 10;
    r.settlement.players[0]!.finalStack += 10;
    const end = r.hand.operations[r.hand.operations.length - 1]! as { stacks?: { seat: number; stack: number }[] };
    end.stacks!.find((s) => s.seat === seat)!.stack += 10;
    const out = await persistHands(db.prisma, [normalizeHandJob(bad), hand(b.jobs[0]!), hand(a.jobs[1]!)], options());
    expect(results(out)).toEqual(['EscrowMismatchError', 'written', 'HandNotReadyError']);
    expect(out[0]!.ok === false && out[0]!.error).toBeInstanceOf(EscrowMismatchError);
    expect([await cursor(a.roomId), await cursor(b.roomId)]).toEqual([0, 1]);
    expect(await db.prisma.hand.count({ where: { roomId: a.roomId } })).toBe(0);
    await audited();
  });

  it('a batch the database refuses midway is rolled back, and every other hand is written on its own, once', async () => {
    const a = await playedRoom(`${tag}f`, 1);
    const b = await playedRoom(`${tag}h`, 1);
    const c = await playedRoom(`${tag}k`, 2);
    const doomed = c.jobs[0]!.hand_id;
    // Postgres refuses one hand's cards, after the batch has inserted rows: no check in the batch
    // foresees it, as with any failure only the database sees.
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const fn = `felt_test_refuse_${tag}`;
      await admin.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.hand_id = '${doomed}' THEN RAISE EXCEPTION 'refused by the test' USING ERRCODE = 'XX001'; END IF;
          RETURN NEW;
        END $$`);
      await admin.query(`CREATE TRIGGER ${fn} BEFORE INSERT ON hand_cards FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
      const totals = await ledgerTotals(db.prisma);
      const out = await persistHands(
        db.prisma,
        [hand(a.jobs[0]!), hand(c.jobs[0]!), hand(b.jobs[0]!), hand(c.jobs[1]!)],
        options(),
      );
      const [okA, failed, okB, waiting] = out;
      expect([okA!.ok, failed!.ok, okB!.ok, waiting!.ok]).toEqual([true, false, true, false]);
      expect(String((failed as { error: Error }).error.message)).toMatch(/refused by the test/);
      expect((waiting as { error: unknown }).error).toBeInstanceOf(HandNotReadyError);
      expect([await cursor(a.roomId), await cursor(b.roomId), await cursor(c.roomId)]).toEqual([1, 1, 0]);
      expect(await db.prisma.hand.count({ where: { handId: { in: [doomed, c.jobs[1]!.hand_id] } } })).toBe(0);
      // Two hands' ledger transactions (result and rake at most each), and nothing of the refused hand.
      expect((await ledgerTotals(db.prisma)).transactions - totals.transactions).toBeLessThanOrEqual(4);
      await admin.query(`DROP TRIGGER ${fn} ON hand_cards`);
      await admin.query(`DROP FUNCTION ${fn}()`);
    } finally {
      await admin.end();
    }
    // The refused hand goes through once the fault is gone, and the room catches up.
    const retry = await persistHands(db.prisma, [hand(c.jobs[1]!), hand(c.jobs[0]!)], options());
    expect(results(retry)).toEqual(['written', 'written']);
    await audited();
  });

  it('a connection lost mid-batch (as when the persister dies) commits nothing; the hands are then written once', async () => {
    const a = await playedRoom(`${tag}x`, 2);
    const b = await playedRoom(`${tag}y`, 1);
    const victim = a.jobs[1]!.hand_id;
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    const fn = `felt_test_kill_${tag}`;
    try {
      // The server ends the session that is writing this hand's players, in the middle of the
      // batch's insert: its transaction is never committed.
      await admin.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.hand_id = '${victim}' THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
          RETURN NEW;
        END $$`);
      await admin.query(`CREATE TRIGGER ${fn} BEFORE INSERT ON hand_players FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
      const totals = await ledgerTotals(db.prisma);
      const out = await persistHands(db.prisma, [hand(a.jobs[0]!), hand(a.jobs[1]!), hand(b.jobs[0]!)], options());
      expect(results(out).map((r, i) => (i === 1 ? r !== 'written' : r))).toEqual(['written', true, 'written']);
      expect(await db.prisma.hand.count({ where: { handId: victim } })).toBe(0);
      expect([await cursor(a.roomId), await cursor(b.roomId)]).toEqual([1, 1]);
      expect((await ledgerTotals(db.prisma)).transactions - totals.transactions).toBeLessThanOrEqual(4);
    } finally {
      await admin.query(`DROP TRIGGER IF EXISTS ${fn} ON hand_players`);
      await admin.query(`DROP FUNCTION IF EXISTS ${fn}()`);
      await admin.end();
    }
    // Delivered again (BullMQ runs a dead persister's jobs again): written once, the others replayed.
    const again = await persistHands(db.prisma, [hand(a.jobs[0]!), hand(a.jobs[1]!), hand(b.jobs[0]!)], options());
    expect(results(again)).toEqual(['duplicate', 'written', 'duplicate']);
    expect(await cursor(a.roomId)).toBe(2);
    await audited();
  });
});
