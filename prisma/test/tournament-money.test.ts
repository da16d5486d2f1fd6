import { placePrizes } from '@felt/engine';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountBalance,
  awardTournamentPlace,
  cancelTournament,
  createTestDatabase,
  createTournament,
  finishTournament,
  HOUSE_FEE,
  InsufficientFundsError,
  Ledger,
  postLedgerTransaction,
  registerTournamentEntry,
  runAudit,
  startTournament,
  tournamentPoolAccount,
  TournamentRefusedError,
  unregisterTournamentEntry,
  walletAccount,
  type NewTournament,
  type TestDatabase,
} from '@felt/db';
import {
  expectConserved as expectConservedIn,
  playerWithChips,
  tournamentRefusal,
} from './support/tournament-ledger.js';

let db: TestDatabase;
let ledger: Ledger;

const newPlayer = async (chips = 1_000n): Promise<string> => (await playerWithChips(db.prisma, ledger, 't', chips)).id;

const sitAndGo = (over: Partial<NewTournament> = {}): NewTournament => ({
  name: 'SNG',
  format: 'sit_and_go',
  config: {},
  createdBy: null,
  buyIn: 100n,
  fee: 10n,
  minEntrants: 6,
  maxEntrants: 6,
  startsAt: null,
  ...over,
});

const balance = (userId: string) => accountBalance(db.prisma, walletAccount(userId));
const pool = (tournamentId: string) => accountBalance(db.prisma, tournamentPoolAccount(tournamentId));

const refusal = async (p: Promise<unknown>): Promise<string> => (await tournamentRefusal(p)).reason;
const expectConserved = (): Promise<void> => expectConservedIn(db.prisma);

beforeAll(async () => {
  db = await createTestDatabase();
  ledger = new Ledger(db.prisma);
});

afterAll(async () => {
  await db.drop();
});

