import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountBalance,
  awardTournamentPlace,
  closeTournamentRegistration,
  createTestDatabase,
  createTournament,
  HOUSE_FEE,
  lateTournamentEntries,
  Ledger,
  openTournamentTables,
  registerTournamentEntry,
  seatTournamentEntry,
  startTournament,
  type TournamentRefusedError,
  unregisterTournamentEntry,
  type NewTournament,
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

const newPlayer = (chips = 1_000n) => playerWithChips(db.prisma, ledger, 'l', chips);

const HOUR = 3600_000;

const scheduled = (lateRegistrationLevels: number, over: Partial<NewTournament> = {}): NewTournament =>
  scheduledTournament('Late', { lateRegistrationLevels }, over);

const balance = (userId: string) => walletBalance(db.prisma, userId);
const pool = (tournamentId: string) => poolBalance(db.prisma, tournamentId);
const register = (tournamentId: string, userId: string, now?: Date) =>
  registerTournamentEntry(db.prisma, { tournamentId, userId, ...(now ? { now } : {}) });

const refusal = tournamentRefusal;
const expectConserved = (): Promise<void> => expectConservedIn(db.prisma);

/** A running scheduled tournament with two players seated at its first table. */
async function running(lateRegistrationLevels: number, over: Partial<NewTournament> = {}) {
  const { id } = await createTournament(db.prisma, scheduled(lateRegistrationLevels, over));
  const first = [await newPlayer(), await newPlayer()];
  for (const p of first) await register(id, p.id);
  const started = await startTournament(db.prisma, id);
  const [tableId] = await openTournamentTables(db.prisma, id, 1);
  for (const e of started.entries) await seatTournamentEntry(db.prisma, e.id, tableId!);
  return { id, tableId: tableId!, entries: started.entries };
}

const rowsOf = async (tournamentId: string) =>
  db.prisma.tournamentEntry.findMany({ where: { tournamentId }, orderBy: { createdAt: 'asc' } });

beforeAll(async () => {
  db = await createTestDatabase();
  ledger = new Ledger(db.prisma);
});

afterAll(async () => {
  await db.drop();
});

