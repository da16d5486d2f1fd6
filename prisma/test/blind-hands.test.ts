import { SeededRng, type Card } from '@felt/engine';
import {
  HOUSE_RAKE,
  HandRecordInvalidError,
  accountBalance,
  createPgPool,
  createTestDatabase,
  escrowAccount,
  ledgerTotals,
  normalizeHandJob,
  pgErrorInfo,
  persistHand,
  persistHands,
  runAudit,
  type NormalizedHand,
  type PgPool,
  type TestDatabase,
} from '@felt/db';
import type { RoomConfigInput } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RAKED_HOLDEM, createRoom, heldSink } from '../../test/money/fixtures.js';
import { SimTable, type HandJob } from '../../test/money/sim-table.js';

/*
 * Engine-blind hands (docs/fairness.md, "Engine-blind dealing") through the persister's path: the
 * record has no deck and no reveal, its hole cards are dealt unknown, and only what became known (the
 * board, the hands shown) is stored as cards; the money is written exactly as for a standard hand.
 * The hands are real engine hands dealt blind (SimTable with `blind: true`), and the deck the players
 * shuffled is the oracle of which card sat at which deck index.
 */

const PRACTICE_BLIND: RoomConfigInput = {
  ...RAKED_HOLDEM,
  rake: { percent: 0 },
  practiceChips: true,
  dealing: 'engine_blind',
};

let db: TestDatabase;
let pool: PgPool;

