import { encodeEnvelope, injectTraceContext, redisKeys, type Redis, type RedisKeys } from '@felt/platform';
import type { EventPublisher, Publication } from '../ports.js';
import { publicationChannel, publicationEnvelope } from './publication-envelope.js';

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
    // batch of the same table (the actor awaits each publish).
    const pipeline = this.redis.pipeline();
    // The traced operation that caused this batch (a player's action), if any: carried to the gateways.
    const traced = injectTraceContext();
    const traceContext = 'traceparent' in traced ? traced : undefined;
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
}
