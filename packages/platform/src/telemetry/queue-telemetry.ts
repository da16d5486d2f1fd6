import { BullMQOtel } from 'bullmq-otel';

/**
 * BullMQ's OpenTelemetry integration for the hands queue: the producer (a worker's outbox) stores the
 * active trace context in each job's options, and the consumer (the persister) processes the job
 * under it, so the trace of the action that ended a hand runs on to its write in Postgres.
 */
export function queueTelemetry(): BullMQOtel {
  return new BullMQOtel({ tracerName: 'felt.hands-queue' });
}
