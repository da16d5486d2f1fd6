// Add-ons on the real database: the director opens the sale at the first break (until the break's
// end) and closes it once the break is over; meanwhile a playing entry buys `chips` more for the
// config's addOn.cost into the prize pool, once. An add-on whose player is out before the chips reach
// the table is refunded; the close answers the prize pool the payouts share (add-ons included, the
// refunded ones not); the tournament finishes once prizes worth the whole pool are paid; and the
// audit checks every add-on posting against the entry's add_on_at and add_on_refunded_at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  awardTournamentPlace,
  buyTournamentAddOn,
  closeTournamentAddOns,
  createTestDatabase,
  createTournament,
  finishTournament,
  InsufficientFundsError,
  Ledger,
  markTournamentEntryOut,
  openTournamentAddOn,
  openTournamentTables,
  postLedgerTransaction,
  refundTournamentAddOn,
  registerTournamentEntry,
  runAudit,
  seatTournamentEntry,
  startTournament,
  tournamentAddOnsBought,
  tournamentLedgerKeys,
  tournamentPoolAccount,
  walletAccount,
  type NewTournament,
  type Prisma,
  type TestDatabase,
} from '@felt/db';
import {
  expectConserved as expectConservedIn,
  playerWithChips,
  poolBalance,
  scheduledTournament,
  tournamentRefusal,
  walletBalance,
} from './support/tournament-ledger.js';

let db: TestDatabase;
let ledger: Ledger;

const newPlayer = (chips = 1_000n) => playerWithChips(db.prisma, ledger, 'a', chips);

const HOUR = 3600_000;
const MINUTE = 60_000;

/** 5,000 chips more for 50 into the pool; late registration so a `registered` entry can exist while running. */
const ADD_ON = { lateRegistrationLevels: 3, addOn: { chips: 5_000, cost: 50 } };

const scheduled = (config: Prisma.InputJsonValue, over: Partial<NewTournament> = {}): NewTournament =>
  scheduledTournament('Add-on', config, { maxEntrants: 6, ...over });

const balance = (userId: string) => walletBalance(db.prisma, userId);
const pool = (tournamentId: string) => poolBalance(db.prisma, tournamentId);
const buy = (tournamentId: string, userId: string, now?: Date) =>
  buyTournamentAddOn(db.prisma, { tournamentId, userId, ...(now ? { now } : {}) });
const refund = (tournamentId: string, entryId: string) => refundTournamentAddOn(db.prisma, { tournamentId, entryId });

const refusal = tournamentRefusal;
const expectConserved = (): Promise<void> => expectConservedIn(db.prisma);

/** A running scheduled tournament with `players` players seated at its first table. */
async function running(config: Prisma.InputJsonValue = ADD_ON, players = 3) {
  const { id } = await createTournament(db.prisma, scheduled(config));
  for (let i = 0; i < players; i++)
    await registerTournamentEntry(db.prisma, { tournamentId: id, userId: (await newPlayer()).id });
  const started = await startTournament(db.prisma, id);
  const [tableId] = await openTournamentTables(db.prisma, id, 1);
  for (const e of started.entries) await seatTournamentEntry(db.prisma, e.id, tableId!);
  return { id, tableId: tableId!, entries: started.entries };
}

/** A running tournament with the add-on on sale for the next ten minutes. */
async function onSale(config: Prisma.InputJsonValue = ADD_ON, players = 3) {
  const t = await running(config, players);
  const until = new Date(Date.now() + 10 * MINUTE);
  expect(await openTournamentAddOn(db.prisma, t.id, until)).toEqual({ replayed: false });
  return { ...t, until };
}

/** What an add-on may change: the entries' rows, the ledger's transactions for the tournament, the pool. */
const snapshot = async (tournamentId: string) => ({
  entries: await db.prisma.tournamentEntry.findMany({ where: { tournamentId }, orderBy: { id: 'asc' } }),
  transactions: await db.prisma.ledgerTransaction.count({ where: { tournamentId } }),
  pool: await pool(tournamentId),
});

beforeAll(async () => {
  db = await createTestDatabase();
  ledger = new Ledger(db.prisma);
});

afterAll(async () => {
  await db.drop();
});

