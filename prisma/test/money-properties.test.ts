import fc from 'fast-check';
import { Hand, SeededRng, holdem, playOut, randomUuid, simulateSetup, toRevealRecord } from '@felt/engine';
import {
  HAND_RECORD_FORMAT,
  HandNotReadyError,
  HandRecordInvalidError,
  createTestDatabase,
  normalizeHandJob,
  persistHand,
  recordTopUp,
  runAudit,
  withTransaction,
  type TestDatabase,
} from '@felt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom, deliverCashOut, heldSink } from '../../test/money/fixtures.js';
import { SimTable, type HandJob } from '../../test/money/sim-table.js';

/** Settlements where the engine's rake rounding left a pot with negative rake (reported to the engine). */
function negativePotRake(job: HandJob): boolean {
  const s = job.payload.settlement as { pots: { rake: number }[]; players: { rakePaid: number }[] };
  return s.pots.some((p) => p.rake < 0) || s.players.some((p) => p.rakePaid < 0);
}

/** A random engine hand as a job, with uuids for player ids. */
function randomHandJob(seed: string): HandJob {
  const rng = new SeededRng(seed);
  const { setup, commitment } = simulateSetup(
    { rules: holdem, limit: 'nl', players: { min: 2, max: 9 }, rake: true, seed },
    rng,
  );
  const players = setup.players.map((p) => ({ ...p, id: randomUuid(rng) }));
  const rake = setup.rake ? { ...setup.rake, cap: 0 } : null;
  const hand = new Hand({ ...setup, players, rake });
  playOut(hand, rng);
  return {
    hand_id: setup.handId,
    room_id: '00000000-0000-4000-8000-000000000001',
    hand_no: 1,
    game: 'holdem',
    limit: 'nl',
    blinds: { smallBlind: setup.stakes.smallBlind, bigBlind: setup.stakes.bigBlind },
    started_at: '2026-12-01T12:00:00.000Z',
    ended_at: '2026-12-01T12:01:00.000Z',
    payload: {
      format: HAND_RECORD_FORMAT,
      hand: JSON.parse(JSON.stringify(hand.toJSON())) as Record<string, unknown>,
      settlement: JSON.parse(JSON.stringify(hand.settlement)) as Record<string, unknown>,
      reveal: toRevealRecord(commitment, 'holdem', hand.dealtCards()),
      top_ups: [],
    },
  };
}

type Settlement = {
  rake: { amount: number };
  players: Record<'startingStack' | 'contributed' | 'won' | 'rakePaid' | 'finalStack' | 'net', number>[];
  pots: { amount: number; rake: number; winners: { net: number }[] }[];
};

describe('ledger math of a hand (property)', () => {
  it('every engine hand balances: nets + rake = 0, contributions = payouts + rake, cards 0..k-1', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), (seed) => {
        const job = randomHandJob(`p:${seed}`);
        // The engine gives the rake's rounding remainder to one winner across pots, which can leave
        // a pot with negative rake (a chip moved between pots); such hands are refused, see below.
        fc.pre(!negativePotRake(job));
        const hand = normalizeHandJob(job);
        const net = hand.players.reduce((a, p) => a + p.net, 0n);
        const contributed = hand.players.reduce((a, p) => a + p.contributed, 0n);
        const won = hand.players.reduce((a, p) => a + p.won, 0n);
        expect(net + hand.rake).toBe(0n);
        expect(contributed).toBe(won + hand.rake);
        expect(hand.potTotal).toBe(contributed);
        expect(hand.players.every((p) => p.net + p.rakePaid === p.won - p.contributed + p.rakePaid)).toBe(true);
        expect(hand.cards.map((c) => c.deckIndex)).toEqual(hand.cards.map((_, i) => i));
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it('refuses a settlement in which a pot pays a winner more than its gross share (negative pot rake)', () => {
    // The engine never settles this way (its rake allocation keeps every share's rake in [0, gross]),
    // so the settlement is made so by hand: one pot's winner is paid past its gross share, the pot's
    // rake going below zero while the pot still adds up.
    let seen = 0;
    for (let i = 0; i < 400 && seen < 3; i++) {
      const job = randomHandJob(`neg:${i}`);
      expect(negativePotRake(job)).toBe(false);
      const s = job.payload.settlement as Settlement;
      const pot = s.pots.find((p) => p.winners.length > 0);
      if (!pot) continue;
      seen++;
      const over = pot.rake + 1;
      pot.winners[0]!.net += over;
      pot.rake -= over;
      expect(negativePotRake(job)).toBe(true);
      expect(() => normalizeHandJob(job)).toThrow(/rake/);
    }
    expect(seen).toBe(3);
  });

  it('any one chip moved anywhere in a settlement is refused', () => {
    const fields = ['startingStack', 'contributed', 'won', 'rakePaid', 'finalStack', 'net'] as const;
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.constantFrom(...fields, 'pot', 'potRake', 'winner', 'rake'),
        fc.integer({ min: 1, max: 50 }),
        (seed, pick, what, delta) => {
          const job = randomHandJob(`q:${seed}`);
          fc.pre(!negativePotRake(job));
          const s = job.payload.settlement as Settlement;
          const p = s.players[pick % s.players.length]!;
          const pot = s.pots[pick % Math.max(1, s.pots.length)];
          switch (what) {
            case 'pot':
              if (!pot) return;
              pot.amount += delta;
              break;
            case 'potRake':
              if (!pot) return;
              pot.rake += delta;
              break;
            case 'winner':
              if (!pot?.winners[0]) return;
              pot.winners[0].net += delta;
              break;
            case 'rake':
              s.rake.amount += delta;
              break;
            default:
              p[what] += delta;
          }
          expect(() => normalizeHandJob(job)).toThrow(HandRecordInvalidError);
        },
      ),
      { numRuns: 200, seed: 11 },
    );
  });
});