beforeAll(async () => {
  db = await createTestDatabase({ prefix: 'felt_blind' });
  pool = createPgPool(db.url, { max: 3 });
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

type Op = {
  type: string;
  seat?: number;
  street?: number;
  cards?: string[];
  indices?: number[];
  unknown?: true;
  reason?: string;
};
type Rec = {
  hand: { setup: { deck: string[]; dealing?: string; deckSeed?: string }; operations: Op[] };
  reveal?: unknown;
};
const rec = (job: HandJob): Rec => job.payload as unknown as Rec;

/** A room whose table dealt `hands` engine-blind hands, none persisted yet, and the players' decks. */
async function blindRoom(
  tag: string,
  hands: number,
  config: RoomConfigInput = PRACTICE_BLIND,
): Promise<{ roomId: string; userIds: string[]; jobs: HandJob[]; decks: ReadonlyMap<string, readonly Card[]> }> {
  const room = await createRoom(
    db.prisma,
    Array.from({ length: 4 }, (_, i) => ({ name: `${tag}${i}`, buyIn: 150 + 10 * i })),
    config,
  );
  const sink = heldSink();
  const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng(`blind-${tag}`), { blind: true });
  for (let i = 0; i < hands; i++) {
    // Fixed seeds: a table whose players went broke this early would fail the same way every run.
    if (!(await t.playHand())) throw new Error(`room ${tag} could play only ${i} hands`);
  }
  return { roomId: room.roomId, userIds: room.users.map((u) => u.id), jobs: sink.hands, decks: t.playersDecks };
}

/** What the record makes known: the board, and each shown hand at its seat's deck indices in deal order. */
function knownCards(job: HandJob): { deckIndex: number; card: string; kind: string; seat: number | null }[] {
  const ops = rec(job).hand.operations;
  const hole = new Map<number, number[]>();
  const out: { deckIndex: number; card: string; kind: string; seat: number | null }[] = [];
  for (const op of ops) {
    if (op.type === 'deal_hole') hole.set(op.seat!, [...(hole.get(op.seat!) ?? []), ...op.indices!]);
    if (op.type === 'deal_board') {
      op.cards!.forEach((card, i) => out.push({ deckIndex: op.indices![i]!, card, kind: 'board', seat: null }));
    }
    if (op.type === 'show') {
      op.cards!.forEach((card, i) =>
        out.push({ deckIndex: hole.get(op.seat!)![i]!, card, kind: 'hole', seat: op.seat! }),
      );
    }
  }
  return out.sort((a, b) => a.deckIndex - b.deckIndex);
}

/** Deck indices of hole cards nobody showed: what must never be stored as a card. */
function unshownHoleIndices(job: HandJob): number[] {
  const ops = rec(job).hand.operations;
  const shown = new Set(ops.filter((o) => o.type === 'show').map((o) => o.seat));
  return ops.flatMap((o) => (o.type === 'deal_hole' && !shown.has(o.seat) ? o.indices! : []));
}

async function audited(): Promise<void> {
  expect((await runAudit(db.prisma)).issues).toEqual([]);
  const t = await ledgerTotals(db.prisma);
  expect([t.unbalancedTransactions, t.driftedAccounts, t.negativeAccounts]).toEqual([0, 0, 0]);
}

describe('an engine-blind hand record (normalizeHandJob)', () => {
  it('knows the board and the shown hands only, each at its deck index; no seeds', async () => {
    const { jobs, decks } = await blindRoom('n', 16);
    const seen = { showdownShows: 0, voluntaryShows: 0, mucks: 0, unshownHoleCards: 0, boards: 0 };
    for (const job of jobs) {
      expect(rec(job).reveal).toBeUndefined();
      expect(rec(job).hand.setup).toMatchObject({ dealing: 'blind', deck: [] });
      const hand = normalizeHandJob(clone(job));
      expect(hand.dealing).toBe('engine_blind');
      expect(hand.seeds).toBeNull();
      expect(hand.cards.map(({ deckIndex, card, kind, seat }) => ({ deckIndex, card, kind, seat }))).toEqual(
        knownCards(job),
      );
      // The players' deck is the truth: every stored card is the one at its index.
      const deck = decks.get(job.hand_id)!;
      for (const c of hand.cards) expect(c.card, `deck index ${c.deckIndex}`).toBe(deck[c.deckIndex]);
      const unshown = unshownHoleIndices(job);
      for (const c of hand.cards) expect(unshown).not.toContain(c.deckIndex);
      for (const c of hand.cards.filter((x) => x.kind === 'hole')) expect(c.faceUp).toBe(false);
      expect(hand.board).toEqual(hand.cards.filter((c) => c.kind === 'board').map((c) => c.card));
      for (const op of rec(job).hand.operations) {
        if (op.type === 'show' && op.reason === 'blind_show') seen.showdownShows++;
        if (op.type === 'show' && op.reason === 'voluntary') seen.voluntaryShows++;
        if (op.type === 'muck') seen.mucks++;
        if (op.type === 'deal_hole') expect(op).toMatchObject({ unknown: true, cards: [] });
      }
      seen.unshownHoleCards += unshown.length;
      if (hand.board.length > 0) seen.boards++;
    }
    // The session had every kind, or the checks above proved little.
    expect(seen.showdownShows).toBeGreaterThan(0);
    expect(seen.voluntaryShows).toBeGreaterThan(0);
    expect(seen.mucks).toBeGreaterThan(0);
    expect(seen.unshownHoleCards).toBeGreaterThan(20);
    expect(seen.boards).toBeGreaterThan(3);
  });

  it('refuses a blind record that carries a deck, a seed or a reveal, a hole card the server knew, or a bad show', async () => {
    const [standard] = (await blindRoomStandard('s')).jobs;
    const { jobs } = await blindRoom('r', 16);
    const has = (j: HandJob, type: string) => rec(j).hand.operations.some((o) => o.type === type);
    const job = jobs.find((j) => has(j, 'show') && has(j, 'deal_board'))!;
    expect(job).toBeDefined();
    expect(() => normalizeHandJob(clone(job))).not.toThrow();
    const cases: [string, HandJob, (r: Rec) => void, RegExp][] = [
      ['a reveal', job, (r) => (r.reveal = rec(standard!).reveal), /has no reveal/],
      ['a deck', job, (r) => (r.hand.setup.deck = rec(standard!).hand.setup.deck), /has no deck/],
      ['a deck seed', job, (r) => (r.hand.setup.deckSeed = '00'.repeat(32)), /no deck seed/],
      [
        'a hole card the server knew',
        job,
        (r) => {
          const deal = r.hand.operations.find((o) => o.type === 'deal_hole')!;
          delete deal.unknown;
          deal.cards = deal.indices!.map((_, i) => (['2c', '3c', '4c', '5c', '6c'] as const)[i]!);
        },
        /deals a hole card the server knew/,
      ],
      [
        'an unknown hole card with a card',
        job,
        (r) => (r.hand.operations.find((o) => o.type === 'deal_hole')!.cards = ['2c']),
        /dealt unknown names cards/,
      ],
      [
        'a show of too few cards',
        job,
        (r) => r.hand.operations.find((o) => o.type === 'show')!.cards!.pop(),
        /shows 1 of 2 hole cards/,
      ],
      [
        'a shown card that is on the board',
        job,
        (r) => {
          const boardCard = r.hand.operations.find((o) => o.type === 'deal_board')!.cards![0]!;
          r.hand.operations.find((o) => o.type === 'show')!.cards![0] = boardCard;
        },
        /a card is known twice/,
      ],
      [
        'a deck index dealt twice',
        job,
        (r) => {
          const deals = r.hand.operations.filter((o) => o.type === 'deal_hole');
          deals[1]!.indices = [...deals[0]!.indices!];
        },
        /deals one deck index twice/,
      ],
      ['no dealing mark', job, (r) => delete r.hand.setup.dealing, /dealt unknown in a standard hand/],
    ];
    for (const [what, base, change, message] of cases) {
      const bad = clone(base);
      change(rec(bad));
      expect(() => normalizeHandJob(bad), what).toThrow(HandRecordInvalidError);
      expect(() => normalizeHandJob(bad), what).toThrow(message);
    }
    // And a standard record still needs its reveal.
    const bare = clone(standard!);
    delete rec(bare).reveal;
    expect(() => normalizeHandJob(bare)).toThrow(/a standard hand needs its reveal/);
  });
});

/** A standard room's first hand: the material the refusals above borrow. */
async function blindRoomStandard(tag: string): Promise<{ jobs: HandJob[] }> {
  const room = await createRoom(db.prisma, [
    { name: `${tag}a`, buyIn: 100 },
    { name: `${tag}b`, buyIn: 100 },
  ]);
  const sink = heldSink();
  const t = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng(`standard-${tag}`));
  await t.playHand();
  return { jobs: sink.hands };
}

