import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { SeededRng } from '@felt/engine';
import {
  AuditIssueCode,
  HOUSE_BANKROLL,
  PRACTICE_REFILL_CHIPS,
  PRACTICE_SOURCE,
  PracticeChipsMixedError,
  accountBalance,
  createTestDatabase,
  escrowAccount,
  ledgerTotals,
  lockRoomRow,
  normalizeHandJob,
  persistHand,
  persistHands,
  postLedgerTransaction,
  practiceWalletAccount,
  recordTopUp,
  refillPracticeWallet,
  requestCashOut,
  runAudit,
  seatBot,
  walletAccount,
  withTransaction,
  type TestDatabase,
} from '@felt/db';
import type { RoomConfigInput } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapLedgerError } from '../src/ledger.js';
import { RAKED_HOLDEM, createRoom, createUser, deliverCashOut, heldSink } from '../../test/money/fixtures.js';
import { SimTable } from '../../test/money/sim-table.js';

/**
 * Practice chips (docs/dev/money-flows.md, "Practice chips"): a practice room's money moves only
 * between practice accounts, the database refuses anything that mixes them with real ones, a
 * practice wallet refills for free, and the audit keeps the two kinds of chips apart.
 */

const PRACTICE: RoomConfigInput = { ...RAKED_HOLDEM, rake: { percent: 0 }, practiceChips: true };

let db: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  db = await createTestDatabase();
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await db?.drop();
});

const isPracticeKey = (roomId: string) => (key: string) =>
  key.startsWith('practice:') || key === 'practice_source' || key.startsWith(`escrow:${roomId}:`);

describe('a practice room', () => {
  it('plays, tops up, cashes out and closes on practice chips only: every real wallet is untouched', async () => {
    const room = await createRoom(
      db.prisma,
      [
        { name: 'p1', buyIn: 100 },
        { name: 'p2', buyIn: 150 },
        { name: 'p3', buyIn: 200 },
      ],
      PRACTICE,
    );
    const users = room.users.map((u) => u.id);
    // Each seat refilled a practice wallet from the practice source and bought in from it.
    expect(await Promise.all(users.map((u) => accountBalance(db.prisma, walletAccount(u))))).toEqual(
      users.map(() => 10_000n),
    );
    expect(await Promise.all(users.map((u) => accountBalance(db.prisma, practiceWalletAccount(u))))).toEqual([
      PRACTICE_REFILL_CHIPS - 100n,
      PRACTICE_REFILL_CHIPS - 150n,
      PRACTICE_REFILL_CHIPS - 200n,
    ]);

    const sink = heldSink();
    const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('practice'));
    for (let i = 0; i < 4; i++) await t.playHand();
    // The persister's batch path.
    const batch = await persistHands(db.prisma, sink.hands.map(normalizeHandJob));
    expect(batch.every((o) => o.ok && o.result.result === 'written')).toBe(true);

    // A top-up larger than the table can add: its excess goes back to the practice wallet when the
    // next hand reports it.
    const escrows = await Promise.all(users.map((u) => accountBalance(db.prisma, escrowAccount(room.roomId, u))));
    const richest = escrows.indexOf(escrows.reduce((a, b) => (b > a ? b : a)));
    const topper = room.users[richest]!;
    await withTransaction(db.prisma, async (tx) => {
      const locked = await lockRoomRow(tx, room.roomId);
      await recordTopUp(tx, {
        roomId: room.roomId,
        userId: topper.id,
        membershipId: topper.membershipId,
        amount: 200n,
        idempotencyKey: `top-up:${topper.membershipId}:practice`,
        applyNow: false,
        lastHandNo: locked!.lastHandNo,
        now: new Date(),
      });
    });
    await t.sync();
    await t.playHand();
    await persistHand(db.prisma, normalizeHandJob(sink.hands[4]!));
    expect(
      await db.prisma.ledgerTransaction.count({ where: { idempotencyKey: { startsWith: 'top-up-excess:' } } }),
    ).toBe(1);

    // A leave whose hand is not persisted yet: paid when the persister writes it.
    const leaver = room.users.find((u) => u.id !== topper.id)!;
    await t.playHand();
    await db.prisma.membership.update({ where: { id: leaver.membershipId }, data: { leaveRequestedAt: new Date() } });
    await t.sync();
    const leave = sink.cashOuts.find((c) => c.user_id === leaver.id)!;
    expect((await deliverCashOut(db.prisma, leave)).status).toBe('pending');
    const written = await persistHand(db.prisma, normalizeHandJob(sink.hands[5]!));
    expect(written.cashOuts).toMatchObject([{ requestId: leave.request_id, status: 'paid' }]);

    // The room closes: everyone else is refunded.
    await db.prisma.room.update({ where: { id: room.roomId }, data: { status: 'closing', closingAt: new Date() } });
    await t.sync();
    for (const job of sink.cashOuts.filter((c) => c.reason === 'room_close')) {
      expect((await deliverCashOut(db.prisma, job)).status).toBe('paid');
    }
    expect((await db.prisma.room.findUniqueOrThrow({ where: { id: room.roomId } })).status).toBe('closed');

    // Real wallets: exactly the sign-up grant. Every transaction of the room touched practice
    // accounts only, and the practice chips all went home.
    expect(await Promise.all(users.map((u) => accountBalance(db.prisma, walletAccount(u))))).toEqual(
      users.map(() => 10_000n),
    );
    const txs = await db.prisma.ledgerTransaction.findMany({
      where: { OR: [{ roomId: room.roomId }, { kind: 'practice_refill' }] },
      include: { entries: { include: { account: { select: { key: true } } } } },
    });
    const kinds = new Set(txs.map((x) => x.kind));
    for (const kind of ['practice_refill', 'buy_in', 'top_up', 'hand_result', 'refund', 'cash_out'] as const) {
      expect(kinds, kind).toContain(kind);
    }
    for (const x of txs) {
      expect(
        x.entries.map((e) => e.account.key).filter((k) => !isPracticeKey(room.roomId)(k)),
        x.idempotencyKey,
      ).toEqual([]);
    }
    const practiceTotal = (
      await Promise.all(users.map((u) => accountBalance(db.prisma, practiceWalletAccount(u))))
    ).reduce((a, b) => a + b, 0n);
    expect(practiceTotal).toBe(3n * PRACTICE_REFILL_CHIPS);
    const totals = await ledgerTotals(db.prisma);
    expect(totals.practiceIssued).toBe(-(await accountBalance(db.prisma, PRACTICE_SOURCE)));
    expect(totals.practiceWallets + totals.practiceEscrow).toBe(totals.practiceIssued);
    expect(totals.mixedTransactions).toBe(0);
    const report = await runAudit(db.prisma);
    expect(report.issues).toEqual([]);
    expect(report.imbalance).toBe(0n);
    expect(report.practiceImbalance).toBe(0n);
  });
});

