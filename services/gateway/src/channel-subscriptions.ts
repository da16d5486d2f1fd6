import { SpanKind, trace } from '@opentelemetry/api';
import {
  decodeEnvelopeText,
  extractTraceContext,
  type ChannelSubscriber,
  type Envelope,
  type Logger,
  type RedisKeys,
} from '@felt/platform';
import type { Channel, ClientConnection, ConnectionIndex } from './connection-index.js';

const tracer = trace.getTracer('felt.gateway');

interface Subscription {
  count: number;
  ready: Promise<void>;
  off: (() => Promise<void>) | undefined;
}

export interface ChannelSubscriptionsOptions<C extends ClientConnection> {
  readonly subscriber: ChannelSubscriber;
  readonly keys: RedisKeys;
  readonly index: ConnectionIndex;
  readonly logger: Logger;
  /** Delivers one server message (JSON text) to one socket. */
  readonly deliver: (conn: C, text: string) => void;
  /** Tests only (GATEWAY_TEST_DROP_RATE): the fraction of deliveries lost on purpose, as pub/sub may. */
  readonly dropRate: number;
  readonly onDropped: () => void;
  /** A table's worker built it again without its attachments (a `control: "reattach"` envelope). */
  readonly onReattach: (tableId: string) => void;
  /**
   * Sharded pub/sub (SSUBSCRIBE, on a Redis Cluster): each table's channels are subscribed on the shard
   * that owns the table's slot, where its worker SPUBLISHes them.
   */
  readonly sharded?: boolean;
}

/**
 * The Redis pub/sub channels of the tables and users this gateway's sockets are at, each held while
 * any attachment needs it, and the delivery of their envelopes to the connections they address
 * (docs/dev/contracts.md, envelopes).
 */
export class ChannelSubscriptions<C extends ClientConnection> {
  private readonly subs = new Map<string, Subscription>();

  constructor(private readonly o: ChannelSubscriptionsOptions<C>) {}

  /** Holds the channel; resolves once Redis confirmed the subscription. */
  acquire(ch: Channel): Promise<void> {
    const name = this.channelName(ch);
    const existing = this.subs.get(name);
    if (existing) {
      existing.count++;
      return existing.ready;
    }
    const sub: Subscription = { count: 1, ready: Promise.resolve(), off: undefined };
    sub.ready = this.o.subscriber
      .subscribe(name, (message) => this.onMessage(ch, name, message), { sharded: this.o.sharded ?? false })
      .then((off) => {
        sub.off = off;
        // Everyone left while SUBSCRIBE was in flight.
        if (this.subs.get(name) !== sub) void off();
      });
    this.subs.set(name, sub);
    return sub.ready;
  }

  release(ch: Channel): void {
    const name = this.channelName(ch);
    const sub = this.subs.get(name);
    if (!sub) return;
    sub.count--;
    if (sub.count > 0) return;
    this.subs.delete(name);
    if (sub.off) void sub.off();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.subs.values()].map((s) => (s.off ? s.off() : Promise.resolve())));
    this.subs.clear();
  }

  private channelName(ch: Channel): string {
    return ch.kind === 'table' ? this.o.keys.table(ch.tableId) : this.o.keys.userAtTable(ch.tableId, ch.userId);
  }

  private onMessage(ch: Channel, channel: string, text: string): void {
    let envelope: Envelope;
    let msgText: string | undefined;
    try {
      ({ envelope, msgText } = decodeEnvelopeText(channel, text));
    } catch (err) {
      this.o.logger.warn({ err, channel }, 'dropping invalid envelope');
      return;
    }
    if (envelope.control !== undefined) {
      // A notice for this gateway, never delivered to a socket.
      if (envelope.control === 'reattach' && ch.kind === 'table' && envelope.table_id === ch.tableId)
        this.o.onReattach(envelope.table_id);
      return;
    }
    const recipients = this.o.index.recipients(ch, envelope);
    if (recipients.length === 0) return;
    // The worker's own text of the message when it has one (it put the message last): it parses to
    // the message validated above, and is not encoded again.
    const payload = msgText ?? JSON.stringify(envelope.msg);
    if (envelope.trace_context === undefined) {
      this.deliverAll(payload, recipients);
      return;
    }
    // A traced publication: its delivery is a span of the same trace.
    tracer.startActiveSpan(
      'gateway.deliver',
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'felt.table_id': envelope.table_id,
          'felt.table_seq': envelope.table_seq,
          'felt.message_type': envelope.msg.type,
          'felt.recipients': recipients.length,
        },
      },
      extractTraceContext(envelope.trace_context),
      (span) => {
        try {
          this.deliverAll(payload, recipients);
        } finally {
          span.end();
        }
      },
    );
  }

  private deliverAll(payload: string, recipients: readonly ClientConnection[]): void {
    for (const conn of recipients) {
      if (this.o.dropRate > 0 && Math.random() < this.o.dropRate) {
        this.o.onDropped();
        continue;
      }
      // The index holds only this gateway's sockets.
      this.o.deliver(conn as C, payload);
    }
  }
}
