import type { Redis } from 'ioredis';
import { HashRing } from '../ring/hash-ring.js';
import type { ChannelSubscriber } from '../redis/channel-subscriber.js';
import { redisKeys } from '../redis/keys.js';
import { readLiveMembers, type RingMember } from './worker-registry.js';

export interface RingViewOptions {
  readonly redis: Redis;
  readonly subscriber: ChannelSubscriber;
  readonly prefix: string;
  /** Periodic refresh, which catches members that died without saying so (heartbeat expiry). */
  readonly refreshMs: number;
  readonly vnodes?: number;
  readonly onError?: (err: unknown) => void;
}

export interface RingChange {
  readonly previous: HashRing;
  readonly current: HashRing;
}

/**
 * The ring of live, non-draining workers as this process sees it. Gateways and workers each hold
 * one, built by the same code from the same registry, so they agree on every table's owner once
 * both have refreshed. A draining worker stays dialable (members()) but owns nothing new.
 */
export class RingView {
  private ring = new HashRing([]);
  private byId = new Map<string, RingMember>();
  private signature = '';
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => Promise<void>) | undefined;
  private inFlight: Promise<void> | undefined;
  private again = false;
  private readonly listeners = new Set<(change: RingChange) => void>();

  constructor(private readonly options: RingViewOptions) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.options.subscriber.subscribe(redisKeys(this.options.prefix).ring, () => {
      this.refresh().catch((err: unknown) => this.options.onError?.(err));
    });
    await this.refresh();
    this.timer = setInterval(() => {
      this.refresh().catch((err: unknown) => this.options.onError?.(err));
    }, this.options.refreshMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /**
   * Rereads the registry. Concurrent calls coalesce: a call made while a read is in flight is
   * answered by one more read after it, so a caller never sees a ring older than its call.
   */
  refresh(): Promise<void> {
    if (this.inFlight) {
      this.again = true;
      return this.inFlight;
    }
    const run = async (): Promise<void> => {
      do {
        this.again = false;
        this.apply(await readLiveMembers(this.options.redis, this.options.prefix));
      } while (this.again);
    };
    this.inFlight = run().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  get current(): HashRing {
    return this.ring;
  }

  ownerOf(key: string): RingMember | undefined {
    const id = this.ring.ownerOf(key);
    return id === undefined ? undefined : this.byId.get(id);
  }

  member(id: string): RingMember | undefined {
    return this.byId.get(id);
  }

  /** Every live member, draining ones included. */
  members(): RingMember[] {
    return [...this.byId.values()];
  }

  /** Called after every change of membership, address or drain flag (owners may not have moved). */
  onChange(listener: (change: RingChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private apply(members: RingMember[]): void {
    const signature = members.map((m) => `${m.id}|${m.addr}|${m.draining ? 1 : 0}`).join(',');
    this.byId = new Map(members.map((m) => [m.id, m]));
    if (signature === this.signature) return;
    this.signature = signature;
    const serving = members.filter((m) => !m.draining);
    // With every member draining, keep serving from all of them rather than from none.
    const owners = serving.length > 0 ? serving : members;
    const previous = this.ring;
    this.ring = new HashRing(
      owners.map((m) => m.id),
      this.options.vnodes === undefined ? {} : { vnodes: this.options.vnodes },
    );
    const change: RingChange = { previous, current: this.ring };
    for (const listener of this.listeners) listener(change);
  }
}
