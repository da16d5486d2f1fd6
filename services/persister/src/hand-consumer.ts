import { DelayedError, Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  HandJobName,
  handCompletedJobSchema,
  handsQueue,
  handsQueuesInUse,
  type HandsQueueSpec,
  MoneyJobName,
  queueTelemetry,
  redisKeys,
  type HandsQueue,
  type Logger,
  type PersistOutcome,
  type Redis,
  type RedisKeys,
} from '@felt/platform';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { z } from 'zod';
import { HandBatcher } from './hand-batcher.js';
import { HandNotReadyError, PermanentJobError, type MoneyStore } from './money-store.js';

const tracer = trace.getTracer('felt.persister');

/**
 * handCompletedJobSchema with the payload taken as it is: job data comes out of JSON, so the
 * payload is JSON already, and walking it with z.json() cost as much as checking the record itself
 * (the store does that, field by field: normalizeHandJob in @felt/db).
 */
const handJobEnvelope = handCompletedJobSchema.extend({
  payload: z.unknown().refine((v) => v !== undefined, { message: 'Required' }),
});

export interface HandConsumerOptions {
  /** FELT_HANDS_QUEUE: queue 0's name. */
  readonly queueName: string;
  /** FELT_REDIS_PREFIX; BullMQ keys become `<prefix without colon>:<queue>:...`. */
  readonly prefix: string;
  /**
   * The queues to consume (`handsQueuesInUse`: FELT_HANDS_QUEUES of them and any left past them);
   * default queue 0 alone.
   */
  readonly queues?: readonly HandsQueue[];
  /** Must have maxRetriesPerRequest: null. BullMQ does not close it: the caller does. */
  readonly connection: Redis;
  /** Publishes outcomes on `P persist-outcomes`; none: outcomes are only logged and counted. */
  readonly publisher?: Redis;
  readonly store: MoneyStore;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly concurrency: number;
  /** How long a job's lock lasts without renewal: a killed persister's jobs are retried after it. */
  readonly lockDurationMs?: number;
  /** How often stalled jobs (whose lock lapsed) are looked for. */
  readonly stalledIntervalMs?: number;
  /**
   * How long a hand that arrived before an earlier hand of its room naps, per missing hand, before
   * it looks again (it is woken as soon as the earlier hand is written). Default 5 s.
   */
  readonly waitDelayMs?: number;
  /**
   * Hands written together at most (when the store writes batches). The consumer takes up to this
   * many jobs at once, whatever `concurrency` says. Default 16; 1 writes each hand on its own.
   */
  readonly batchMax?: number;
  /** How long the first hand of a batch waits for more before it is written. Default 20 ms. */
  readonly batchWaitMs?: number;
}

type JobResult = { kind: 'hand'; result: string } | { kind: 'cash_out'; status: string };

/**
 * Consumes the hands queue: `hand.completed` (the hand and its ledger entries), `hand.voided`
 * (a void: a hands row, no ledger entries) and `cash_out.requested`. Outcomes, per docs/dev/money-flows.md:
 *
 * - written / duplicate: done (a replay is a no-op);
 * - waiting: an earlier hand of the same room is not persisted yet; the job goes back to the
 *   delayed set without spending an attempt (hands of a room are written in order);
 * - a payload that can never succeed (invalid, conflicting, escrow mismatch) fails at once
 *   (UnrecoverableError), stays in the failed set and is recorded as an incident;
 * - anything else (the database is down) is retried with the job's exponential backoff, and stays
 *   in the failed set when the attempts run out.
 */
export class HandConsumer {
  /** The consumed queues by name (a napping hand's wake-up names its queue). */
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  private readonly firstQueue: string;
  private started = false;
  private closed = false;
  private readonly jobs: Counter<'kind' | 'result'>;
  private readonly handLag: Histogram;
  private readonly waits: Counter;
  private readonly keys: RedisKeys;
  private readonly batcher: HandBatcher | undefined;

