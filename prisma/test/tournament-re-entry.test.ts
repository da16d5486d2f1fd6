// Re-entry on the real database: the director marks a bust while late registration is open (the
// entry is `busted`, placed and paid later), the busted player buys in again as a new entry up to the
// config's reEntry.max, until the director closes re-entry or registration; re-entries do not take
// another place in the field, a busted entry holds the finish and is awarded like a playing one, and
// the audit names a tournament that ended with one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountBalance,
  awardTournamentPlace,
  closeTournamentReEntry,
  closeTournamentRegistration,
  createTestDatabase,
  createTournament,
  finishTournament,
  HOUSE_FEE,
  lateTournamentEntries,
  Ledger,
  markTournamentEntryOut,
  openTournamentTables,
  reEntryOpen,
  registerTournamentEntry,
  runAudit,
  seatTournamentEntry,
  startTournament,
  tournamentPlayers,
  unregisterTournamentEntry,
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

const newPlayer = (chips = 1_000n) => playerWithChips(db.prisma, ledger, 'r', chips);

/** Late registration for three levels, one re-entry until the second. */
const RE_ENTRY = { lateRegistrationLevels: 3, reEntry: { max: 1, untilLevel: 2 } };

const scheduled = (config: Prisma.InputJsonValue, over: Partial<NewTournament> = {}): NewTournament =>
  scheduledTournament('Re-entry', config, over);

const balance = (userId: string) => walletBalance(db.prisma, userId);
const pool = (tournamentId: string) => poolBalance(db.prisma, tournamentId);
const register = (tournamentId: string, userId: string) => registerTournamentEntry(db.prisma, { tournamentId, userId });
const out = (tournamentId: string, entryId: string) => markTournamentEntryOut(db.prisma, { tournamentId, entryId });

const refusal = tournamentRefusal;
const expectConserved = (): Promise<void> => expectConservedIn(db.prisma);

/**
 * A running scheduled tournament with two players seated at its first table; with `refunded`, a third
 * player registered and unregistered before the start.
 */
async function running(config: Prisma.InputJsonValue = RE_ENTRY, over: Partial<NewTournament> = {}, refunded = false) {
  const { id } = await createTournament(db.prisma, scheduled(config, over));
  const first = [await newPlayer(), await newPlayer()];
  for (const p of first) await register(id, p.id);
  const quitter = refunded ? await newPlayer() : null;
  if (quitter) {
    await register(id, quitter.id);
    await unregisterTournamentEntry(db.prisma, { tournamentId: id, userId: quitter.id });
  }
  const started = await startTournament(db.prisma, id);
  const [tableId] = await openTournamentTables(db.prisma, id, 1);
  for (const e of started.entries) await seatTournamentEntry(db.prisma, e.id, tableId!);
  return { id, tableId: tableId!, entries: started.entries, quitter };
}