describe('a bot at a practice room', () => {
  it('plays free practice chips: the house bankroll neither stakes it nor takes its chips back', async () => {
    const room = await createRoom(db.prisma, [{ name: 'pb', buyIn: 100 }], PRACTICE);
    const bankroll = await accountBalance(db.prisma, HOUSE_BANKROLL);
    const botId = randomUUID();
    // The bankroll holds nothing here: a real room would refuse the bot (bankroll_empty).
    expect(bankroll).toBe(0n);
    await seatBot(db.prisma, { roomId: room.roomId, botId, seat: 2, buyIn: 150n });
    expect(await accountBalance(db.prisma, escrowAccount(room.roomId, botId))).toBe(150n);
    expect(await accountBalance(db.prisma, practiceWalletAccount(botId))).toBe(PRACTICE_REFILL_CHIPS - 150n);
    const out = await withTransaction(db.prisma, (tx) =>
      requestCashOut(
        tx,
        {
          requestId: `leave-${botId}`,
          roomId: room.roomId,
          userId: botId,
          reason: 'leave',
          lastHandNo: 0,
          finalStack: 150n,
        },
        new Date(),
      ),
    );
    expect(out.status).toBe('paid');
    expect(await accountBalance(db.prisma, practiceWalletAccount(botId))).toBe(PRACTICE_REFILL_CHIPS);
    expect(await accountBalance(db.prisma, walletAccount(botId))).toBe(0n);
    expect(await accountBalance(db.prisma, HOUSE_BANKROLL)).toBe(bankroll);
  });
});

