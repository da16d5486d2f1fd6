import { context, trace, TraceFlags } from '@opentelemetry/api';
import { encodeEnvelope, injectTraceContext, redisKeys, type Redis, type RedisKeys } from '@felt/platform';
import type { EventPublisher, Publication } from '../ports.js';
import { publicationChannel, publicationEnvelope, resetEnvelope } from './publication-envelope.js';

/** Publishes envelopes on the table and user channels of docs/dev/contracts.md. */
export class RedisEventPublisher implements EventPublisher {
  private readonly keys: RedisKeys;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = redisKeys(prefix);
  }

  async publish(tableId: string, publications: readonly Publication[]): Promise<void> {
    // One pipeline over one connection keeps this batch in order, and in order after the previous
    // batch of the same table: the actor calls publish batch after batch without waiting, and exec
    // writes each pipeline to the connection (or its offline queue) in call order.
    const pipeline = this.redis.pipeline();
    // The sampled operation that caused this batch (a player's action), if any: carried to the
    // gateways. An unsampled one (most, with a ratio sampler) costs no bytes and no gateway span.
    const span = trace.getSpan(context.active())?.spanContext();
    const sampled = span !== undefined && (span.traceFlags & TraceFlags.SAMPLED) !== 0;
    const traceContext = sampled ? injectTraceContext() : undefined;
    for (const p of publications) {
      pipeline.publish(
        publicationChannel(this.keys, tableId, p),
        encodeEnvelope(publicationEnvelope(tableId, p, traceContext)),
      );
    }
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([err]) => err);
    if (failed?.[0]) throw failed[0];
  }

  async tableReset(tableId: string, tableSeq: number): Promise<void> {
    await this.redis.publish(this.keys.table(tableId), encodeEnvelope(resetEnvelope(tableId, tableSeq)));
  }
}
