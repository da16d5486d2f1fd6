import { createHash } from 'node:crypto';
import { z } from 'zod';
import { HandRecordInvalidError } from '../errors.js';

/**
 * The completed-hand record a table worker enqueues and the persister writes (docs/dev/money-flows.md,
 * "Every completed hand"). It is the engine's own output: `hand` is `Hand.toJSON()` (setup and
 * operation log), `settlement` is `hand.settlement`, `reveal` is `toRevealRecord(...)`. Player ids
 * in the setup are user ids. The schema is loose where the engine owns the shape (operations are
 * read by field), strict where money or fairness depends on it.
 *
 * An engine-blind hand (`hand.setup.dealing: 'blind'`, docs/fairness.md) was dealt by its players:
 * no deck, no reveal, hole cards dealt as deck indices only (`deal_hole` with `unknown: true` and no
 * cards); what became known is in the log, the board in `deal_board` and the hands shown in `show`.
 */

export const HAND_RECORD_FORMAT = 'felt-hand-record/1';

const chips = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const signedChips = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const seat = z.number().int().nonnegative().max(255);
const card = z.string().regex(/^[2-9TJQKA][cdhs]$/, { message: 'a card such as "As"' });
const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, {
  message: 'a lowercase uuid',
});
const hex64 = z.string().regex(/^[0-9a-f]{64}$/, { message: '64 lowercase hex digits' });

const setupSchema = z.looseObject({
  handId: z.string().min(1),
  game: z.string().min(1),
  limit: z.string().min(1),
  stakes: z.record(z.string(), z.number()),
  button: seat,
  players: z
    .array(z.looseObject({ seat, id: uuid, stack: chips, name: z.string().max(64).optional() }))
    .min(2)
    .max(10),
  forcedBets: z.array(z.looseObject({ seat, kind: z.string(), amount: chips })),
  deck: z.array(card),
  /** Absent in standard hands; `blind` for an engine-blind one. */
  dealing: z.enum(['standard', 'blind']).optional(),
  deckSeed: z.string().optional(),
});

/** One engine operation; only the fields the history needs are typed, the rest is kept verbatim. */
const operationSchema = z.looseObject({
  type: z.string().min(1).max(32),
  seat: seat.optional(),
  street: z.number().int().nonnegative().optional(),
  amount: chips.optional(),
  to: chips.optional(),
  allIn: z.boolean().optional(),
  timeout: z.literal(true).optional(),
  cards: z.array(card).optional(),
  indices: z.array(z.number().int().nonnegative()).optional(),
  visibility: z.array(z.enum(['up', 'down'])).optional(),
  /** A hole card of an engine-blind hand: dealt by deck index, its card unknown to everyone but its owner. */
  unknown: z.literal(true).optional(),
});

const settlementSchema = z.looseObject({
  handId: z.string(),
  showdown: z.boolean(),
  pots: z.array(
    z.looseObject({
      index: z.number().int().nonnegative(),
      amount: chips,
      from: chips,
      to: chips,
      eligible: z.array(seat),
      contested: z.boolean(),
      rake: chips,
      winners: z.array(z.looseObject({ seat, side: z.string(), gross: chips, net: chips })),
    }),
  ),
  uncalled: z.array(z.looseObject({ seat, amount: chips })),
  rake: z.looseObject({ amount: chips }),
  players: z.array(
    z.looseObject({
      seat,
      id: z.string(),
      startingStack: chips,
      contributed: chips,
      returned: chips,
      won: chips,
      rakePaid: chips,
      finalStack: chips,
      net: signedChips,
      folded: z.boolean(),
    }),
  ),
});

const revealSchema = z.looseObject({
  hand_id: z.string(),
  seed_commit: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  server_seed: hex64,
  client_seeds: z.array(z.strictObject({ seat, seed: hex64 })),
  deck_seed: hex64,
  variant: z.string().min(1),
  version: z.string().min(1),
  deck: z.enum(['standard52', 'short36']).optional(),
  dealt: z.array(z.strictObject({ index: z.number().int().nonnegative(), card })),
  reshuffles: z.array(z.strictObject({ at_index: z.number().int().nonnegative(), discards: z.array(card) })).optional(),
});

export const handRecordSchema = z.looseObject({
  format: z.literal(HAND_RECORD_FORMAT),
  hand: z.looseObject({
    format: z.literal('felt-hand/1'),
    setup: setupSchema,
    operations: z.array(operationSchema).min(1),
  }),
  settlement: settlementSchema,
  /** Required for a standard hand; an engine-blind hand has none (no seed: its players dealt it). */
  reveal: revealSchema.optional(),
  /** Top-ups the worker added to stacks since the previous hand it reported, before this one started. */
  top_ups: z
    .array(z.strictObject({ id: uuid, applied: chips }))
    .max(100)
    .default([]),
});
export type HandRecord = z.infer<typeof handRecordSchema>;