  constructor(private readonly o: HandConsumerOptions) {
    const batchMax = o.batchMax ?? 16;
    const writeHands = o.store.writeHands?.bind(o.store);
    this.batcher =
      writeHands && batchMax > 1
        ? new HandBatcher({ maxSize: batchMax, waitMs: o.batchWaitMs ?? 20, write: writeHands })
        : undefined;
    const specs = o.queues ?? [handsQueue({ prefix: o.prefix, name: o.queueName, cluster: o.connection.isCluster }, 0)];
    if (specs.length === 0) throw new Error('a hand consumer needs a queue');
    this.keys = redisKeys(o.prefix);
    this.jobs = new Counter({
      name: 'felt_persister_jobs_total',
      help: 'Jobs by kind (hand, cash_out) and result: written, voided, duplicate, paid, pending, mismatch, invalid, error',
      labelNames: ['kind', 'result'] as const,
      registers: [o.registry],
    });
    this.waits = new Counter({
      name: 'felt_persister_hand_waits_total',
      help: 'Hands put back because an earlier hand of their room was not persisted yet',
      registers: [o.registry],
    });
    this.handLag = new Histogram({
      name: 'felt_persister_hand_lag_seconds',
      help: 'From the end of a hand to its commit in Postgres',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [o.registry],
    });
    this.firstQueue = specs[0]!.name;
    const queues = this.queues;
    new Gauge({
      name: 'felt_persister_queue_depth',
      help: 'Jobs in the hands queues by queue and state',
      labelNames: ['queue', 'state'] as const,
      registers: [o.registry],
      async collect() {
        for (const queue of queues.values()) {
          const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
          for (const [state, n] of Object.entries(counts)) this.set({ queue: queue.name, state }, n);
        }
      },
    });
    new Gauge({
      name: 'felt_persister_queue_lag_seconds',
      help: 'Age of the oldest job waiting in the hands queues (0 when none waits)',
      registers: [o.registry],
      async collect() {
        let oldest = 0;
        for (const queue of queues.values()) oldest = Math.max(oldest, await oldestWaitingAgeSeconds(queue));
        this.set(oldest);
      },
    });
    for (const q of specs) this.consume(q);
  }

  /**
   * Consumes one more queue (one the persister found holding jobs after it started: a worker with a
   * larger FELT_HANDS_QUEUES during a rollout). A queue consumed already is left as it is; false then.
   */
  consume(q: HandsQueue): boolean {
    if (this.closed || this.queues.has(q.name)) return false;
    const o = this.o;
    this.queues.set(
      q.name,
      new Queue(q.name, { connection: o.connection, prefix: q.prefix, telemetry: queueTelemetry() }),
    );
    const worker = new Worker(q.name, (job, token) => this.process(job, token, q.name), {
      connection: o.connection,
      prefix: q.prefix,
      telemetry: queueTelemetry(),
      // Hands are batched from the jobs in flight, so a batch can only be as large as this.
      concurrency: Math.max(o.concurrency, this.batcher ? (o.batchMax ?? 16) : 1),
      autorun: false,
      lockDuration: o.lockDurationMs ?? 30_000,
      stalledInterval: o.stalledIntervalMs ?? 30_000,
      // Every write is idempotent, so a job whose persister died may safely run again.
      maxStalledCount: 5,
      removeOnComplete: { count: 10_000 },
      // removeOnFail left unset: failed jobs are kept for inspection and replay.
    });
    worker.on('failed', (job, err) => {
      if (!job) return;
      const final = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
      o.logger.warn(
        {
          event: 'persist_job_failed',
          jobId: job.id,
          name: job.name,
          queue: q.name,
          attempts: job.attemptsMade,
          final,
          err: err.message,
        },
        final ? 'job failed; it stays in the failed set' : 'job failed; will retry',
      );
      this.publish(job, final ? 'failed' : 'retrying', err instanceof UnrecoverableError ? errorCode(err) : 'error');
    });
    worker.on('error', (err) => o.logger.error({ err, queue: q.name }, 'hand consumer error'));
    this.workers.push(worker);
    if (this.started) this.run(worker);
    return true;
  }

  start(): void {
    this.started = true;
    for (const worker of this.workers) this.run(worker);
  }

  private run(worker: Worker): void {
    void worker
      .run()
      .catch((err: unknown) => this.o.logger.error({ err, queue: worker.name }, 'hand consumer stopped'));
  }

  /** Jobs in the hands queues' failed sets (the money audit counts them as violations). */
  async failedJobs(): Promise<number> {
    let failed = 0;
    for (const queue of this.queues.values()) failed += (await queue.getJobCounts('failed')).failed ?? 0;
    return failed;
  }

  /** The names of the queues consumed. */
  queueNames(): string[] {
    return [...this.queues.keys()];
  }

  isRunning(): boolean {
    return this.workers.every((w) => w.isRunning());
  }