describe('the database keeps practice and real chips apart', () => {
  async function ids() {
    const real = await createUser(db.prisma, 'real');
    const room = await createRoom(db.prisma, [{ name: 'pp', buyIn: 100 }], PRACTICE);
    const player = room.users[0]!.id;
    const account = async (key: string) =>
      (await client.query<{ id: string }>('SELECT id FROM ledger_accounts WHERE key = $1', [key])).rows[0]!.id;
    return {
      real,
      room,
      player,
      realWallet: await account(`wallet:${real}`),
      playerWallet: await account(`wallet:${player}`),
      practiceWallet: await account(`practice:${player}`),
      practiceEscrow: await account(`escrow:${room.roomId}:${player}`),
      rake: await account('house_rake'),
    };
  }

  /** Posts a two-entry transaction with raw SQL, skipping every application check; returns the SQLSTATE. */
  async function rawPost(key: string, from: string, to: string, amount: number): Promise<string | undefined> {
    await client.query('BEGIN');
    try {
      const tx = await client.query<{ id: string }>(
        `INSERT INTO ledger_transactions (idempotency_key, kind) VALUES ($1, 'buy_in') RETURNING id`,
        [key],
      );
      const id = tx.rows[0]!.id;
      await client.query(
        `INSERT INTO ledger_entries (transaction_id, account_id, entry_key, amount) VALUES ($1, $2, $3, $4), ($1, $5, $6, $7)`,
        [id, from, `${key}/from`, -amount, to, `${key}/to`, amount],
      );
      await client.query('COMMIT');
      return undefined;
    } catch (err) {
      await client.query('ROLLBACK');
      return (err as { code?: string }).code;
    }
  }

  it('refuses a hand-built transaction that mixes them, and writes nothing', async () => {
    const a = await ids();
    const before = await ledgerTotals(db.prisma);
    const balances = async () =>
      (
        await client.query<{ key: string; balance: string }>(
          'SELECT key, balance::text FROM ledger_accounts WHERE id = ANY($1) ORDER BY key',
          [[a.realWallet, a.playerWallet, a.practiceWallet, a.practiceEscrow, a.rake]],
        )
      ).rows;
    const was = await balances();
    // A real wallet paying a practice room's escrow; a practice escrow paying a real wallet or the
    // rake; a practice wallet and a real wallet trading directly.
    expect(await rawPost('mix:real-to-practice-escrow', a.realWallet, a.practiceEscrow, 10)).toBe('FL006');
    expect(await rawPost('mix:practice-escrow-to-real', a.practiceEscrow, a.playerWallet, 10)).toBe('FL006');
    expect(await rawPost('mix:practice-rake', a.practiceEscrow, a.rake, 1)).toBe('FL006');
    expect(await rawPost('mix:practice-wallet-to-real', a.practiceWallet, a.playerWallet, 10)).toBe('FL006');
    expect(await rawPost('mix:real-to-practice-wallet', a.playerWallet, a.practiceWallet, 10)).toBe('FL006');
    expect(await balances()).toEqual(was);
    expect((await ledgerTotals(db.prisma)).transactions).toBe(before.transactions);
    const stray = await client.query("SELECT 1 FROM ledger_transactions WHERE idempotency_key LIKE 'mix:%'");
    expect(stray.rowCount).toBe(0);
    // Chips of one kind still move (the check refuses only the mix).
    expect(await rawPost('ok:practice', a.practiceWallet, a.practiceEscrow, 10)).toBeUndefined();

    // The ledger's own functions refuse first, with a typed error.
    await expect(
      withTransaction(db.prisma, (tx) =>
        postLedgerTransaction(tx, {
          idempotencyKey: 'mix:typed',
          kind: 'buy_in',
          postings: [
            { account: walletAccount(a.real), amount: -5n },
            { account: escrowAccount(a.room.roomId, a.real), amount: 5n },
          ],
        }),
      ),
    ).rejects.toBeInstanceOf(PracticeChipsMixedError);

    // A room never changes kind, so its escrows' chips cannot either.
    const flip = await client
      .query('UPDATE rooms SET practice = false WHERE id = $1', [a.room.roomId])
      .then(() => undefined)
      .catch((err: { code?: string }) => err.code);
    expect(flip).toBe('FL006');
  });
});