const rowsOf = async (tournamentId: string) =>
  db.prisma.tournamentEntry.findMany({ where: { tournamentId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });

beforeAll(async () => {
  db = await createTestDatabase();
  ledger = new Ledger(db.prisma);
});

afterAll(async () => {
  await db.drop();
});

describe('tournament re-entry', () => {
  it('marking an entry out makes it busted, off its table and unplaced; again changes nothing; refused for an entry not in play', async () => {
    const t = await running(RE_ENTRY, {}, true);
    const [a, b] = t.entries;
    expect(await out(t.id, a!.id)).toEqual({ replayed: false });
    const busted = await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: a!.id } });
    expect(busted).toMatchObject({ status: 'busted', tableId: null, place: null, prize: 0n, finishedAt: null });
    expect(await out(t.id, a!.id)).toEqual({ replayed: true });
    expect(await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: a!.id } })).toEqual(busted);

    // A finished entry is out already.
    await awardTournamentPlace(db.prisma, { tournamentId: t.id, entryId: b!.id, place: 2, prize: 0n });
    expect(await out(t.id, b!.id)).toEqual({ replayed: true });
    expect((await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: b!.id } })).status).toBe('finished');

    // A late entry not seated yet, a refunded entry and an unknown one are not in play.
    const late = await newPlayer();
    const { entry: lateEntry } = await register(t.id, late.id);
    const refundedEntry = (await rowsOf(t.id)).find((e) => e.userId === t.quitter!.id)!;
    expect(refundedEntry.status).toBe('refunded');
    const before = await rowsOf(t.id);
    for (const entryId of [lateEntry.id, refundedEntry.id, crypto.randomUUID()]) {
      expect((await refusal(out(t.id, entryId))).reason).toBe('not_registered');
    }
    expect(await rowsOf(t.id)).toEqual(before);

    // Before the start, nothing is in play.
    const { id: waiting } = await createTournament(db.prisma, scheduled(RE_ENTRY));
    const early = await register(waiting, (await newPlayer()).id);
    expect((await refusal(out(waiting, early.entry.id))).reason).toBe('not_running');
    expect((await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: early.entry.id } })).status).toBe(
      'registered',
    );
    await expectConserved();
  });

  it('a busted player re-enters: buy-in and fee charged, entry_no 2, registered until seated; past reEntry.max entry_limit, nothing charged', async () => {
    const t = await running();
    const feesBefore = await accountBalance(db.prisma, HOUSE_FEE);
    const a = t.entries[0]!;
    await out(t.id, a.id);

    const { entry, replayed } = await register(t.id, a.userId);
    expect(replayed).toBe(false);
    expect(entry).toMatchObject({ userId: a.userId, entryNo: 2, status: 'registered', place: null, prize: 0n });
    expect(entry.id).not.toBe(a.id);
    expect(await balance(a.userId)).toBe(780n);
    expect(await pool(t.id)).toBe(300n);
    expect((await accountBalance(db.prisma, HOUSE_FEE)) - feesBefore).toBe(10n);
    // The busted entry stays as it was beside the re-entry.
    expect((await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: a.id } })).status).toBe('busted');

    // The director seats the re-entry like any late entry.
    expect(await lateTournamentEntries(db.prisma, t.id)).toEqual([
      { entryId: entry.id, userId: a.userId, entryNo: 2, name: expect.any(String) as string },
    ]);
    await seatTournamentEntry(db.prisma, entry.id, t.tableId);
    expect(await lateTournamentEntries(db.prisma, t.id)).toEqual([]);
    expect((await tournamentPlayers(db.prisma, t.id)).map((p) => p.entryId)).toEqual([
      ...t.entries.map((e) => e.id),
      entry.id,
    ]);

    // Out again, with its one re-entry used.
    await out(t.id, entry.id);
    const before = await rowsOf(t.id);
    const refused = await refusal(register(t.id, a.userId));
    expect(refused.reason).toBe('entry_limit');
    expect(refused.message).toMatch(/1 of 1 re-entries used/);
    expect(await balance(a.userId)).toBe(780n);
    expect(await pool(t.id)).toBe(300n);
    expect(await rowsOf(t.id)).toEqual(before);
    await expectConserved();
  });

  it('a player still in is answered their live entry, the re-entry once they re-entered, and charged nothing', async () => {
    const t = await running();
    const [a, b] = t.entries;
    expect(await register(t.id, b!.userId)).toMatchObject({ entry: { id: b!.id, status: 'playing' }, replayed: true });
    await out(t.id, a!.id);
    const { entry } = await register(t.id, a!.userId);
    expect(await register(t.id, a!.userId)).toEqual({ entry, replayed: true });
    await seatTournamentEntry(db.prisma, entry.id, t.tableId);
    expect(await register(t.id, a!.userId)).toMatchObject({
      entry: { id: entry.id, entryNo: 2, status: 'playing' },
      replayed: true,
    });
    expect(await balance(a!.userId)).toBe(780n);
    expect(await balance(b!.userId)).toBe(890n);
    expect(await db.prisma.tournamentEntry.count({ where: { tournamentId: t.id, userId: a!.userId } })).toBe(2);
    await expectConserved();
  });

  it('refuses a re-entry the config does not offer, after closeTournamentReEntry and after registration closes; nothing charged', async () => {
    // Late registration without reEntry: a busted player may not come back.
    const plain = await running({ lateRegistrationLevels: 3 });
    await out(plain.id, plain.entries[0]!.id);
    const none = await refusal(register(plain.id, plain.entries[0]!.userId));
    expect(none.reason).toBe('not_registering');
    expect(none.message).toMatch(/offers no re-entry/);

    // Re-entry closed: a busted player may not come back, a new player still registers late.
    const t = await running();
    const a = t.entries[0]!;
    await out(t.id, a.id);
    const closed = await closeTournamentReEntry(db.prisma, t.id);
    expect(closed).toEqual({ closedAt: expect.any(Date) as Date, replayed: false });
    expect((await db.prisma.tournament.findUniqueOrThrow({ where: { id: t.id } })).reEntryClosedAt).toEqual(
      closed.closedAt,
    );
    expect(await closeTournamentReEntry(db.prisma, t.id)).toEqual({ ...closed, replayed: true });
    const afterClose = await refusal(register(t.id, a.userId));
    expect(afterClose.reason).toBe('not_registering');
    expect(afterClose.message).toMatch(/re-entry is closed/);
    expect((await register(t.id, (await newPlayer()).id)).replayed).toBe(false);

    // Registration closed: no re-entry either, though the director never closed re-entry.
    const u = await running();
    await out(u.id, u.entries[0]!.id);
    await closeTournamentRegistration(db.prisma, u.id);
    const afterRegistration = await refusal(register(u.id, u.entries[0]!.userId));
    expect(afterRegistration.reason).toBe('not_registering');
    expect(afterRegistration.message).toMatch(/late registration is closed/);

    for (const p of [plain.entries[0]!, a, u.entries[0]!]) expect(await balance(p.userId)).toBe(890n);
    expect([await pool(plain.id), await pool(t.id), await pool(u.id)]).toEqual([200n, 300n, 200n]);

    // A first close needs a running tournament.
    const { id: waiting } = await createTournament(db.prisma, scheduled(RE_ENTRY));
    expect((await refusal(closeTournamentReEntry(db.prisma, waiting))).reason).toBe('not_running');
    await expectConserved();
  });

  it('reEntryOpen: the config has reEntry, late registration is open, re-entry not closed', () => {
    const open = { reEntryMax: 1, lateRegistrationLevels: 3, registrationClosedAt: null, reEntryClosedAt: null };
    expect(reEntryOpen(open)).toBe(true);
    expect(reEntryOpen({ ...open, reEntryMax: 0 })).toBe(false);
    expect(reEntryOpen({ ...open, lateRegistrationLevels: 0 })).toBe(false);
    expect(reEntryOpen({ ...open, registrationClosedAt: new Date() })).toBe(false);
    expect(reEntryOpen({ ...open, reEntryClosedAt: new Date() })).toBe(false);
  });

  it('a re-entry does not take another place in the field: a full field still takes a busted player back, not a new one', async () => {
    const t = await running(RE_ENTRY, { maxEntrants: 3 });
    const a = t.entries[0]!;
    await out(t.id, a.id);
    await register(t.id, a.userId);
    // Two players in a field of three: a new player still has a place.
    const third = await newPlayer();
    expect((await register(t.id, third.id)).replayed).toBe(false);
    const fourth = await newPlayer();
    const full = await refusal(register(t.id, fourth.id));
    expect(full.reason).toBe('full');
    expect(full.message).toMatch(/3 of 3/);
    // Full, a busted player may still re-enter.
    const b = t.entries[1]!;
    await out(t.id, b.id);
    expect(await register(t.id, b.userId)).toMatchObject({ entry: { entryNo: 2 }, replayed: false });
    expect(await balance(fourth.id)).toBe(1_000n);
    expect(await pool(t.id)).toBe(500n);
    expect((await closeTournamentRegistration(db.prisma, t.id)).entries).toBe(5);
    await expectConserved();
  });

  it('a busted entry is placed and paid like a playing one, and holds the finish until it is', async () => {
    const t = await running({ lateRegistrationLevels: 3 });
    const [a, b] = t.entries;
    await out(t.id, a!.id);
    await closeTournamentRegistration(db.prisma, t.id);
    // The last player standing wins the pool; the bust is not placed yet.
    await awardTournamentPlace(db.prisma, { tournamentId: t.id, entryId: b!.id, place: 1, prize: 150n });
    const notOver = await refusal(finishTournament(db.prisma, t.id));
    expect(notOver.reason).toBe('not_over');
    expect(notOver.message).toMatch(/1 entries in play or not placed/);
    expect((await db.prisma.tournament.findUniqueOrThrow({ where: { id: t.id } })).status).toBe('running');

    const award = { tournamentId: t.id, entryId: a!.id, place: 2, prize: 50n };
    expect(await awardTournamentPlace(db.prisma, award)).toEqual({ replayed: false });
    expect(await awardTournamentPlace(db.prisma, award)).toEqual({ replayed: true });
    expect(await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: a!.id } })).toMatchObject({
      status: 'finished',
      place: 2,
      prize: 50n,
      tableId: null,
    });
    expect(await balance(a!.userId)).toBe(940n);
    expect(await finishTournament(db.prisma, t.id)).toEqual({ replayed: false });
    await expectConserved();
  });

  it('concurrent re-entries of one player make one entry and one charge', async () => {
    const t = await running(RE_ENTRY, {}, false);
    const a = t.entries[0]!;
    await out(t.id, a.id);
    const results = await Promise.all(Array.from({ length: 6 }, () => register(t.id, a.userId)));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entry.id)).size).toBe(1);
    expect(results[0]!.entry.entryNo).toBe(2);
    expect(await balance(a.userId)).toBe(780n);
    expect(await pool(t.id)).toBe(300n);
    expect(await db.prisma.tournamentEntry.count({ where: { tournamentId: t.id, userId: a.userId } })).toBe(2);
    await expectConserved();
  });

  it('the audit is clean after a full run with a re-entry, and names a finished tournament left with a busted entry', async () => {
    const t = await running(RE_ENTRY, { maxEntrants: 3 });
    const [a, b] = t.entries;
    const late = await newPlayer();
    const { entry: lateEntry } = await register(t.id, late.id);
    await seatTournamentEntry(db.prisma, lateEntry.id, t.tableId);
    await out(t.id, a!.id);
    const { entry: again } = await register(t.id, a!.userId);
    await seatTournamentEntry(db.prisma, again.id, t.tableId);
    await closeTournamentReEntry(db.prisma, t.id);
    await out(t.id, lateEntry.id);
    await expectConserved();
    expect(await closeTournamentRegistration(db.prisma, t.id)).toMatchObject({ entries: 4, prizePool: 400n });

    // The field is final: the busts are placed, then the rest as they go out.
    const places: Array<[string, number, bigint]> = [
      [a!.id, 4, 0n],
      [lateEntry.id, 3, 0n],
      [again.id, 2, 150n],
      [b!.id, 1, 250n],
    ];
    for (const [entryId, place, prize] of places) {
      await awardTournamentPlace(db.prisma, { tournamentId: t.id, entryId, place, prize });
    }
    await finishTournament(db.prisma, t.id);
    expect(await pool(t.id)).toBe(0n);
    expect(await balance(a!.userId)).toBe(1_000n - 220n + 150n);
    await expectConserved();

    // A finished tournament with an entry left busted (as if the director never placed it).
    await db.prisma.tournamentEntry.update({
      where: { id: lateEntry.id },
      data: { status: 'busted', place: null, finishedAt: null },
    });
    try {
      const { issues } = await runAudit(db.prisma);
      expect(issues).toEqual([
        expect.objectContaining({
          code: 'tournament_money',
          message: expect.stringMatching(new RegExp(`tournament ${t.id} is finished with 0 in its pool and 1 entries`)),
        }),
      ]);
    } finally {
      await db.prisma.tournamentEntry.update({
        where: { id: lateEntry.id },
        data: { status: 'finished', place: 3, finishedAt: new Date() },
      });
    }
    await expectConserved();
  });
});