  /**
   * Stops taking jobs and lets those in hand finish; `force` abandons them instead (their locks
   * lapse and another consumer runs them again, as after a crash).
   */
  async close(options: { readonly force?: boolean } = {}): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.close(options.force ?? false)));
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }

  private process(job: Job, token: string | undefined, queueName: string): Promise<JobResult> {
    return tracer.startActiveSpan(
      'persister.' + job.name,
      { kind: SpanKind.CONSUMER, attributes: { 'felt.job_id': job.id ?? '', 'felt.attempt': job.attemptsMade } },
      async (span) => {
        try {
          return await this.dispatch(job, token, span, queueName);
        } catch (err) {
          if (!(err instanceof DelayedError)) {
            span.recordException(err as Error);
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          throw err;
        } finally {
          span.end();
        }
      },
    );
  }

  private async dispatch(
    job: Job,
    token: string | undefined,
    span: { setAttribute(k: string, v: string): unknown },
    queueName: string,
  ): Promise<JobResult> {
    if (job.name === HandJobName.HAND_COMPLETED) {
      const envelope = handJobEnvelope.safeParse(job.data);
      if (!envelope.success) {
        this.jobs.inc({ kind: 'hand', result: 'invalid' });
        throw new UnrecoverableError(`invalid hand job: ${envelope.error.issues[0]?.message ?? 'bad payload'}`);
      }
      try {
        const w = this.batcher ? await this.batcher.submit(job.data) : await this.o.store.writeHand(job.data);
        await this.promoteNext(w.roomId, w.handNo);
        this.jobs.inc({ kind: 'hand', result: w.result });
        if (w.result === 'written') this.handLag.observe(Math.max(0, (Date.now() - w.endedAt.getTime()) / 1000));
        span.setAttribute('felt.result', w.result);
        if (w.result === 'superseded') {
          // Its table lost its checkpoint with Redis's data and went on from the room rows without
          // it, under a later epoch: its chips never moved, and the hand is dropped, not failed.
          this.o.logger.warn(
            { event: 'hand_superseded', handId: w.handId, roomId: w.roomId, handNo: w.handNo },
            'hand not written: its table was rebuilt from the room rows without it',
          );
        } else {
          this.o.logger.info(
            { event: 'hand_persisted', handId: w.handId, roomId: w.roomId, handNo: w.handNo, result: w.result },
            'hand persisted',
          );
        }
        this.publish(job, w.result);
        for (const c of w.cashOuts) {
          this.cashOutSettled(c);
          // Cash-outs that waited for this hand: their tables learn the seats are free in the rows.
          if (c.status !== 'pending') {
            this.send({ kind: 'cash_out', id: c.requestId, room_id: c.roomId, outcome: c.status, attempts: 0 });
          }
        }
        return { kind: 'hand', result: w.result };
      } catch (err) {
        if (err instanceof HandNotReadyError) {
          // Not a failure: the earlier hand is on its way. Back to the delayed set, attempts untouched.
          this.waits.inc();
          this.publish(job, 'waiting');
          if (Date.now() - job.timestamp > 60_000) {
            this.o.logger.warn(
              {
                event: 'hand_waiting',
                handId: err.handId,
                roomId: err.roomId,
                handNo: err.handNo,
                persisted: err.lastHandNo,
              },
              'hand still waits for an earlier hand of its room',
            );
          }
          // The job naps in the delayed set; the hand before it wakes it up as soon as it is written
          // (promoteNext), so the nap is only a fallback, longer the further ahead the hand is.
          // Parking each early hand once keeps a backlog from churning through the queue.
          const distance = Math.min(6, err.handNo - err.lastHandNo - 1);
          const delay = (this.o.waitDelayMs ?? 5_000) * distance * (1 + Math.random() / 4);
          // The wake-up names the queue: with several queues, the next hand's may not be this one.
          await this.o.connection.set(
            this.keys.persistWait(err.roomId, err.handNo),
            `${queueName} ${job.id ?? ''}`,
            'PX',
            600_000,
          );
          await job.moveToDelayed(Date.now() + delay, token);
          // The earlier hand may have been written meanwhile, before this job was in the delayed set.
          if ((await this.o.store.lastHandNo(err.roomId)) >= err.handNo - 1) await job.promote().catch(() => undefined);
          throw new DelayedError();
        }
        throw this.failure('hand', err);
      }
    }
    if (job.name === MoneyJobName.HAND_VOIDED) {
      // A void takes no hand number: it waits for no earlier hand and wakes none.
      try {
        const v = await this.o.store.writeVoided(job.data);
        this.jobs.inc({ kind: 'hand', result: v.result === 'written' ? 'voided' : 'duplicate' });
        span.setAttribute('felt.result', v.result);
        this.o.logger.info(
          { event: 'hand_void_persisted', handId: v.handId, roomId: v.roomId, result: v.result },
          'voided hand persisted',
        );
        this.publish(job, v.result);
        return { kind: 'hand', result: v.result };
      } catch (err) {
        throw this.failure('hand', err);
      }
    }
    if (job.name === MoneyJobName.CASH_OUT_REQUESTED) {
      try {
        const out = await this.o.store.cashOut(job.data);
        this.jobs.inc({ kind: 'cash_out', result: out.replayed ? 'duplicate' : out.status });
        this.cashOutSettled(out);
        this.publish(job, out.status);
        return { kind: 'cash_out', status: out.status };
      } catch (err) {
        throw this.failure('cash_out', err);
      }
    }
    this.jobs.inc({ kind: 'unknown', result: 'invalid' });
    throw new UnrecoverableError(`unknown job name ${job.name}`);
  }

  /** Wakes the room's next hand if it is napping in the delayed set, waiting for this one. */
  private async promoteNext(roomId: string, handNo: number): Promise<void> {
    try {
      const key = this.keys.persistWait(roomId, handNo + 1);
      const waiting = await this.o.connection.get(key);
      if (!waiting) return;
      await this.o.connection.del(key);
      // `<queue> <job id>`; a bare job id (written before there were several queues) is queue 0's.
      const space = waiting.indexOf(' ');
      const [queueName, id] =
        space < 0 ? [this.firstQueue, waiting] : [waiting.slice(0, space), waiting.slice(space + 1)];
      const next = await this.queues.get(queueName)?.getJob(id);
      if (next && (await next.isDelayed())) await next.promote();
    } catch (err) {
      // Only a speed-up: the delay brings the job back anyway.
      this.o.logger.debug({ err, roomId, handNo }, 'next hand not promoted');
    }
  }

  private failure(kind: 'hand' | 'cash_out', err: unknown): unknown {
    if (err instanceof PermanentJobError) {
      this.jobs.inc({ kind, result: err.code === 'escrow_mismatch' ? 'mismatch' : 'invalid' });
      this.o.logger.error({ event: 'persist_job_refused', code: err.code, err: err.message }, 'job refused');
      const refusal = new UnrecoverableError(`${err.code}: ${err.message}`);
      return refusal;
    }
    this.jobs.inc({ kind, result: 'error' });
    return err;
  }

  private cashOutSettled(c: { requestId: string; roomId: string; status: string; paid: bigint | null }): void {
    if (c.status === 'pending') return;
    const line = {
      event: 'cash_out_settled',
      requestId: c.requestId,
      roomId: c.roomId,
      status: c.status,
      paid: c.paid?.toString(),
    };
    if (c.status === 'mismatch') this.o.logger.error(line, 'cash-out refused: escrow does not match the final stack');
    else this.o.logger.info(line, 'cash-out paid');
  }

  private publish(job: Job, outcome: PersistOutcome['outcome'], error?: string): void {
    const data = (job.data ?? {}) as Record<string, unknown>;
    const isHand = job.name === HandJobName.HAND_COMPLETED || job.name === MoneyJobName.HAND_VOIDED;
    const message: PersistOutcome = {
      kind: isHand ? 'hand' : 'cash_out',
      id: text(isHand ? data.hand_id : data.request_id) ?? job.id ?? '',
      room_id: text(data.room_id) ?? '',
      // A void takes no number: the one it would have had is not a persisted hand's.
      ...(typeof data.hand_no === 'number' && job.name !== MoneyJobName.HAND_VOIDED ? { hand_no: data.hand_no } : {}),
      outcome,
      attempts: job.attemptsMade,
      ...(error !== undefined ? { error } : {}),
    };
    this.send(message);
  }

  private send(message: PersistOutcome): void {
    this.o.publisher
      ?.publish(this.keys.persistOutcomes, JSON.stringify(message))
      .catch((err: unknown) => this.o.logger.warn({ err }, 'outcome not published'));
  }
}

