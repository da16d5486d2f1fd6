import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@felt/db';
import { redisKeys, type Logger, type Redis, type RedisKeys } from '@felt/platform';
import { revocationTtlMs, type RedisRevocationList } from './redis-adapters.js';

/** Sets the marker only if this replica's loading token is still there, i.e. nothing flushed Redis meanwhile. */
// The count of revocations moves too: a gateway whose count no longer matches its last message
// re-reads every open session, so a socket of a session this reload revoked is ended as well.
const COMMIT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[2], ARGV[2])
  redis.call('DEL', KEYS[1])
  redis.call('INCR', KEYS[3])
  return 1
end
return 0`;

const PAGE = 1000;
/** How long a reload may take before another replica's may complete instead. */
const LOADING_TTL_MS = 5 * 60_000;

export type RevocationCheck =
  /** The marker was there: nothing to do. */
  | 'complete'
  /** The keys were reloaded from Postgres and the marker set. */
  | 'reloaded'
  /** A reload ran, but Redis was flushed or another replica started one meanwhile: the next check tries again. */
  | 'superseded';

export interface RevocationSyncOptions {
  readonly prisma: PrismaClient;
  readonly redis: Redis;
  readonly prefix: string;
  readonly revocations: RedisRevocationList;
  readonly logger: Logger;
  /** FELT_REVOCATION_CHECK_MS. */
  readonly intervalMs: number;
}

/**
 * Keeps the gateways' revocation keys complete (`revocationState` in @felt/platform). At start and
 * every `intervalMs`, each lobby replica retries the revocations Redis refused, then checks
 * `P {revocations}:loaded`; when the marker is missing it writes `P {revocations}:revoked:<sid>` for every revoked,
 * unexpired session in Postgres (each with the session's remaining life as TTL) and sets the marker.
 * Replicas may do this at once: the keys they write are the same, and only the last one to start
 * sets the marker.
 */
export class RevocationSync {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<RevocationCheck> | undefined;
  private readonly listeners = new Set<(result: RevocationCheck, sessions: number) => void>();
  private readonly keys: RedisKeys;

  constructor(private readonly o: RevocationSyncOptions) {
    this.keys = redisKeys(o.prefix);
  }

  /** Checks now, then every interval, until stop(). */
  start(): void {
    if (this.timer) return;
    const tick = (): void => {
      this.check().catch((err: unknown) =>
        this.o.logger.warn({ event: 'revocation_check_failed', err }, 'revocation check failed'),
      );
    };
    this.timer = setInterval(tick, this.o.intervalMs);
    this.timer.unref();
    tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Called after every check that found the marker missing, with what it did and how many sessions it wrote. */
  onReload(listener: (result: RevocationCheck, sessions: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One check (and reload when needed); concurrent calls share the one in flight. */
  check(): Promise<RevocationCheck> {
    this.running ??= this.checkOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async checkOnce(): Promise<RevocationCheck> {
    await this.o.revocations.retryPending();
    if ((await this.o.redis.exists(this.keys.revocationsLoaded)) === 1) return 'complete';
    const token = randomUUID();
    await this.o.redis.set(this.keys.revocationsLoading, token, 'PX', LOADING_TTL_MS);
    const sessions = await this.reload();
    const committed = await this.o.redis.eval(
      COMMIT,
      3,
      this.keys.revocationsLoading,
      this.keys.revocationsLoaded,
      this.keys.revocationsSeq,
      token,
      new Date().toISOString(),
    );
    const result: RevocationCheck = committed === 1 ? 'reloaded' : 'superseded';
    this.o.logger.info(
      { event: 'revocations_reloaded', result, sessions },
      result === 'reloaded'
        ? `revocation list reloaded from Postgres (${sessions} sessions)`
        : 'revocation reload superseded; checking again at the next interval',
    );
    for (const listener of this.listeners) listener(result, sessions);
    return result;
  }

  /** Writes every revoked, unexpired session's key; returns how many. */
  private async reload(): Promise<number> {
    let cursor: string | undefined;
    let written = 0;
    for (;;) {
      const now = new Date();
      const page = await this.o.prisma.session.findMany({
        where: { revokedAt: { not: null }, expiresAt: { gt: now }, ...(cursor ? { id: { gt: cursor } } : {}) },
        orderBy: { id: 'asc' },
        take: PAGE,
        select: { id: true, expiresAt: true },
      });
      if (page.length === 0) return written;
      const pipeline = this.o.redis.pipeline();
      for (const s of page) {
        pipeline.set(this.keys.revoked(s.id), '1', 'PX', revocationTtlMs(s.expiresAt, now.getTime()));
      }
      const results = await pipeline.exec();
      const failed = results?.find(([err]) => err !== null)?.[0];
      if (failed) throw failed;
      written += page.length;
      cursor = page[page.length - 1]!.id;
      if (page.length < PAGE) return written;
    }
  }
}