describe('tournament add-ons', () => {
  it('is sold only between the director opening it and its end or close; refused before, after and without addOn, nothing charged', async () => {
    const t = await running();
    const a = t.entries[0]!;
    let before = await snapshot(t.id);

    // Before the director opens it.
    const early = await refusal(buy(t.id, a.userId));
    expect(early.reason).toBe('add_on_closed');
    expect(early.message).toMatch(/not on sale yet/);
    expect(await snapshot(t.id)).toEqual(before);

    // Opened once: again keeps the first end.
    const until = new Date(Date.now() + 10 * MINUTE);
    expect(await openTournamentAddOn(db.prisma, t.id, until)).toEqual({ replayed: false });
    expect(await openTournamentAddOn(db.prisma, t.id, new Date(Date.now() + HOUR))).toEqual({ replayed: true });
    expect((await db.prisma.tournament.findUniqueOrThrow({ where: { id: t.id } })).addOnUntil).toEqual(until);

    // Past its end.
    before = await snapshot(t.id);
    const late = await refusal(buy(t.id, a.userId, new Date(until.getTime() + 1)));
    expect(late.reason).toBe('add_on_closed');
    expect(late.message).toMatch(/sale ended/);
    expect((await refusal(buy(t.id, a.userId, until))).reason).toBe('add_on_closed');
    expect(await snapshot(t.id)).toEqual(before);

    // Closed by the director, though its end has not come.
    await closeTournamentAddOns(db.prisma, t.id);
    const closed = await refusal(buy(t.id, a.userId));
    expect(closed.reason).toBe('add_on_closed');
    expect(closed.message).toMatch(/add-ons are closed/);
    expect(await snapshot(t.id)).toEqual(before);
    expect(await balance(a.userId)).toBe(890n);

    // A config without addOn offers none: not opened, not sold.
    const plain = await running({ lateRegistrationLevels: 3 });
    const none = await refusal(openTournamentAddOn(db.prisma, plain.id, until));
    expect(none.reason).toBe('add_on_closed');
    expect(none.message).toMatch(/offers no add-on/);
    expect((await refusal(buy(plain.id, plain.entries[0]!.userId))).reason).toBe('add_on_closed');
    expect((await db.prisma.tournament.findUniqueOrThrow({ where: { id: plain.id } })).addOnUntil).toBeNull();

    // Opened only while running.
    const { id: waiting } = await createTournament(db.prisma, scheduled(ADD_ON));
    expect((await refusal(openTournamentAddOn(db.prisma, waiting, until))).reason).toBe('not_running');
    await expectConserved();
  });

  it('a playing entry buys it once: the cost into the pool, add_on_at set; again replayed, nothing more charged', async () => {
    const t = await onSale();
    const [a, b] = t.entries;
    const bought = await buy(t.id, a!.userId);
    expect(bought).toEqual({
      entry: {
        id: a!.id,
        tournamentId: t.id,
        userId: a!.userId,
        entryNo: 1,
        status: 'playing',
        place: null,
        prize: 0n,
      },
      replayed: false,
    });
    expect(await balance(a!.userId)).toBe(840n);
    expect(await pool(t.id)).toBe(350n);
    const row = await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: a!.id } });
    expect(row.addOnAt).toBeInstanceOf(Date);
    expect(row.addOnRefundedAt).toBeNull();
    const tx = await db.prisma.ledgerTransaction.findUniqueOrThrow({
      where: { idempotencyKey: tournamentLedgerKeys(a!.id).addOn },
    });
    expect(tx).toMatchObject({ kind: 'tournament_add_on', tournamentId: t.id });

    expect(await buy(t.id, a!.userId)).toEqual({ ...bought, replayed: true });
    // Replayed even once the sale is over: the add-on is bought, not refused.
    expect(await buy(t.id, a!.userId, new Date(t.until.getTime() + 1))).toEqual({ ...bought, replayed: true });
    expect(await balance(a!.userId)).toBe(840n);
    expect(await pool(t.id)).toBe(350n);
    expect((await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: a!.id } })).addOnAt).toEqual(row.addOnAt);

    // Another player buys theirs; the director reads both, oldest first.
    await buy(t.id, b!.userId);
    expect(await tournamentAddOnsBought(db.prisma, t.id)).toEqual([
      { entryId: a!.id, userId: a!.userId },
      { entryId: b!.id, userId: b!.userId },
    ]);
    await expectConserved();
  });

  it('an add-on of cost 0 posts nothing but is recorded', async () => {
    const t = await onSale({ addOn: { chips: 1_000, cost: 0 } });
    const a = t.entries[0]!;
    expect((await buy(t.id, a.userId)).replayed).toBe(false);
    expect((await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: a.id } })).addOnAt).toBeInstanceOf(Date);
    expect(await db.prisma.ledgerTransaction.count({ where: { tournamentId: t.id, kind: 'tournament_add_on' } })).toBe(
      0,
    );
    expect(await balance(a.userId)).toBe(890n);
    expect(await tournamentAddOnsBought(db.prisma, t.id)).toEqual([{ entryId: a.id, userId: a.userId }]);
    expect(await refund(t.id, a.id)).toEqual({ replayed: false });
    expect(await tournamentAddOnsBought(db.prisma, t.id)).toEqual([]);
    expect(await closeTournamentAddOns(db.prisma, t.id)).toMatchObject({ prizePool: 300n, entries: 3 });
    await expectConserved();
  });

  it('refuses a player without a playing entry: busted, finished, registered and not seated, or not in it; nothing charged', async () => {
    const t = await onSale(ADD_ON, 3);
    const [a, b] = t.entries;
    await markTournamentEntryOut(db.prisma, { tournamentId: t.id, entryId: a!.id });
    await awardTournamentPlace(db.prisma, { tournamentId: t.id, entryId: b!.id, place: 4, prize: 0n });
    const late = await newPlayer();
    const { entry: lateEntry } = await registerTournamentEntry(db.prisma, { tournamentId: t.id, userId: late.id });
    expect(lateEntry.status).toBe('registered');
    const stranger = await newPlayer();

    const before = await snapshot(t.id);
    for (const userId of [a!.userId, b!.userId, late.id, stranger.id]) {
      const refused = await refusal(buy(t.id, userId));
      expect(refused.reason).toBe('not_registered');
      expect(refused.message).toMatch(/no entry in play/);
    }
    expect(await snapshot(t.id)).toEqual(before);
    expect([await balance(a!.userId), await balance(b!.userId), await balance(late.id)]).toEqual([890n, 890n, 890n]);
    expect(await balance(stranger.id)).toBe(1_000n);

    // Seated, the late entry plays and may buy it.
    await seatTournamentEntry(db.prisma, lateEntry.id, t.tableId);
    expect((await buy(t.id, late.id)).entry.id).toBe(lateEntry.id);
    await expectConserved();
  });

  it('a wallet that cannot pay the cost is refused with nothing written', async () => {
    const t = await running(ADD_ON, 2);
    const poor = await newPlayer(110n);
    const { entry } = await registerTournamentEntry(db.prisma, { tournamentId: t.id, userId: poor.id });
    await seatTournamentEntry(db.prisma, entry.id, t.tableId);
    await openTournamentAddOn(db.prisma, t.id, new Date(Date.now() + 10 * MINUTE));
    const before = await snapshot(t.id);
    await expect(buy(t.id, poor.id)).rejects.toBeInstanceOf(InsufficientFundsError);
    expect(await snapshot(t.id)).toEqual(before);
    expect((await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: entry.id } })).addOnAt).toBeNull();
    expect(await balance(poor.id)).toBe(0n);
    expect(await tournamentAddOnsBought(db.prisma, t.id)).toEqual([]);
    await expectConserved();
  });

  it('concurrent purchases by one player make one charge', async () => {
    const t = await onSale();
    const a = t.entries[0]!;
    const results = await Promise.all(Array.from({ length: 6 }, () => buy(t.id, a.userId)));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entry.id))).toEqual(new Set([a.id]));
    expect(await balance(a.userId)).toBe(840n);
    expect(await pool(t.id)).toBe(350n);
    expect(await db.prisma.ledgerTransaction.count({ where: { tournamentId: t.id, kind: 'tournament_add_on' } })).toBe(
      1,
    );
    await expectConserved();
  });

  it('a refund pays the cost back once, also after the close; refused for an entry without an add-on and an unknown entry', async () => {
    const t = await onSale();
    const [a, b, c] = t.entries;
    await buy(t.id, a!.userId);
    await buy(t.id, b!.userId);
    await markTournamentEntryOut(db.prisma, { tournamentId: t.id, entryId: a!.id });

    expect(await refund(t.id, a!.id)).toEqual({ replayed: false });
    expect(await balance(a!.userId)).toBe(890n);
    expect(await pool(t.id)).toBe(350n);
    const row = await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: a!.id } });
    expect(row.addOnRefundedAt).toBeInstanceOf(Date);
    expect(
      await db.prisma.ledgerTransaction.findUniqueOrThrow({
        where: { idempotencyKey: tournamentLedgerKeys(a!.id).addOnRefund },
      }),
    ).toMatchObject({ kind: 'tournament_add_on_refund', tournamentId: t.id });
    expect(await refund(t.id, a!.id)).toEqual({ replayed: true });
    expect(await balance(a!.userId)).toBe(890n);
    expect(await pool(t.id)).toBe(350n);
    expect(await tournamentAddOnsBought(db.prisma, t.id)).toEqual([{ entryId: b!.id, userId: b!.userId }]);

    const before = await snapshot(t.id);
    expect((await refusal(refund(t.id, c!.id))).reason).toBe('no_add_on');
    expect((await refusal(refund(t.id, crypto.randomUUID()))).reason).toBe('not_registered');
    const closed = await closeTournamentAddOns(db.prisma, t.id);
    // The refund made before the close is still answered.
    expect(await refund(t.id, a!.id)).toEqual({ replayed: true });
    expect(await snapshot(t.id)).toEqual(before);
    // One bought before the close may still be paid back after it (the director gives or pays back
    // what was bought once nothing more can be): the close's answer, read again, has it out.
    expect(await refund(t.id, b!.id)).toEqual({ replayed: false });
    expect(await balance(b!.userId)).toBe(890n);
    expect((await closeTournamentAddOns(db.prisma, t.id)).prizePool).toBe(closed.prizePool - 50n);
    await expectConserved();
  });

  it('the close answers the pool with the add-ons not refunded and prizes paid not deducted, the field, and the same again', async () => {
    const t = await onSale(ADD_ON, 4);
    const [a, b, c, d] = t.entries;
    for (const e of [a, b, c]) await buy(t.id, e!.userId);
    await markTournamentEntryOut(db.prisma, { tournamentId: t.id, entryId: c!.id });
    await refund(t.id, c!.id);
    // d is out and paid before the close: the pool the payouts share still counts its buy-in.
    await awardTournamentPlace(db.prisma, { tournamentId: t.id, entryId: d!.id, place: 4, prize: 30n });
    expect(await pool(t.id)).toBe(400n + 100n - 30n);

    const closed = await closeTournamentAddOns(db.prisma, t.id);
    expect(closed).toEqual({ closedAt: expect.any(Date) as Date, prizePool: 500n, entries: 4, replayed: false });
    expect((await db.prisma.tournament.findUniqueOrThrow({ where: { id: t.id } })).addOnClosedAt).toEqual(
      closed.closedAt,
    );
    expect(await closeTournamentAddOns(db.prisma, t.id)).toEqual({ ...closed, replayed: true });

    // A first close needs a running tournament with an add-on.
    const { id: waiting } = await createTournament(db.prisma, scheduled(ADD_ON));
    expect((await refusal(closeTournamentAddOns(db.prisma, waiting))).reason).toBe('not_running');
    const plain = await running({ lateRegistrationLevels: 3 }, 2);
    expect((await refusal(closeTournamentAddOns(db.prisma, plain.id))).reason).toBe('add_on_closed');
    await expectConserved();
  });

  it('finishes once prizes worth the whole pool, add-ons included, are paid; the audit is clean all along', async () => {
    const t = await onSale(ADD_ON, 3);
    const [a, b, c] = t.entries;
    await buy(t.id, a!.userId);
    await buy(t.id, b!.userId);
    await expectConserved();
    const { prizePool } = await closeTournamentAddOns(db.prisma, t.id);
    expect(prizePool).toBe(400n);
    const places: Array<[string, number, bigint]> = [
      [c!.id, 3, 0n],
      [b!.id, 2, 150n],
      [a!.id, 1, 250n],
    ];
    for (const [entryId, place, prize] of places) {
      await awardTournamentPlace(db.prisma, { tournamentId: t.id, entryId, place, prize });
    }
    expect(await pool(t.id)).toBe(0n);
    expect(await finishTournament(db.prisma, t.id)).toEqual({ replayed: false });
    expect(await balance(a!.userId)).toBe(1_000n - 110n - 50n + 250n);
    expect(await balance(c!.userId)).toBe(890n);
    await expectConserved();
  });

  it('a refund after the finish is refused (not_running) with nothing written; one made before is still answered', async () => {
    const t = await onSale(ADD_ON, 3);
    const [a, b, c] = t.entries;
    await buy(t.id, a!.userId);
    await buy(t.id, b!.userId);
    await buy(t.id, c!.userId);
    await markTournamentEntryOut(db.prisma, { tournamentId: t.id, entryId: c!.id });
    await refund(t.id, c!.id);
    expect((await closeTournamentAddOns(db.prisma, t.id)).prizePool).toBe(400n);
    const places: Array<[string, number, bigint]> = [
      [c!.id, 3, 0n],
      [b!.id, 2, 150n],
      [a!.id, 1, 250n],
    ];
    for (const [entryId, place, prize] of places) {
      await awardTournamentPlace(db.prisma, { tournamentId: t.id, entryId, place, prize });
    }
    await finishTournament(db.prisma, t.id);

    const before = await snapshot(t.id);
    const refused = await refusal(refund(t.id, a!.id));
    expect(refused.reason).toBe('not_running');
    expect(refused.message).toMatch(/it is finished/);
    expect(await snapshot(t.id)).toEqual(before);
    expect(await balance(a!.userId)).toBe(1_000n - 110n - 50n + 250n);
    expect(await refund(t.id, c!.id)).toEqual({ replayed: true });
    expect(await snapshot(t.id)).toEqual(before);
    await expectConserved();
  });

  it('the audit is clean after a full run with add-ons and a refund, and names tampered add-on money', async () => {
    // Its own database: a forged posting stays in the ledger for good.
    const own = await createTestDatabase();
    const prior = { db, ledger };
    db = own;
    ledger = new Ledger(own.prisma);
    try {
      const t = await onSale(ADD_ON, 3);
      const [a, b, c] = t.entries;
      for (const e of [a, b, c]) await buy(t.id, e!.userId);
      await markTournamentEntryOut(db.prisma, { tournamentId: t.id, entryId: c!.id });
      await refund(t.id, c!.id);
      await expectConserved();
      expect((await closeTournamentAddOns(db.prisma, t.id)).prizePool).toBe(400n);
      await awardTournamentPlace(db.prisma, { tournamentId: t.id, entryId: c!.id, place: 3, prize: 0n });
      await awardTournamentPlace(db.prisma, { tournamentId: t.id, entryId: b!.id, place: 2, prize: 100n });
      await awardTournamentPlace(db.prisma, { tournamentId: t.id, entryId: a!.id, place: 1, prize: 300n });
      await finishTournament(db.prisma, t.id);
      await expectConserved();

      // An entry's row that says its add-on was refunded, with no refund posted: the pool and the
      // entry's postings no longer agree with it.
      await db.prisma.tournamentEntry.update({ where: { id: b!.id }, data: { addOnRefundedAt: new Date() } });
      try {
        const messages = (await runAudit(db.prisma)).issues.map((i) => [i.code, i.message]);
        expect(messages).toEqual([
          ['tournament_money', expect.stringMatching(new RegExp(`tournament ${t.id}: pool 0, .* 1 add-ons of 50`))],
          [
            'tournament_money',
            expect.stringMatching(
              new RegExp(
                `tournament entry ${b!.id} \\(finished\\).*add-on -50, add-on refund 0; expected .*, -50, 50$`,
              ),
            ),
          ],
        ]);
      } finally {
        await db.prisma.tournamentEntry.update({ where: { id: b!.id }, data: { addOnRefundedAt: null } });
      }
      await expectConserved();

      // A forged add-on refund out of a pool: named by its entry, and by its key when no entry has it.
      const forged = await running(ADD_ON, 2);
      const victim = forged.entries[0]!;
      for (const key of [tournamentLedgerKeys(victim.id).addOnRefund, `tournament-add-on:${crypto.randomUUID()}`]) {
        await db.prisma.$transaction((tx) =>
          postLedgerTransaction(tx, {
            idempotencyKey: key,
            kind: key.startsWith('tournament-add-on-refund') ? 'tournament_add_on_refund' : 'tournament_add_on',
            tournamentId: forged.id,
            postings: [
              { account: tournamentPoolAccount(forged.id), amount: -20n },
              { account: walletAccount(victim.userId), amount: 20n },
            ],
          }),
        );
      }
      const report = await runAudit(db.prisma);
      const messages = report.issues.filter((i) => i.code === 'tournament_money').map((i) => i.message);
      expect(messages).toContainEqual(expect.stringMatching(new RegExp(`tournament ${forged.id}: pool 160`)));
      expect(messages).toContainEqual(
        expect.stringMatching(new RegExp(`tournament entry ${victim.id} \\(playing\\).*add-on refund 20; expected`)),
      );
      expect(messages).toContainEqual(
        expect.stringMatching(/^tournament-add-on:[0-9a-f-]{36} belongs to no tournament entry$/),
      );
      expect(report.issues.some((i) => i.code === 'system_imbalance')).toBe(false);
    } finally {
      await own.drop();
      ({ db, ledger } = prior);
    }
  });
});
