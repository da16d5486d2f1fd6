import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { bullmqPrefix, HandJobName, handCompletedJobSchema, type Logger, type Redis } from '@felt/platform';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { HandStore, WriteResult } from './hand-store.js';

const tracer = trace.getTracer('felt.persister');

export interface HandConsumerOptions {
  readonly queueName: string;
  /** FELT_REDIS_PREFIX; BullMQ keys become `<prefix without colon>:<queue>:...`. */
  readonly prefix: string;
  /** Must have maxRetriesPerRequest: null. BullMQ does not close it: the caller does. */
  readonly connection: Redis;
  readonly store: HandStore;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly concurrency: number;
}

/**
 * Consumes `hand.completed` jobs. A payload that fails validation can never succeed, so it fails
 * at once (UnrecoverableError) and stays in the failed set; a database error is retried with the
 * job's backoff.
 */
export class HandConsumer {
  private readonly worker: Worker;
  private readonly queue: Queue;
  private readonly jobs: Counter<'result'>;

  constructor(private readonly o: HandConsumerOptions) {
    const prefix = bullmqPrefix(o.prefix);
    this.jobs = new Counter({
      name: 'felt_persister_jobs_total',
      help: 'Hand jobs by result: written, duplicate (replay, no-op), invalid, error (will retry)',
      labelNames: ['result'] as const,
      registers: [o.registry],
    });
    this.queue = new Queue(o.queueName, { connection: o.connection, prefix });
    const queue = this.queue;
    new Gauge({
      name: 'felt_persister_queue_depth',
      help: 'Jobs in the hands queue by state',
      labelNames: ['state'] as const,
      registers: [o.registry],
      async collect() {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
        for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
      },
    });
    this.worker = new Worker(o.queueName, (job) => this.process(job), {
      connection: o.connection,
      prefix,
      concurrency: o.concurrency,
      autorun: false,
      removeOnComplete: { count: 10_000 },
      // removeOnFail left unset: failed jobs are kept for inspection and replay.
    });
    this.worker.on('failed', (job, err) => {
      o.logger.warn({ jobId: job?.id, attempts: job?.attemptsMade, err: err.message }, 'hand job failed');
    });
    this.worker.on('error', (err) => o.logger.error({ err }, 'hand consumer error'));
  }

  start(): void {
    void this.worker.run().catch((err: unknown) => this.o.logger.error({ err }, 'hand consumer stopped'));
  }

  isRunning(): boolean {
    return this.worker.isRunning();
  }

  async close(): Promise<void> {
    await this.worker.close();
    await this.queue.close();
  }

  private process(job: Job): Promise<WriteResult> {
    return tracer.startActiveSpan(
      'persister.hand_completed',
      { kind: SpanKind.CONSUMER, attributes: { 'felt.job_id': job.id ?? '', 'felt.attempt': job.attemptsMade } },
      async (span) => {
        try {
          if (job.name !== HandJobName.HAND_COMPLETED) {
            this.jobs.inc({ result: 'invalid' });
            throw new UnrecoverableError(`unknown job name ${job.name}`);
          }
          const parsed = handCompletedJobSchema.safeParse(job.data);
          if (!parsed.success) {
            this.jobs.inc({ result: 'invalid' });
            throw new UnrecoverableError(`invalid hand job: ${parsed.error.issues[0]?.message ?? 'bad payload'}`);
          }
          let result: WriteResult;
          try {
            result = await this.o.store.write(parsed.data);
          } catch (err) {
            this.jobs.inc({ result: 'error' });
            throw err;
          }
          this.jobs.inc({ result });
          span.setAttribute('felt.result', result);
          this.o.logger.info({ event: 'hand_persisted', handId: parsed.data.hand_id, result }, 'hand persisted');
          return result;
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw err;
        } finally {
          span.end();
        }
      },
    );
  }
}