describe('persisting engine-blind hands', () => {
  async function stored(handId: string) {
    return db.prisma.hand.findFirstOrThrow({
      where: { handId },
      include: { players: true, cards: { orderBy: { deckIndex: 'asc' } }, actions: true },
    });
  }

  async function escrows(roomId: string, userIds: readonly string[]): Promise<bigint[]> {
    return Promise.all(userIds.map((u) => accountBalance(db.prisma, escrowAccount(roomId, u))));
  }

  it('writes a practice room’s blind hands with the known cards only, no seeds, and the money as any hand', async () => {
    const { roomId, userIds, jobs } = await blindRoom('p', 10);
    const before = await escrows(roomId, userIds);
    const nets = new Map<string, bigint>();
    for (const job of jobs) {
      const hand = normalizeHandJob(clone(job));
      expect((await persistHand(db.prisma, hand)).result).toBe('written');
      for (const p of hand.players) nets.set(p.userId, (nets.get(p.userId) ?? 0n) + p.net);
      const row = await stored(job.hand_id);
      expect(row).toMatchObject({
        dealing: 'engine_blind',
        seedCommit: null,
        serverSeed: null,
        clientSeeds: null,
        deckSeed: null,
        derivation: null,
        deckKind: null,
        voidedReason: null,
        rake: 0n,
        board: hand.board,
      });
      expect(row.cards.map(({ deckIndex, card, kind, seat }) => ({ deckIndex, card, kind, seat }))).toEqual(
        knownCards(job),
      );
      expect(row.actions).toHaveLength(rec(job).hand.operations.length);
      expect(row.players.map((p) => [p.userId, p.net]).sort()).toEqual(
        hand.players.map((p) => [p.userId, p.net]).sort(),
      );
    }
    // Every escrow moved by the player's nets, exactly as a standard hand moves it.
    const after = await escrows(roomId, userIds);
    userIds.forEach((u, i) => expect(after[i]).toBe(before[i]! + (nets.get(u) ?? 0n)));
    expect((await db.prisma.room.findUniqueOrThrow({ where: { id: roomId } })).lastHandNo).toBe(jobs.length);
    // A replay is a no-op.
    const totals = await ledgerTotals(db.prisma);
    expect((await persistHand(db.prisma, normalizeHandJob(clone(jobs[0]!)))).result).toBe('duplicate');
    expect(await ledgerTotals(db.prisma)).toEqual(totals);
    await audited();
  });

  it('takes the rake of a raked room’s blind hands as of any hand, through the batch path too', async () => {
    // Blind dealing is for practice rooms, which take no rake; the persister does not care how a
    // hand was dealt, and this room shows it: its rake moves to the house as a standard hand's does.
    const { roomId, jobs } = await blindRoom('k', 12, RAKED_HOLDEM);
    const hands = jobs.map((j) => normalizeHandJob(clone(j)));
    const rake = hands.reduce((a, h) => a + h.rake, 0n);
    expect(rake).toBeGreaterThan(0n);
    const houseBefore = await accountBalance(db.prisma, HOUSE_RAKE);
    const half = Math.floor(hands.length / 2);
    for (const h of hands.slice(0, half)) expect((await persistHand(db.prisma, h)).result).toBe('written');
    const batch = await persistHands(db.prisma, hands.slice(half), { pool });
    expect(batch.map((o) => (o.ok ? o.result.result : String(o.error)))).toEqual(
      hands.slice(half).map(() => 'written'),
    );
    expect((await accountBalance(db.prisma, HOUSE_RAKE)) - houseBefore).toBe(rake);
    for (const [i, h] of hands.entries()) {
      const row = await stored(h.handId);
      expect(row).toMatchObject({ dealing: 'engine_blind', seedCommit: null, rake: h.rake });
      expect(row.cards.map((c) => c.deckIndex)).toEqual(knownCards(jobs[i]!).map((c) => c.deckIndex));
    }
    expect((await db.prisma.room.findUniqueOrThrow({ where: { id: roomId } })).lastHandNo).toBe(hands.length);
    await audited();
  });

  it('is refused by the database with seeds beside it (hands_dealing)', async () => {
    const { jobs } = await blindRoom('d', 1);
    const hand: NormalizedHand = normalizeHandJob(clone(jobs[0]!));
    const forged: NormalizedHand = {
      ...hand,
      seeds: {
        seedCommit: `sha256:${'00'.repeat(32)}`,
        serverSeed: '00'.repeat(32),
        clientSeeds: [],
        deckSeed: '00'.repeat(32),
        derivation: 'felt-deck/1',
        deckKind: 'standard52',
      },
    };
    const err = await persistHand(db.prisma, forged).then(
      () => null,
      (e: unknown) => e,
    );
    expect(pgErrorInfo(err).sqlState).toBe('23514');
    expect(String((err as Error).message)).toMatch(/hands_dealing/);
    expect(await db.prisma.hand.count({ where: { handId: hand.handId } })).toBe(0);
    // The honest record goes in.
    expect((await persistHand(db.prisma, hand)).result).toBe('written');
  });
});