describe('ledger state under any order of delivery (property, real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('hands, top-ups and cash-outs delivered late, shuffled and repeated leave the audit clean', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.constant({ op: 'hand' as const }),
            fc.record({ op: fc.constant('top_up' as const), who: fc.nat(3), amount: fc.integer({ min: 1, max: 150 }) }),
            fc.record({ op: fc.constant('leave' as const), who: fc.nat(3) }),
          ),
          { minLength: 3, maxLength: 10 },
        ),
        fc.string({ maxLength: 8 }),
        fc.array(fc.nat(), { minLength: 30, maxLength: 30 }),
        async (ops, seed, shuffle) => {
          const room = await createRoom(db.prisma, [
            { name: 'q0', buyIn: 120 },
            { name: 'q1', buyIn: 90 },
            { name: 'q2', buyIn: 200 },
            { name: 'q3', buyIn: 60 },
          ]);
          const sink = heldSink();
          // The room id in the seed: hand ids must differ between runs, as they do between tables.
          const table = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng(`prop:${room.roomId}:${seed}`));
          let n = 0;
          for (const o of ops) {
            if (o.op === 'hand') await table.playHand();
            else {
              const u = room.users[o.who]!;
              const m = await db.prisma.membership.findUnique({ where: { id: u.membershipId } });
              if (m?.status !== 'active' || m.leaveRequestedAt) continue;
              if (o.op === 'leave') {
                await db.prisma.membership.update({ where: { id: m.id }, data: { leaveRequestedAt: new Date() } });
              } else {
                await withTransaction(db.prisma, (tx) =>
                  recordTopUp(tx, {
                    roomId: room.roomId,
                    userId: u.id,
                    membershipId: m.id,
                    amount: BigInt(o.amount),
                    idempotencyKey: `top-up:${u.id}:${n++}`,
                    applyNow: false,
                    lastHandNo: 0,
                    now: new Date(),
                  }),
                );
              }
            }
            await table.sync();
          }
          // Deliver everything in a scrambled order, some twice; a hand that comes too early waits.
          type Item = { kind: 'hand'; job: HandJob } | { kind: 'cash'; job: (typeof sink.cashOuts)[number] };
          let queue: Item[] = [
            ...sink.hands.map((job): Item => ({ kind: 'hand', job })),
            ...sink.cashOuts.map((job): Item => ({ kind: 'cash', job })),
          ];
          queue = queue
            .map((x, i) => [x, shuffle[i % shuffle.length]!] as const)
            .sort((a, b) => a[1] - b[1])
            .map(([x]) => x);
          queue.push(...queue.filter((_, i) => shuffle[i % shuffle.length]! % 3 === 0));
          for (let guard = 0; queue.length > 0; guard++) {
            if (guard > 2_000) throw new Error('delivery does not converge');
            const item = queue.shift()!;
            try {
              if (item.kind === 'hand') await persistHand(db.prisma, normalizeHandJob(item.job));
              else await deliverCashOut(db.prisma, item.job);
            } catch (err) {
              if (!(err instanceof HandNotReadyError)) throw err;
              queue.push(item);
            }
          }
          expect((await db.prisma.room.findUniqueOrThrow({ where: { id: room.roomId } })).lastHandNo).toBe(
            table.lastHandNo,
          );
          expect(await db.prisma.cashOut.count({ where: { roomId: room.roomId, status: { not: 'paid' } } })).toBe(0);
          const reads: string[] = [];
          const audit = await runAudit(db.prisma, {
            liveTable: (roomId) => {
              reads.push(roomId);
              return Promise.resolve(roomId === room.roomId ? table.liveMoney() : null);
            },
          });
          expect(audit.issues).toEqual([]);
          expect(audit.imbalance).toBe(0n);
          // The live table was read once, not once per seat still at it.
          expect(reads.filter((r) => r === room.roomId).length).toBeLessThanOrEqual(1);
        },
      ),
      // Each run plays a table against Postgres: few runs, no shrinking (the counterexample is printed).
      { numRuns: 10, seed: 3, endOnFailure: true },
    );
  }, 240_000);
});
