import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis, handsQueues, type CompletedHandJob } from '@felt/platform';
import type { Msg } from './table-client.js';

const CARD = /^[2-9TJQKA][cdhs]$/;

interface Operation {
  type: string;
  seat?: number;
  cards?: string[];
  visibility?: ('up' | 'down')[];
}

/** What the engine dealt in one hand: the ground truth a privacy check compares messages with. */
export interface HandTruth {
  readonly handId: string;
  /** Seat of each player id dealt in. */
  readonly seatOf: ReadonlyMap<string, number>;
  /**
   * Every card dealt face down, with each seat that held it and from which operation count on
   * (draw games may deal a discarded card again, to someone else).
   */
  readonly hidden: ReadonlyMap<string, readonly { seat: number; from: number }[]>;
  /** Operation count after which a face-down card was turned up (shown), if it ever was. */
  readonly shownAt: ReadonlyMap<string, number>;
  readonly serverSeed: string;
  readonly deckSeed: string;
}

export function truthOf(job: CompletedHandJob): HandTruth {
  // The truth of a standard hand is the table's; an engine-blind hand's is its players' (no reveal).
  const reveal = job.payload.reveal;
  if (reveal === undefined) throw new Error(`hand ${job.hand_id} is engine-blind: the table holds no truth of it`);
  const ops = job.payload.hand.operations as unknown as Operation[];
  const seatOf = new Map(job.payload.seats.map((s) => [s.user_id, s.seat]));
  const hidden = new Map<string, { seat: number; from: number }[]>();
  const shownAt = new Map<string, number>();
  ops.forEach((op, i) => {
    if (op.type === 'deal_hole' && op.seat !== undefined) {
      op.cards?.forEach((c, k) => {
        if (op.visibility?.[k] !== 'up') hidden.set(c, [...(hidden.get(c) ?? []), { seat: op.seat!, from: i + 1 }]);
      });
    }
    if (op.type === 'show') for (const c of op.cards ?? []) if (!shownAt.has(c)) shownAt.set(c, i + 1);
  });
  return {
    handId: job.hand_id,
    seatOf,
    hidden,
    shownAt,
    serverSeed: reveal.server_seed,
    deckSeed: reveal.deck_seed,
  };
}

/**
 * Reads completed-hand jobs from the cluster's BullMQ hands queues (the worker's own records): the
 * `queues` of FELT_HANDS_QUEUES, looked through in turn.
 */
export class HandRecords {
  private readonly redis: Redis;
  private readonly queues: Queue[];
  private readonly cache = new Map<string, HandTruth>();

  constructor(redisUrl: string, prefix: string, queueName = 'hands', queues = 1) {
    this.redis = createRedis(redisUrl, { name: 'test-hand-records', maxRetriesPerRequest: null });
    const spec = { prefix, name: queueName, cluster: this.redis.isCluster };
    this.queues = handsQueues(spec, queues).map((q) => new Queue(q.name, { connection: this.redis, prefix: q.prefix }));
    // Fault tests cut this Redis on purpose: a refused reconnect is expected, and the reads retry.
    this.redis.on('error', () => undefined);
    for (const queue of this.queues) queue.on('error', () => undefined);
  }

  async job(handId: string): Promise<CompletedHandJob | undefined> {
    for (const queue of this.queues) {
      const job = await queue.getJob(handId);
      if (job) return job.data as CompletedHandJob;
    }
    return undefined;
  }

  async truth(handId: string): Promise<HandTruth | undefined> {
    const hit = this.cache.get(handId);
    if (hit) return hit;
    const job = await this.job(handId);
    if (!job) return undefined;
    const t = truthOf(job);
    this.cache.set(handId, t);
    return t;
  }

  async close(): Promise<void> {
    for (const queue of this.queues) await queue.close();
    this.redis.disconnect();
  }
}

export interface Violation {
  readonly recipient: string;
  readonly handId: string;
  readonly type: string;
  readonly what: string;
}

/**
 * Invariant 2 for one recipient: before a hand's seed_reveal, and in every message that is not
 * the seed_reveal itself, no card another seat holds face down may appear unless it was already
 * shown (by hand_seq), and neither the server seed nor the deck seed may appear. A spectator
 * (`userId` null) may see no face-down card at all until it is shown. Messages are scanned deeply,
 * so a card hidden in any field (or in a resync's replayed events) is found.
 */
export function privacyViolations(
  recipient: string,
  userId: string | null,
  messages: readonly Msg[],
  truths: ReadonlyMap<string, HandTruth>,
): Violation[] {
  const out: Violation[] = [];
  const visit = (value: unknown, handId: string | undefined, handSeq: number, top: Msg): void => {
    if (typeof value === 'string') {
      const truth = handId !== undefined ? truths.get(handId) : undefined;
      if (!truth) return;
      if (value === truth.serverSeed || value === truth.deckSeed) {
        out.push({ recipient, handId: truth.handId, type: top.type, what: 'seed before seed_reveal' });
        return;
      }
      if (!CARD.test(value)) return;
      const holders = truth.hidden.get(value);
      if (holders === undefined) return;
      const me = userId !== null ? truth.seatOf.get(userId) : undefined;
      // Holders so far (by hand_seq); a card of the future must not show up at all.
      const sofar = holders.filter((x) => x.from <= handSeq);
      const mine = sofar.some((x) => x.seat === me);
      const shown = truth.shownAt.get(value);
      const foreign = sofar.length === 0 ? holders[0]! : sofar.find((x) => x.seat !== me);
      if (!mine && foreign !== undefined && (shown === undefined || handSeq < shown)) {
        out.push({ recipient, handId: truth.handId, type: top.type, what: `seat ${foreign.seat}'s hidden ${value}` });
      }
      return;
    }
    if (Array.isArray(value)) {
      for (const v of value) visit(v, handId, handSeq, top);
      return;
    }
    if (typeof value === 'object' && value !== null) {
      const o = value as Record<string, unknown>;
      // A seed_reveal discloses the hand by design (docs/fairness.md, honest limits): only the hand is
      // over by then.
      if (o.type === 'seed_reveal') return;
      if ('deck' in o && Array.isArray(o.deck)) {
        out.push({ recipient, handId: handId ?? '', type: top.type, what: 'a deck' });
      }
      const h = typeof o.hand_id === 'string' ? o.hand_id : handId;
      const seq = typeof o.hand_seq === 'number' ? o.hand_seq : h === handId ? handSeq : 0;
      for (const [k, v] of Object.entries(o)) if (k !== 'hand_id') visit(v, h, seq, top);
    }
  };
  for (const m of messages) visit(m, undefined, 0, m);
  return out;
}

/** Hand ids mentioned anywhere in these messages. */
export function handIdsIn(messages: readonly Msg[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) {
    if (typeof m.hand_id === 'string') ids.add(m.hand_id);
    if (m.type === 'resync_response') {
      for (const e of m.replayed_events as Msg[]) if (typeof e.hand_id === 'string') ids.add(e.hand_id);
    }
  }
  return ids;
}
