import { context, trace, TraceFlags } from '@opentelemetry/api';
import { encodeEnvelope, injectTraceContext, redisKeys, type Redis, type RedisKeys } from '@felt/platform';
import type { EventPublisher, Publication } from '../ports.js';
import { encodePublication, publicationChannel, resetEnvelope } from './publication-envelope.js';

/** Resolves in the event loop's next check phase, after everything the current turn wrote. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Publishes envelopes on the table and user channels of docs/dev/contracts.md.
 *
 * A batch is built and written in the event loop's next turn, not when `publish` is called: the
 * actor calls it at the end of a commit, and the command's answer (the gateway's gRPC ack, written
 * as the commit returns) goes out first instead of waiting for every recipient's envelope to be
 * encoded (docs/architecture.md, "The third round"). `setImmediate` callbacks run in the order
 * they were set, so batches (and a `tableReset` after them) still go out in call order.
 */
export class RedisEventPublisher implements EventPublisher {
  private readonly keys: RedisKeys;
  /**
   * On a Redis Cluster, SPUBLISH: a table's channels (its own and its users') share its hash tag, so a
   * batch goes to the one shard that owns the slot, in order, and no further. A plain PUBLISH has no
   * key: the cluster client would send each to any node, and the bus would copy it to every node.
   */
  private readonly sharded: boolean;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = redisKeys(prefix);
    this.sharded = redis.isCluster;
  }

  async publish(tableId: string, publications: readonly Publication[]): Promise<void> {
    // One pipeline over one connection keeps this batch in order, and in order after the previous
    // batch of the same table: the actor calls publish batch after batch without waiting, each call
    // waits for the next turn in call order, and exec writes each pipeline to the connection (or its
    // offline queue) in that order.
    // The sampled operation that caused this batch (a player's action), if any: carried to the
    // gateways. An unsampled one (most, with a ratio sampler) costs no bytes and no gateway span.
    const span = trace.getSpan(context.active())?.spanContext();
    const sampled = span !== undefined && (span.traceFlags & TraceFlags.SAMPLED) !== 0;
    const traceContext = sampled ? injectTraceContext() : undefined;
    await nextTurn();
    const pipeline = this.redis.pipeline();
    for (const p of publications) {
      const channel = publicationChannel(this.keys, tableId, p);
      const envelope = encodePublication(tableId, p, traceContext);
      if (this.sharded) pipeline.spublish(channel, envelope);
      else pipeline.publish(channel, envelope);
    }
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([err]) => err);
    if (failed?.[0]) throw failed[0];
  }

  async tableReset(tableId: string, tableSeq: number): Promise<void> {
    // Behind any batch published before it.
    await nextTurn();
    const channel = this.keys.table(tableId);
    const envelope = encodeEnvelope(resetEnvelope(tableId, tableSeq));
    if (this.sharded) await this.redis.spublish(channel, envelope);
    else await this.redis.publish(channel, envelope);
  }
}