describe('late registration', () => {
  it('a running tournament with late registration open takes an entry, paid into the pool, registered until seated', async () => {
    const t = await running(2);
    const feesBefore = await accountBalance(db.prisma, HOUSE_FEE);
    const late = await newPlayer();
    const { entry, replayed } = await register(t.id, late.id);
    expect(replayed).toBe(false);
    expect(entry).toMatchObject({ userId: late.id, entryNo: 1, status: 'registered', place: null });
    expect(await balance(late.id)).toBe(890n);
    expect(await pool(t.id)).toBe(300n);
    expect((await accountBalance(db.prisma, HOUSE_FEE)) - feesBefore).toBe(10n);
    // Registering again is the same entry, charged once.
    expect(await register(t.id, late.id)).toEqual({ entry, replayed: true });
    expect(await balance(late.id)).toBe(890n);
    // A late registration cannot be taken back.
    expect((await refusal(unregisterTournamentEntry(db.prisma, { tournamentId: t.id, userId: late.id }))).reason).toBe(
      'not_registering',
    );

    expect(await lateTournamentEntries(db.prisma, t.id)).toEqual([
      { entryId: entry.id, userId: late.id, entryNo: 1, name: late.name },
    ]);
    await seatTournamentEntry(db.prisma, entry.id, t.tableId);
    await seatTournamentEntry(db.prisma, entry.id, t.tableId);
    const seated = await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: entry.id } });
    expect(seated).toMatchObject({ status: 'playing', tableId: t.tableId });
    expect(await lateTournamentEntries(db.prisma, t.id)).toEqual([]);
    // Seated, the entry is in play: registering again is still the same entry.
    expect(await register(t.id, late.id)).toMatchObject({ entry: { id: entry.id, status: 'playing' }, replayed: true });
    await expectConserved();
  });

  it('after closeTournamentRegistration an entry is refused and nothing changes; the close is idempotent', async () => {
    const t = await running(1);
    const late = await newPlayer();
    await register(t.id, late.id);

    const closed = await closeTournamentRegistration(db.prisma, t.id);
    expect(closed).toEqual({ closedAt: expect.any(Date) as Date, entries: 3, prizePool: 300n, replayed: false });
    const row = await db.prisma.tournament.findUniqueOrThrow({ where: { id: t.id } });
    expect(row.registrationClosedAt).toEqual(closed.closedAt);
    expect(await closeTournamentRegistration(db.prisma, t.id)).toEqual({ ...closed, replayed: true });

    const before = await rowsOf(t.id);
    const tooLate = await newPlayer();
    const refused = await refusal(register(t.id, tooLate.id));
    expect(refused.reason).toBe('not_registering');
    expect(refused.message).toMatch(/late registration is closed/);
    expect(await balance(tooLate.id)).toBe(1_000n);
    expect(await pool(t.id)).toBe(300n);
    expect(await rowsOf(t.id)).toEqual(before);
    // The late registrant who got in before the close is still to be seated.
    expect((await lateTournamentEntries(db.prisma, t.id)).map((e) => e.userId)).toEqual([late.id]);
    await expectConserved();
  });

  it('a running tournament without late registration refuses as before, and its close changes only the column', async () => {
    const t = await running(0);
    const p = await newPlayer();
    const refused = await refusal(register(t.id, p.id));
    expect(refused).toMatchObject({ reason: 'not_registering' });
    expect(refused.message).toMatch(/it is running/);
    expect(await balance(p.id)).toBe(1_000n);
    expect(await closeTournamentRegistration(db.prisma, t.id)).toMatchObject({
      entries: 2,
      prizePool: 200n,
      replayed: false,
    });
    await expectConserved();
  });

  it('close is refused before the start; late registration is open past the start time until the director starts it', async () => {
    const { id } = await createTournament(db.prisma, scheduled(2));
    expect((await refusal(closeTournamentRegistration(db.prisma, id))).reason).toBe('not_running');
    const [a, b] = [await newPlayer(), await newPlayer()];
    await register(id, a.id);
    const pastStart = new Date(Date.now() + 2 * HOUR);
    await register(id, b.id, pastStart);
    // Without late registration, the start time closes it.
    const plain = await createTournament(db.prisma, scheduled(0));
    expect((await refusal(register(plain.id, a.id, pastStart))).reason).toBe('not_registering');
    // Before the start, registered entries are not late ones, and seating does not start them.
    expect(await lateTournamentEntries(db.prisma, id)).toEqual([]);
    const [tableId] = await openTournamentTables(db.prisma, id, 1);
    const [entry] = await rowsOf(id);
    await seatTournamentEntry(db.prisma, entry!.id, tableId!);
    expect((await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: entry!.id } })).status).toBe('registered');
    expect((await startTournament(db.prisma, id)).entries).toHaveLength(2);
    await expectConserved();
  });

  it('busted entries keep their place in the field, and a busted player cannot come back as a late entry', async () => {
    const t = await running(3, { maxEntrants: 3 });
    const third = await newPlayer();
    await register(t.id, third.id);
    // The first player busts: 3rd, no prize. The field is still full.
    const busted = t.entries[0]!;
    await awardTournamentPlace(db.prisma, { tournamentId: t.id, entryId: busted.id, place: 3, prize: 0n });
    const fourth = await newPlayer();
    expect((await refusal(register(t.id, fourth.id))).reason).toBe('full');
    const again = await refusal(register(t.id, busted.userId));
    expect(again.reason).toBe('not_registering');
    expect(again.message).toMatch(/re-entry/);
    expect(await balance(fourth.id)).toBe(1_000n);
    expect(await balance(busted.userId)).toBe(890n);
    expect(await pool(t.id)).toBe(300n);
    await expectConserved();
  });

  it('concurrent late registrations fill the field exactly and charge each player once', async () => {
    const t = await running(2, { maxEntrants: 6 });
    const players = await Promise.all(Array.from({ length: 8 }, () => newPlayer()));
    const results = await Promise.allSettled(players.flatMap((p) => [register(t.id, p.id), register(t.id, p.id)]));
    const entered = new Set(results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.entry.userId] : [])));
    expect(entered.size).toBe(4);
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as TournamentRefusedError).reason).toBe('full');
    }
    for (const p of players) expect(await balance(p.id)).toBe(entered.has(p.id) ? 890n : 1_000n);
    expect(await pool(t.id)).toBe(600n);
    expect(await lateTournamentEntries(db.prisma, t.id)).toHaveLength(4);
    expect((await closeTournamentRegistration(db.prisma, t.id)).entries).toBe(6);
    await expectConserved();
  });
});
