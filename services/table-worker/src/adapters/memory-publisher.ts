import { isDeepStrictEqual } from 'node:util';
import { decodeEnvelope, encodeEnvelope, redisKeys, type Envelope } from '@felt/platform';
import type { EventPublisher, Publication } from '../ports.js';
import { encodePublication, publicationChannel, resetEnvelope } from './publication-envelope.js';

/** One envelope as a subscriber of its channel receives it. */
export interface Delivery {
  /** The channel name without the Redis prefix: `table:<tableId>` or `user:<userId>`. */
  readonly channel: string;
  readonly envelope: Envelope;
}

const unprefixed = redisKeys('');

/** Throws unless `text` parses to what JSON.stringify(`message`) does. */
function assertSameJson(text: string, message: unknown): void {
  const parsed: unknown = JSON.parse(text);
  const expected: unknown = JSON.parse(JSON.stringify(message));
  if (!isDeepStrictEqual(parsed, expected)) {
    throw new Error(`a publication's text is not its message: ${text} vs ${JSON.stringify(message)}`);
  }
}

/**
 * Fan-out in one process, with RedisEventPublisher's behaviour: each publication becomes the same
 * envelope on the same channel, delivered to this publisher's listeners in order (what a gateway
 * subscribed to that channel would read). Every publication is also kept, in order, in `all`.
 */
export class MemoryEventPublisher implements EventPublisher {
  readonly all: Publication[] = [];
  private readonly listeners = new Set<(delivery: Delivery) => void>();

  publish(tableId: string, publications: readonly Publication[]): Promise<void> {
    for (const p of publications) {
      this.all.push(structuredClone(p));
      const channel = publicationChannel(unprefixed, tableId, p);
      // A prepared text must be the message: every test that publishes through here checks it.
      if (p.text !== undefined) assertSameJson(p.text, p.message);
      // Through the wire format, as a subscriber reads it.
      const envelope = decodeEnvelope(channel, encodePublication(tableId, p));
      for (const listener of [...this.listeners]) listener({ channel, envelope });
    }
    return Promise.resolve();
  }

  tableReset(tableId: string, tableSeq: number): Promise<void> {
    const channel = unprefixed.table(tableId);
    const envelope = decodeEnvelope(channel, encodeEnvelope(resetEnvelope(tableId, tableSeq)));
    for (const listener of [...this.listeners]) listener({ channel, envelope });
    return Promise.resolve();
  }

  /** Calls `listener` with every envelope published from now on; returns the function that stops it. */
  listen(listener: (delivery: Delivery) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  clear(): void {
    this.all.length = 0;
  }
}
