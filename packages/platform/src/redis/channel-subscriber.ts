import type { Redis } from 'ioredis';

export type ChannelHandler = (message: string, channel: string) => void;

export interface SubscribeOptions {
  /**
   * Sharded pub/sub (Redis 7: SSUBSCRIBE, messages SPUBLISHed to the shard owning the channel's slot).
   * On a Redis Cluster client made with `shardedSubscribers` (createRedis's option), ioredis holds one
   * subscriber connection per shard. A channel is sharded or not for every handler of it.
   */
  readonly sharded?: boolean;
}

/**
 * One Redis connection in subscriber mode shared by every part of a process that listens to
 * channels. Handlers are reference counted per channel: the first handler SUBSCRIBEs, the last one to
 * leave UNSUBSCRIBEs, so a gateway holds exactly the channels of the tables and users it serves.
 */
export class ChannelSubscriber {
  private readonly handlers = new Map<string, Set<ChannelHandler>>();
  /** Serializes SUBSCRIBE/UNSUBSCRIBE per channel so that a quick leave-then-join ends subscribed. */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(private readonly redis: Redis) {
    const dispatch = (channel: string, message: string): void => {
      const set = this.handlers.get(channel);
      if (!set) return;
      for (const handler of [...set]) handler(message, channel);
    };
    redis.on('message', dispatch);
    redis.on('smessage', dispatch);
  }

  /** Resolves once Redis confirmed the subscription; the returned function removes the handler. */
  async subscribe(
    channel: string,
    handler: ChannelHandler,
    options: SubscribeOptions = {},
  ): Promise<() => Promise<void>> {
    const sharded = options.sharded ?? false;
    let set = this.handlers.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    try {
      if (first) {
        await this.enqueue(channel, async () => {
          await this.ready();
          if (sharded) await this.redis.ssubscribe(channel);
          else await this.redis.subscribe(channel);
        });
      } else await this.pending.get(channel);
    } catch (err) {
      set.delete(handler);
      if (set.size === 0 && this.handlers.get(channel) === set) this.handlers.delete(channel);
      throw err;
    }
    let removed = false;
    return async () => {
      if (removed) return;
      removed = true;
      const current = this.handlers.get(channel);
      if (!current) return;
      current.delete(handler);
      if (current.size === 0) {
        this.handlers.delete(channel);
        await this.enqueue(channel, async () => {
          // A new handler may have arrived while the queue drained.
          if (this.handlers.has(channel)) return;
          if (sharded) await this.redis.sunsubscribe(channel);
          else await this.redis.unsubscribe(channel);
        });
      }
    };
  }

  /**
   * Resolves once the connection is ready. ioredis (5.x) writes a SUBSCRIBE at once while a fresh
   * connection is still between connect and ready (it sends its client info first, asynchronously),
   * which puts the connection in subscriber mode before its own ready check (INFO) goes out: that
   * check is then refused and the process dies of the unhandled rejection. A worker restarted under
   * load did. Waiting for ready keeps the SUBSCRIBE behind the check.
   */
  private ready(): Promise<void> {
    // Ready, or closed for good: the SUBSCRIBE goes now (and fails at once on a closed connection).
    if (this.redis.status === 'ready' || this.redis.status === 'end') return Promise.resolve();
    return new Promise((resolve) => this.redis.once('ready', () => resolve()));
  }

  /** The channels with at least one handler. */
  channels(): string[] {
    return [...this.handlers.keys()];
  }

  private enqueue(channel: string, op: () => Promise<unknown>): Promise<void> {
    const prev = this.pending.get(channel) ?? Promise.resolve();
    const next = prev.then(
      () => op(),
      () => op(),
    );
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.pending.set(channel, settled);
    void settled.then(() => {
      if (this.pending.get(channel) === settled) this.pending.delete(channel);
    });
    return next.then(() => undefined);
  }
}