/** The job envelope's fields (handCompletedJobSchema in @felt/platform) that the money path needs. */
export const handEnvelopeSchema = z.looseObject({
  hand_id: z.string().min(1).max(128),
  room_id: uuid,
  hand_no: z.number().int().min(1),
  epoch: z.number().int().positive().optional(),
  game: z.string().min(1).max(64),
  limit: z.string().min(1).max(32),
  blinds: z.json(),
  started_at: z.iso.datetime({ offset: true }),
  ended_at: z.iso.datetime({ offset: true }),
});

export interface NormalizedPlayer {
  readonly seat: number;
  readonly userId: string;
  readonly name: string | null;
  readonly startingStack: bigint;
  readonly contributed: bigint;
  readonly returned: bigint;
  readonly won: bigint;
  readonly rakePaid: bigint;
  readonly finalStack: bigint;
  readonly net: bigint;
  readonly folded: boolean;
}

export interface NormalizedAction {
  readonly seq: number;
  readonly type: string;
  readonly seat: number | null;
  readonly street: number | null;
  readonly amount: bigint | null;
  readonly to: bigint | null;
  readonly allIn: boolean | null;
  readonly timeout: boolean;
  readonly data: Record<string, unknown>;
}

/** How a hand was dealt, as `hands.dealing` stores it. */
export const HandDealing = { STANDARD: 'standard', ENGINE_BLIND: 'engine_blind' } as const;
export type HandDealing = (typeof HandDealing)[keyof typeof HandDealing];

/** The reveal material of a standard hand (docs/fairness.md), as the `hands` row stores it. */
export interface NormalizedSeeds {
  readonly seedCommit: string;
  readonly serverSeed: string;
  readonly clientSeeds: { seat: number; seed: string }[];
  readonly deckSeed: string;
  readonly derivation: string;
  readonly deckKind: string | null;
}

/**
 * A card the hand record makes known, with its deck index: every dealt card of a standard hand; of an
 * engine-blind hand, the board and the hole cards shown.
 */
export interface NormalizedCard {
  readonly deckIndex: number;
  readonly card: string;
  readonly kind: 'hole' | 'board';
  readonly seat: number | null;
  readonly street: number;
  readonly faceUp: boolean;
}

export interface NormalizedPot {
  readonly index: number;
  readonly amount: bigint;
  readonly from: bigint;
  readonly to: bigint;
  readonly eligible: number[];
  readonly contested: boolean;
  readonly rake: bigint;
  readonly winners: { seat: number; side: string; gross: number; net: number }[];
}