describe('tournament money', () => {
  it('a sit-and-go from registration to the winner: buy-ins into the pool, fees to the house, prizes out, the pool empty', async () => {
    const feesBefore = await accountBalance(db.prisma, HOUSE_FEE);
    const { id } = await createTournament(db.prisma, sitAndGo());
    const players = await Promise.all(Array.from({ length: 7 }, () => newPlayer()));
    const entries = [];
    for (const p of players.slice(0, 6))
      entries.push((await registerTournamentEntry(db.prisma, { tournamentId: id, userId: p })).entry);
    expect(await refusal(registerTournamentEntry(db.prisma, { tournamentId: id, userId: players[6]! }))).toBe('full');
    // Registering again is the same entry, paid once.
    const again = await registerTournamentEntry(db.prisma, { tournamentId: id, userId: players[0]! });
    expect(again).toEqual({ entry: entries[0], replayed: true });
    expect(await balance(players[0]!)).toBe(890n);
    expect(await pool(id)).toBe(600n);
    expect((await accountBalance(db.prisma, HOUSE_FEE)) - feesBefore).toBe(60n);

    // One leaves before the start and is paid back; the seventh takes the place.
    await unregisterTournamentEntry(db.prisma, { tournamentId: id, userId: players[5]! });
    expect(await balance(players[5]!)).toBe(1_000n);
    expect(await refusal(unregisterTournamentEntry(db.prisma, { tournamentId: id, userId: players[5]! }))).toBe(
      'not_registered',
    );
    await registerTournamentEntry(db.prisma, { tournamentId: id, userId: players[6]! });
    await expectConserved();

    const started = await startTournament(db.prisma, id);
    expect(started.entries.map((e) => e.status)).toEqual(Array(6).fill('playing'));
    expect((await startTournament(db.prisma, id)).replayed).toBe(true);
    expect(await refusal(registerTournamentEntry(db.prisma, { tournamentId: id, userId: players[5]! }))).toBe(
      'not_registering',
    );
    expect(await refusal(cancelTournament(db.prisma, id))).toBe('not_registering');
    expect(await refusal(finishTournament(db.prisma, id))).toBe('not_over');

    // Places 6 to 1, paid by the standard chart: 65 % and 35 % of 600.
    const prizes = placePrizes(600, 6);
    expect(prizes).toEqual([390, 210]);
    const order = [...started.entries].reverse();
    for (const [i, entry] of order.entries()) {
      const place = 6 - i;
      await awardTournamentPlace(db.prisma, {
        tournamentId: id,
        entryId: entry.id,
        place,
        prize: BigInt(prizes[place - 1] ?? 0),
      });
    }
    expect(
      (await awardTournamentPlace(db.prisma, { tournamentId: id, entryId: order[5]!.id, place: 1, prize: 390n }))
        .replayed,
    ).toBe(true);
    expect(
      await refusal(
        awardTournamentPlace(db.prisma, { tournamentId: id, entryId: order[5]!.id, place: 2, prize: 210n }),
      ),
    ).toBe('place_conflict');
    expect(await pool(id)).toBe(0n);
    expect(await finishTournament(db.prisma, id)).toEqual({ replayed: false });
    expect(await finishTournament(db.prisma, id)).toEqual({ replayed: true });
    const winner = started.entries.find((e) => e.id === order[5]!.id)!;
    expect(await balance(winner.userId)).toBe(890n + 390n);
    await expectConserved();
  });

  it('refuses an entry the wallet cannot pay and writes nothing', async () => {
    const { id } = await createTournament(db.prisma, sitAndGo());
    const poor = await newPlayer(109n);
    await expect(registerTournamentEntry(db.prisma, { tournamentId: id, userId: poor })).rejects.toBeInstanceOf(
      InsufficientFundsError,
    );
    expect(await db.prisma.tournamentEntry.count({ where: { tournamentId: id } })).toBe(0);
    expect(await balance(poor)).toBe(109n);
    expect(await refusal(registerTournamentEntry(db.prisma, { tournamentId: crypto.randomUUID(), userId: poor }))).toBe(
      'not_found',
    );
    // A freeroll costs nothing and posts nothing.
    const free = await createTournament(db.prisma, sitAndGo({ buyIn: 0n, fee: 0n }));
    const broke = await newPlayer(0n);
    expect((await registerTournamentEntry(db.prisma, { tournamentId: free.id, userId: broke })).replayed).toBe(false);
    await expectConserved();
  });

  it('a cancelled tournament refunds every entry once and takes no more', async () => {
    const { id } = await createTournament(
      db.prisma,
      sitAndGo({ format: 'scheduled', startsAt: new Date(Date.now() + 3_600_000), minEntrants: 5, maxEntrants: 50 }),
    );
    const players = await Promise.all(Array.from({ length: 4 }, () => newPlayer()));
    for (const p of players) await registerTournamentEntry(db.prisma, { tournamentId: id, userId: p });
    expect(await refusal(startTournament(db.prisma, id))).toBe('too_few');
    expect(await cancelTournament(db.prisma, id)).toEqual({ refunded: 4, replayed: false });
    expect(await cancelTournament(db.prisma, id)).toEqual({ refunded: 0, replayed: true });
    for (const p of players) expect(await balance(p)).toBe(1_000n);
    expect(await pool(id)).toBe(0n);
    expect(await refusal(registerTournamentEntry(db.prisma, { tournamentId: id, userId: players[0]! }))).toBe(
      'not_registering',
    );
    await expectConserved();
  });

  it('closes registration at the start time, and after five refunds to one player', async () => {
    const startsAt = new Date(Date.now() + 3_600_000);
    const { id } = await createTournament(
      db.prisma,
      sitAndGo({ format: 'scheduled', startsAt, minEntrants: 2, maxEntrants: 50 }),
    );
    const [a, b] = [await newPlayer(), await newPlayer()];
    await registerTournamentEntry(db.prisma, { tournamentId: id, userId: a });
    const late = new Date(startsAt.getTime());
    expect(await refusal(registerTournamentEntry(db.prisma, { tournamentId: id, userId: b, now: late }))).toBe(
      'not_registering',
    );
    expect(await refusal(unregisterTournamentEntry(db.prisma, { tournamentId: id, userId: a, now: late }))).toBe(
      'not_registering',
    );
    // Register and unregister, again and again: each pair leaves rows, so it stops after five.
    await unregisterTournamentEntry(db.prisma, { tournamentId: id, userId: a });
    for (let i = 0; i < 4; i++) {
      await registerTournamentEntry(db.prisma, { tournamentId: id, userId: a });
      await unregisterTournamentEntry(db.prisma, { tournamentId: id, userId: a });
    }
    expect(await refusal(registerTournamentEntry(db.prisma, { tournamentId: id, userId: a }))).toBe('entry_limit');
    expect(await balance(a)).toBe(1_000n);
    await expectConserved();
  });

  it('concurrent registrations fill the field exactly and charge each player once', async () => {
    const { id } = await createTournament(
      db.prisma,
      sitAndGo({ format: 'scheduled', startsAt: new Date(Date.now() + 3_600_000), minEntrants: 2, maxEntrants: 10 }),
    );
    const players = await Promise.all(Array.from({ length: 16 }, () => newPlayer()));
    // Each player clicks three times at once.
    const results = await Promise.allSettled(
      players.flatMap((p) => [0, 1, 2].map(() => registerTournamentEntry(db.prisma, { tournamentId: id, userId: p }))),
    );
    for (const r of results)
      if (r.status === 'rejected') expect((r.reason as TournamentRefusedError).reason).toBe('full');
    expect(await db.prisma.tournamentEntry.count({ where: { tournamentId: id } })).toBe(10);
    const charged = (await Promise.all(players.map(balance))).filter((b) => b === 890n).length;
    expect(charged).toBe(10);
    expect(await pool(id)).toBe(1_000n);
    await expectConserved();
  });

  it('a prize the pool does not hold is refused and the entry stays in play', async () => {
    const { id } = await createTournament(db.prisma, sitAndGo({ minEntrants: 2, maxEntrants: 2 }));
    const [a, b] = [await newPlayer(), await newPlayer()];
    await registerTournamentEntry(db.prisma, { tournamentId: id, userId: a });
    await registerTournamentEntry(db.prisma, { tournamentId: id, userId: b });
    const { entries } = await startTournament(db.prisma, id);
    await expect(
      awardTournamentPlace(db.prisma, { tournamentId: id, entryId: entries[0]!.id, place: 1, prize: 201n }),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    expect((await db.prisma.tournamentEntry.findUniqueOrThrow({ where: { id: entries[0]!.id } })).status).toBe(
      'playing',
    );
    expect(
      await refusal(
        awardTournamentPlace(db.prisma, { tournamentId: id, entryId: entries[0]!.id, place: 0, prize: 1n }),
      ),
    ).toBe('place_conflict');
    await expectConserved();
  });

  it('the audit names a pool that moved outside the entries, and a posting no entry explains', async () => {
    const { id } = await createTournament(db.prisma, sitAndGo({ minEntrants: 2, maxEntrants: 2 }));
    const [a, thief] = [await newPlayer(), await newPlayer()];
    await registerTournamentEntry(db.prisma, { tournamentId: id, userId: a });
    await db.prisma.$transaction((tx) =>
      postLedgerTransaction(tx, {
        idempotencyKey: `tournament-prize:${crypto.randomUUID()}`,
        kind: 'tournament_prize',
        tournamentId: id,
        postings: [
          { account: tournamentPoolAccount(id), amount: -50n },
          { account: walletAccount(thief), amount: 50n },
        ],
      }),
    );
    const report = await runAudit(db.prisma);
    const messages = report.issues.filter((i) => i.code === 'tournament_money').map((i) => i.message);
    expect(messages.some((m) => m.includes(`tournament ${id}: pool 50`))).toBe(true);
    expect(messages.some((m) => m.includes('belongs to no tournament entry'))).toBe(true);
    // The ledger itself still balances: the audit is what sees the theft.
    expect(report.issues.some((i) => i.code === 'system_imbalance')).toBe(false);
  });
});

describe('tournament money, any order of operations', () => {
  it('keeps pool = paid buy-ins - prizes and conserves every chip, whatever players and the organiser do', async () => {
    // A fresh database: the audit test above leaves an issue on purpose.
    const own = await createTestDatabase();
    const prior = { db, ledger };
    db = own;
    ledger = new Ledger(own.prisma);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              fc.record({ op: fc.constant('register' as const), who: fc.integer({ min: 0, max: 5 }) }),
              fc.record({ op: fc.constant('unregister' as const), who: fc.integer({ min: 0, max: 5 }) }),
              fc.record({ op: fc.constant('start' as const) }),
              fc.record({ op: fc.constant('cancel' as const) }),
              fc.record({ op: fc.constant('bust' as const) }),
            ),
            { maxLength: 25 },
          ),
          fc.integer({ min: 0, max: 300 }),
          fc.integer({ min: 0, max: 30 }),
          async (ops, buyIn, fee) => {
            const { id } = await createTournament(
              db.prisma,
              sitAndGo({ buyIn: BigInt(buyIn), fee: BigInt(Math.min(fee, buyIn)), minEntrants: 2, maxEntrants: 4 }),
            );
            const players = await Promise.all(Array.from({ length: 6 }, () => newPlayer(500n)));
            let placesLeft = 0;
            let prizes: number[] = [];
            for (const o of ops) {
              const settle = (p: Promise<unknown>) =>
                p.catch((e: unknown) => expect(e).toBeInstanceOf(TournamentRefusedError));
              if (o.op === 'register')
                await settle(registerTournamentEntry(db.prisma, { tournamentId: id, userId: players[o.who]! }));
              if (o.op === 'unregister')
                await settle(unregisterTournamentEntry(db.prisma, { tournamentId: id, userId: players[o.who]! }));
              if (o.op === 'cancel') await settle(cancelTournament(db.prisma, id));
              if (o.op === 'start') {
                await startTournament(db.prisma, id).then(
                  ({ entries, replayed }) => {
                    if (replayed) return;
                    placesLeft = entries.length;
                    prizes = placePrizes(entries.length * buyIn, Math.max(2, entries.length));
                  },
                  (e: unknown) => expect(e).toBeInstanceOf(TournamentRefusedError),
                );
              }
              if (o.op === 'bust' && placesLeft > 0) {
                const playing = await db.prisma.tournamentEntry.findMany({
                  where: { tournamentId: id, status: 'playing' },
                });
                const out = playing[0]!;
                await awardTournamentPlace(db.prisma, {
                  tournamentId: id,
                  entryId: out.id,
                  place: placesLeft,
                  prize: BigInt(prizes[placesLeft - 1] ?? 0),
                });
                placesLeft--;
                if (placesLeft === 0) await finishTournament(db.prisma, id);
              }
            }
            await expectConserved();
          },
        ),
        { seed: 19, numRuns: 25 },
      );
    } finally {
      db = prior.db;
      ledger = prior.ledger;
      await own.drop();
    }
  });
});
