import { randomUUID } from 'node:crypto';
import {
  cashOutJobSchema,
  HandJobName,
  MoneyJobName,
  type CashOutJob,
  type CompletedHandJob,
  type VoidedHandJob,
} from '@felt/platform';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueuedJob } from '../../src/adapters/memory-hand-sink.js';
import type { MoneyJobSink } from '../../src/money/ports.js';

/** One hands-queue adapter with every money job, and a view of the queue behind it. */
export interface HandSinkUnderTest {
  readonly sink: MoneyJobSink & Required<Pick<MoneyJobSink, 'cashOut' | 'voided' | 'pendingHandsOf'>>;
  /** Every job the queue holds, whatever its state. */
  queued(): Promise<QueuedJob[]>;
  /** A consumer (the persister) takes every job there is and finishes it. */
  drain(): Promise<void>;
  close?(): Promise<void>;
}

// The completed hand's record is not checked by the sink (the table built it against the schema);
// only its envelope's ids matter here.
export const completed = (roomId: string, handNo: number, handId = randomUUID()): CompletedHandJob =>
  ({
    hand_id: handId,
    room_id: roomId,
    hand_no: handNo,
    game: 'holdem',
    limit: 'no_limit',
    blinds: { small: 1, big: 2 },
    started_at: '2025-01-01T00:00:00.000Z',
    ended_at: '2025-01-01T00:01:00.000Z',
    payload: { format: 'felt-hand-record/1' },
  }) as unknown as CompletedHandJob;

export const cashOut = (roomId: string, membershipId = randomUUID()): CashOutJob => ({
  request_id: `leave-${membershipId}`,
  room_id: roomId,
  user_id: randomUUID(),
  reason: 'leave',
  last_hand_no: 3,
  final_stack: 180,
  requested_at: '2025-01-01T00:02:00.000Z',
});

const voided = (roomId: string, handId = randomUUID()): VoidedHandJob => ({
  kind: 'voided',
  hand_id: handId,
  room_id: roomId,
  reason: 'checkpoint_lost',
  voided_at: '2025-01-01T00:03:00.000Z',
  players: [{ seat: 1, user_id: randomUUID(), name: 'Ann', stack: 200 }],
});

/**
 * The hand sink contract (MoneyJobSink, services/table-worker/src/money/ports.ts;
 * docs/dev/money-flows.md): each job under its name and id, a re-send a no-op, a malformed money job
 * refused before it is queued, and the room's completed hands pending until they are consumed.
 */
export function describeHandSink(adapter: string, make: () => Promise<HandSinkUnderTest>): void {
  describe(`hand sink contract: ${adapter}`, () => {
    const opened: HandSinkUnderTest[] = [];
    const open = async (): Promise<HandSinkUnderTest> => {
      const s = await make();
      opened.push(s);
      return s;
    };
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close?.();
    });

    it('a completed hand is one `hand.completed` job, id = hand id; sent again, still one', async () => {
      const s = await open();
      const job = completed(randomUUID(), 1);
      await s.sink.enqueue(job);
      await s.sink.enqueue(job);
      expect(await s.queued()).toEqual<QueuedJob[]>([{ name: HandJobName.HAND_COMPLETED, id: job.hand_id, data: job }]);
    });

    it('a cash-out is one `cash_out.requested` job, id `cash-out-<request id>`, as its schema reads it', async () => {
      const s = await open();
      const job = cashOut(randomUUID());
      await s.sink.cashOut(job);
      await s.sink.cashOut({ ...job });
      expect(await s.queued()).toEqual<QueuedJob[]>([
        {
          name: MoneyJobName.CASH_OUT_REQUESTED,
          id: `cash-out-${job.request_id}`,
          // top_ups_applied defaults to none.
          data: { ...job, top_ups_applied: [] },
        },
      ]);
      expect(cashOutJobSchema.parse((await s.queued())[0]!.data)).toEqual({ ...job, top_ups_applied: [] });
    });

    it('a voided hand is one `hand.voided` job, id = hand id; sent again, still one', async () => {
      const s = await open();
      const job = voided(randomUUID());
      await s.sink.voided(job);
      await s.sink.voided(job);
      expect(await s.queued()).toEqual<QueuedJob[]>([{ name: MoneyJobName.HAND_VOIDED, id: job.hand_id, data: job }]);
    });

    it('refuses a cash-out or a void that breaks its schema, and queues nothing', async () => {
      const s = await open();
      const room = randomUUID();
      await expect(s.sink.cashOut({ ...cashOut(room), request_id: 'has:colon' })).rejects.toThrow();
      await expect(s.sink.cashOut({ ...cashOut(room), final_stack: -1 })).rejects.toThrow();
      await expect(s.sink.voided({ ...voided(room), hand_id: 'NOT-A-UUID' })).rejects.toThrow();
      await expect(
        s.sink.voided({ ...voided(room), reason: 'whim' as unknown as VoidedHandJob['reason'] }),
      ).rejects.toThrow();
      expect(await s.queued()).toEqual([]);
    });

    it('one job per id whatever its kind: a hand already queued as voided is not queued again completed', async () => {
      const s = await open();
      const room = randomUUID();
      const handId = randomUUID();
      await s.sink.voided(voided(room, handId));
      await s.sink.enqueue(completed(room, 1, handId));
      const jobs = await s.queued();
      expect(jobs.map((j) => [j.name, j.id])).toEqual([[MoneyJobName.HAND_VOIDED, handId]]);
      expect(await s.sink.pendingHandsOf(room)).toBe(0);
    });

    it("counts the room's completed hands until they are consumed; voids, cash-outs and other rooms do not count", async () => {
      const s = await open();
      const room = randomUUID();
      const other = randomUUID();
      expect(await s.sink.pendingHandsOf(room)).toBe(0);
      await s.sink.enqueue(completed(room, 1));
      await s.sink.enqueue(completed(room, 2));
      await s.sink.enqueue(completed(other, 1));
      await s.sink.voided(voided(room));
      await s.sink.cashOut(cashOut(room));
      expect(await s.sink.pendingHandsOf(room)).toBe(2);
      expect(await s.sink.pendingHandsOf(other)).toBe(1);
      expect(await s.queued()).toHaveLength(5);

      await s.drain();
      expect(await s.sink.pendingHandsOf(room)).toBe(0);
      expect(await s.sink.pendingHandsOf(other)).toBe(0);
      // A hand sent again after it was consumed is still the same job: nothing new to persist.
      const again = (await s.queued()).find((j) => j.name === HandJobName.HAND_COMPLETED)!;
      await s.sink.enqueue(again.data as CompletedHandJob);
      expect(await s.sink.pendingHandsOf((again.data as CompletedHandJob).room_id)).toBe(0);
    });
  });
}