/**
 * Every `everyMs`, looks for hands queues past the ones `consumer` reads that hold jobs
 * (`handsQueuesInUse`) and consumes them too: a worker still running with a larger
 * FELT_HANDS_QUEUES during a rollout, or one configured apart from the persisters, never strands a
 * hand or a cash-out. Returns the stop.
 */
export function watchHandsQueues(o: {
  readonly consumer: HandConsumer;
  readonly redis: Redis;
  readonly spec: HandsQueueSpec;
  readonly count: number;
  readonly everyMs: number;
  readonly logger: Logger;
}): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    handsQueuesInUse(o.redis, o.spec, o.count)
      .then((queues) => {
        for (const q of queues) {
          if (o.consumer.consume(q)) {
            o.logger.warn(
              { event: 'hands_queues_draining', queues: [q.name] },
              'a hands queue past FELT_HANDS_QUEUES holds jobs: consuming it too',
            );
          }
        }
      })
      .catch((err: unknown) => o.logger.warn({ err }, 'hands queues not scanned'))
      .finally(() => {
        busy = false;
      });
  }, o.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function errorCode(err: Error): string {
  return /^([a-z_]+):/.exec(err.message)?.[1] ?? 'invalid';
}

/** Age of the oldest waiting job, looking at both ends of the wait list (its order depends on LIFO use). */
async function oldestWaitingAgeSeconds(queue: Queue): Promise<number> {
  const count = await queue.getWaitingCount();
  if (count === 0) return 0;
  const ends = [...(await queue.getWaiting(0, 0)), ...(await queue.getWaiting(count - 1, count - 1))];
  const oldest = Math.min(...ends.map((j) => j.timestamp));
  return Number.isFinite(oldest) ? Math.max(0, (Date.now() - oldest) / 1000) : 0;
}