/** A validated hand, in the shape the persister writes. */
export interface NormalizedHand {
  readonly handId: string;
  readonly roomId: string;
  readonly handNo: number;
  /** The lease epoch the worker queued the hand under, when it said (sealRoomRebuild). */
  readonly epoch?: number;
  readonly game: string;
  readonly limit: string;
  readonly blinds: unknown;
  readonly startedAt: Date;
  readonly endedAt: Date;
  readonly button: number;
  readonly players: readonly NormalizedPlayer[];
  readonly actions: readonly NormalizedAction[];
  readonly cards: readonly NormalizedCard[];
  readonly board: readonly string[];
  readonly pots: readonly NormalizedPot[];
  readonly potTotal: bigint;
  readonly rake: bigint;
  readonly dealing: HandDealing;
  /** Null for an engine-blind hand: there is no seed to reveal. */
  readonly seeds: NormalizedSeeds | null;
  readonly topUps: readonly { readonly id: string; readonly applied: bigint }[];
  /** What is stored in hands.payload: the envelope and the record. */
  readonly payload: Record<string, unknown>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function zodProblems(error: z.ZodError, prefix: string): string[] {
  return error.issues.slice(0, 10).map((i) => `${prefix}${i.path.map(String).join('.')}: ${i.message}`);
}

/**
 * Validates a hand job and checks that its money and cards add up, independently of the engine
 * that produced it. The record may sit in the job's `payload` (handCompletedJobSchema as it is) or
 * beside the envelope fields (a schema that extends it); either is read.
 *
 * Throws HandRecordInvalidError listing every problem found.
 */
export function normalizeHandJob(job: unknown): NormalizedHand {
  const hintId = isObject(job) && typeof job.hand_id === 'string' ? job.hand_id : '(unknown)';
  if (!isObject(job)) throw new HandRecordInvalidError(hintId, ['the job is not an object']);
  const env = handEnvelopeSchema.safeParse(job);
  const source = isObject(job.payload) && job.payload.format === HAND_RECORD_FORMAT ? job.payload : job;
  const rec = handRecordSchema.safeParse(source);
  const problems = [
    ...(env.success ? [] : zodProblems(env.error, '')),
    ...(rec.success ? [] : zodProblems(rec.error, source === job ? '' : 'payload.')),
  ];
  if (!env.success || !rec.success) throw new HandRecordInvalidError(hintId, problems);
  const e = env.data;
  const r = rec.data;
  const { setup, operations } = r.hand;
  const s = r.settlement;
  const check = (ok: boolean, problem: string): void => {
    if (!ok) problems.push(problem);
  };

  check(setup.handId === e.hand_id, `hand.setup.handId ${setup.handId} is not the job's hand_id`);
  check(s.handId === e.hand_id, 'settlement.handId is not the job hand_id');
  // A standard hand carries its deck and the reveal of its seeds; an engine-blind one neither.
  const blind = setup.dealing === 'blind';
  const reveal = r.reveal;
  if (blind) {
    check(reveal === undefined, 'an engine-blind hand has no reveal (no seed: its players dealt it)');
    check(setup.deck.length === 0, 'an engine-blind hand has no deck');
    check(setup.deckSeed === undefined, 'an engine-blind hand has no deck seed');
  } else {
    check(reveal !== undefined, 'a standard hand needs its reveal');
    check(reveal === undefined || reveal.hand_id === e.hand_id, 'reveal.hand_id is not the job hand_id');
  }
  const startedAt = new Date(e.started_at);
  const endedAt = new Date(e.ended_at);
  check(endedAt.getTime() >= startedAt.getTime(), 'ended_at is before started_at');

  // Players: the settlement's, matched to the setup's by seat, with ids that are user ids.
  const setupBySeat = new Map(setup.players.map((p) => [p.seat, p]));
  check(setupBySeat.size === setup.players.length, 'hand.setup.players repeats a seat');
  check(new Set(setup.players.map((p) => p.id)).size === setup.players.length, 'a player is dealt in twice');
  check(s.players.length === setup.players.length, 'settlement.players and hand.setup.players differ in size');
  const players: NormalizedPlayer[] = [];
  for (const p of s.players) {
    const sp = setupBySeat.get(p.seat);
    if (!sp) {
      problems.push(`settlement seat ${p.seat} was not dealt in`);
      continue;
    }
    check(sp.id === p.id, `seat ${p.seat}: settlement id ${p.id} is not the setup's ${sp.id}`);
    check(sp.stack === p.startingStack, `seat ${p.seat}: starting stack ${p.startingStack} is not the setup's`);
    check(p.startingStack > 0, `seat ${p.seat}: a dealt-in player needs chips`);
    check(
      p.finalStack === p.startingStack - p.contributed + p.won,
      `seat ${p.seat}: final stack is not start - contributed + won`,
    );
    check(p.net === p.finalStack - p.startingStack, `seat ${p.seat}: net is not final - start`);
    check(p.contributed <= p.startingStack, `seat ${p.seat}: contributed more than the stack`);
    players.push({
      seat: p.seat,
      userId: sp.id,
      name: sp.name ?? null,
      startingStack: BigInt(p.startingStack),
      contributed: BigInt(p.contributed),
      returned: BigInt(p.returned),
      won: BigInt(p.won),
      rakePaid: BigInt(p.rakePaid),
      finalStack: BigInt(p.finalStack),
      net: BigInt(p.net),
      folded: p.folded,
    });
  }
  players.sort((a, b) => a.seat - b.seat);

  // Money: contributions = payouts + rake, per pot and in all; nets and rake sum to zero.
  const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
  const rake = s.rake.amount;
  const contributed = sum(s.players.map((p) => p.contributed));
  const won = sum(s.players.map((p) => p.won));
  const potTotal = sum(s.pots.map((p) => p.amount));
  check(sum(s.players.map((p) => p.net)) + rake === 0, 'nets and rake do not sum to zero');
  check(sum(s.players.map((p) => p.rakePaid)) === rake, 'rake paid by players is not the rake');
  check(contributed === won + rake, `contributions ${contributed} are not payouts ${won} + rake ${rake}`);
  check(potTotal === contributed, `pots hold ${potTotal}, contributions are ${contributed}`);
  check(sum(s.pots.map((p) => p.rake)) === rake, 'pot rakes do not sum to the rake');
  const wonBySeat = new Map<number, number>();
  for (const pot of s.pots) {
    check(sum(pot.winners.map((w) => w.net)) + pot.rake === pot.amount, `pot ${pot.index}: winners + rake != amount`);
    check(pot.to > pot.from, `pot ${pot.index}: empty level range`);
    for (const w of pot.winners) {
      check(pot.eligible.includes(w.seat), `pot ${pot.index}: seat ${w.seat} won without being eligible`);
      const folded = s.players.find((p) => p.seat === w.seat)?.folded ?? true;
      check(!folded, `pot ${pot.index}: seat ${w.seat} won after folding`);
      wonBySeat.set(w.seat, (wonBySeat.get(w.seat) ?? 0) + w.net);
    }
  }
  for (const p of s.players) {
    check((wonBySeat.get(p.seat) ?? 0) === p.won, `seat ${p.seat}: won ${p.won} is not its pot shares`);
  }
  const returnedBySeat = new Map<number, number>();
  for (const u of s.uncalled) returnedBySeat.set(u.seat, (returnedBySeat.get(u.seat) ?? 0) + u.amount);
  for (const p of s.players) {
    check((returnedBySeat.get(p.seat) ?? 0) === p.returned, `seat ${p.seat}: returned is not its uncalled bets`);
  }

  // The operation log, with the street each operation belongs to; every card it makes known; and,
  // per seat, the deck indices of its hole cards in deal order (what an engine-blind show opens).
  const actions: NormalizedAction[] = [];
  const cards: NormalizedCard[] = [];
  const board: string[] = [];
  const dealtIndices: number[] = [];
  const holeBySeat = new Map<number, { index: number; street: number; faceUp: boolean }[]>();
  const shows: { seq: number; seat: number; cards: readonly string[] }[] = [];
  let street = 0;
  operations.forEach((op, seq) => {
    if (op.street !== undefined) street = op.street;
    const dealt = op.cards ?? [];
    if (op.type === 'deal_hole' || op.type === 'deal_board') {
      const indices = op.indices ?? [];
      const hole = op.type === 'deal_hole';
      dealtIndices.push(...indices);
      if (hole && op.seat !== undefined) {
        const list = holeBySeat.get(op.seat) ?? [];
        indices.forEach((index, i) => list.push({ index, street, faceUp: op.visibility?.[i] === 'up' }));
        holeBySeat.set(op.seat, list);
      }
      if (hole && op.unknown === true) {
        // Nobody knew these cards when they were dealt: they get no row unless their owner shows them.
        check(blind, `operation ${seq}: a hole card dealt unknown in a standard hand`);
        check(dealt.length === 0, `operation ${seq}: a hole card dealt unknown names cards`);
        check(indices.length > 0, `operation ${seq}: a hole card dealt unknown without its deck index`);
      } else {
        check(!(blind && hole), `operation ${seq}: an engine-blind hand deals a hole card the server knew`);
        check(indices.length === dealt.length, `operation ${seq}: cards and indices differ in length`);
        dealt.forEach((c, i) => {
          cards.push({
            deckIndex: indices[i] ?? -1,
            card: c,
            kind: hole ? 'hole' : 'board',
            seat: hole ? (op.seat ?? null) : null,
            street,
            faceUp: hole ? op.visibility?.[i] === 'up' : true,
          });
          if (!hole) board.push(c);
        });
      }
      check(op.type !== 'deal_hole' || op.seat !== undefined, `operation ${seq}: hole cards without a seat`);
    }
    if (blind && op.type === 'show' && op.seat !== undefined) shows.push({ seq, seat: op.seat, cards: dealt });
    actions.push({
      seq,
      type: op.type,
      seat: op.seat ?? null,
      street,
      amount: op.amount !== undefined ? BigInt(op.amount) : null,
      to: op.to !== undefined ? BigInt(op.to) : null,
      allIn: op.allIn ?? null,
      timeout: op.timeout === true,
      data: op,
    });
  });
  // The log ends with hand_end, or with shows made after it (the engine records a voluntary show
  // once the hand is over there).
  let end = operations.length - 1;
  while (end > 0 && operations[end]?.type === 'show') end--;
  const last = operations[end];
  check(last?.type === 'hand_end', 'the operation log does not end with hand_end');
  check(operations.filter((op) => op.type === 'hand_end').length === 1, 'the operation log has more than one hand_end');
  const endStacks = isObject(last) && Array.isArray(last.stacks) ? (last.stacks as unknown[]) : [];
  for (const entry of endStacks) {
    if (!isObject(entry)) continue;
    const p = s.players.find((x) => x.seat === entry.seat);
    check(p !== undefined && p.finalStack === entry.stack, `hand_end stack of seat ${String(entry.seat)} disagrees`);
  }

  if (reveal !== undefined) {
    // Fairness material: the commitment opens to the server seed, and the reveal lists exactly the
    // cards the log dealt, at indices 0..k-1.
    const commit = 'sha256:' + createHash('sha256').update(Buffer.from(reveal.server_seed, 'hex')).digest('hex');
    check(commit === reveal.seed_commit, 'seed_commit is not SHA-256 of server_seed');
    const revealed = new Map(reveal.dealt.map((d) => [d.index, d.card]));
    check(revealed.size === reveal.dealt.length, 'reveal.dealt repeats an index');
    for (let i = 0; i < reveal.dealt.length; i++) check(revealed.has(i), `reveal.dealt misses index ${i}`);
    const logged = new Map(cards.map((c) => [c.deckIndex, c.card]));
    check(logged.size === cards.length, 'the log deals one deck index twice');
    check(logged.size === revealed.size, `the log deals ${logged.size} cards, the reveal lists ${revealed.size}`);
    for (const [index, c] of logged) {
      check(
        revealed.get(index) === c,
        `deck index ${index}: the log dealt ${c}, the reveal says ${revealed.get(index)}`,
      );
    }
  }
  if (blind) {
    // No reveal to check against: the log itself must deal deck indices 0..k-1, each once (the
    // players' protocol opens exactly these positions), and a shown hand is the cards its seat was
    // dealt, in deal order (the table passes them so, and the engine keeps that order), each card once.
    const distinct = new Set(dealtIndices);
    check(distinct.size === dealtIndices.length, 'the log deals one deck index twice');
    for (let i = 0; i < dealtIndices.length; i++) check(distinct.has(i), `the log never deals deck index ${i}`);
    const shownSeats = new Set<number>();
    for (const show of shows) {
      const hole = holeBySeat.get(show.seat) ?? [];
      if (shownSeats.has(show.seat)) {
        problems.push(`operation ${show.seq}: seat ${show.seat} shows twice`);
        continue;
      }
      shownSeats.add(show.seat);
      if (show.cards.length !== hole.length) {
        problems.push(
          `operation ${show.seq}: seat ${show.seat} shows ${show.cards.length} of ${hole.length} hole cards`,
        );
        continue;
      }
      show.cards.forEach((c, i) => {
        const dealt = hole[i]!;
        cards.push({
          deckIndex: dealt.index,
          card: c,
          kind: 'hole',
          seat: show.seat,
          street: dealt.street,
          faceUp: dealt.faceUp,
        });
      });
    }
    const known = cards.map((c) => c.card);
    check(new Set(known).size === known.length, 'a card is known twice (on the board or in two shown hands)');
  }
  check(new Set(r.top_ups.map((t) => t.id)).size === r.top_ups.length, 'top_ups repeats an id');

  if (problems.length > 0) throw new HandRecordInvalidError(e.hand_id, problems);
  return {
    handId: e.hand_id,
    roomId: e.room_id,
    handNo: e.hand_no,
    ...(e.epoch !== undefined ? { epoch: e.epoch } : {}),
    game: e.game,
    limit: e.limit,
    blinds: e.blinds,
    startedAt,
    endedAt,
    button: setup.button,
    players,
    actions,
    cards: cards.sort((a, b) => a.deckIndex - b.deckIndex),
    board,
    pots: s.pots.map((p) => ({
      index: p.index,
      amount: BigInt(p.amount),
      from: BigInt(p.from),
      to: BigInt(p.to),
      eligible: [...p.eligible],
      contested: p.contested,
      rake: BigInt(p.rake),
      winners: p.winners.map((w) => ({ seat: w.seat, side: w.side, gross: w.gross, net: w.net })),
    })),
    potTotal: BigInt(potTotal),
    rake: BigInt(rake),
    dealing: blind ? HandDealing.ENGINE_BLIND : HandDealing.STANDARD,
    seeds:
      reveal === undefined
        ? null
        : {
            seedCommit: reveal.seed_commit,
            serverSeed: reveal.server_seed,
            clientSeeds: reveal.client_seeds.map((c) => ({ seat: c.seat, seed: c.seed })),
            deckSeed: reveal.deck_seed,
            derivation: reveal.version,
            deckKind: reveal.deck ?? null,
          },
    topUps: r.top_ups.map((t) => ({ id: t.id, applied: BigInt(t.applied) })),
    payload: job,
  };
}