describe('refilling a practice wallet', () => {
  it('keeps its refusal (FL006) apart from hand history immutability (FL004)', async () => {
    // The first test persisted hands: deleting them is refused as history, not as mixed chips.
    expect(
      Number((await client.query<{ n: string }>('SELECT count(*)::text AS n FROM hands')).rows[0]?.n),
    ).toBeGreaterThan(0);
    const err = await client.query('DELETE FROM hands').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as { code?: string }).code).toBe('FL004');
    expect(mapLedgerError(err)).not.toBeInstanceOf(PracticeChipsMixedError);
  });

  it('tops it up to the fixed amount when short, once under concurrency, and to the need when that is more', async () => {
    const user = await createUser(db.prisma, 'refill');
    const practice = practiceWalletAccount(user);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        withTransaction(db.prisma, (tx) =>
          refillPracticeWallet(tx, { userId: user, need: 100n, idempotencyKey: `practice-refill:test:${user}:${i}` }),
        ),
      ),
    );
    expect(results.reduce((a, r) => a + r.refilled, 0n)).toBe(PRACTICE_REFILL_CHIPS);
    expect(results.filter((r) => r.refilled > 0n)).toHaveLength(1);
    expect(await accountBalance(db.prisma, practice)).toBe(PRACTICE_REFILL_CHIPS);
    const refills = () =>
      db.prisma.ledgerTransaction.count({
        where: { kind: 'practice_refill', entries: { some: { account: { key: `practice:${user}` } } } },
      });
    expect(await refills()).toBe(1);

    // The key that refilled, again: nothing more, even for a larger need.
    const first = results.findIndex((r) => r.refilled > 0n);
    const replay = await withTransaction(db.prisma, (tx) =>
      refillPracticeWallet(tx, {
        userId: user,
        need: 50_000n,
        idempotencyKey: `practice-refill:test:${user}:${first}`,
      }),
    );
    expect(replay.refilled).toBe(0n);
    // A buy-in above the fixed amount: refilled to exactly the need.
    const big = await withTransaction(db.prisma, (tx) =>
      refillPracticeWallet(tx, { userId: user, need: 25_000n, idempotencyKey: `practice-refill:test:${user}:big` }),
    );
    expect(big).toEqual({ refilled: 15_000n, balance: 25_000n });
    expect(await refills()).toBe(2);
    // The real wallet never moved.
    expect(await accountBalance(db.prisma, walletAccount(user))).toBe(10_000n);
  });
});

describe('the audit', () => {
  it('checks real and practice chips apart, and names a leak between them', async () => {
    const leakDb = await createTestDatabase();
    const leakClient = new pg.Client({ connectionString: leakDb.url });
    await leakClient.connect();
    try {
      const room = await createRoom(leakDb.prisma, [{ name: 'la', buyIn: 100 }], PRACTICE);
      const real = await createRoom(leakDb.prisma, [{ name: 'lr', buyIn: 100 }]);
      const clean = await runAudit(leakDb.prisma);
      expect(clean.issues).toEqual([]);
      const totals = await ledgerTotals(leakDb.prisma);
      expect(totals.practiceIssued).toBe(PRACTICE_REFILL_CHIPS);
      expect(totals.practiceEscrow).toBe(100n);
      expect(totals.escrow).toBe(100n);
      expect(totals.wallets + totals.escrow).toBe(totals.granted);

      // Bypass the trigger (as only a superuser could) and move 40 real chips into a practice wallet.
      const player = room.users[0]!.id;
      const from = real.users[0]!.id;
      await leakClient.query('ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_chip_kinds');
      await leakClient.query('BEGIN');
      const tx = await leakClient.query<{ id: string }>(
        `INSERT INTO ledger_transactions (idempotency_key, kind) VALUES ('leak', 'grant') RETURNING id`,
      );
      await leakClient.query(
        `INSERT INTO ledger_entries (transaction_id, account_id, entry_key, amount)
         SELECT $1, a.id, 'leak/' || a.key, CASE WHEN a.key = $2 THEN -40 ELSE 40 END
         FROM ledger_accounts a WHERE a.key IN ($2, $3)`,
        [tx.rows[0]!.id, `wallet:${from}`, `practice:${player}`],
      );
      await leakClient.query('COMMIT');
      await leakClient.query('ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_chip_kinds');

      const report = await runAudit(leakDb.prisma);
      expect(report.ok).toBe(false);
      expect(report.imbalance).toBe(-40n);
      expect(report.practiceImbalance).toBe(40n);
      expect(report.issues.map((i) => i.code).sort()).toEqual(
        [AuditIssueCode.PRACTICE_IMBALANCE, AuditIssueCode.PRACTICE_LEAK, AuditIssueCode.SYSTEM_IMBALANCE].sort(),
      );
      expect(report.issues.find((i) => i.code === AuditIssueCode.PRACTICE_LEAK)?.message).toContain('leak');
    } finally {
      await leakClient.end();
      await leakDb.drop();
    }
  });
});
