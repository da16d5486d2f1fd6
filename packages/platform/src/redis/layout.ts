import type { Redis } from 'ioredis';
import type { Logger } from '../logging/logger.js';
import { layoutOneKeys, REDIS_LAYOUT, redisKeys } from './keys.js';

/**
 * The key layout in Redis is not the one this release spells (keys.ts, `REDIS_LAYOUT`). A worker of
 * layout 2 fences a table on `P {table:<id>}:epoch`, one of layout 1 on `P epoch:<id>`: side by side,
 * both could serve the same table, each under a lease of its own. So every service refuses to start on
 * a layout it does not spell, and on a Redis where a layout-1 worker still beats
 * (docs/operations.md, "Upgrading the Redis key layout").
 */
export class RedisLayoutError extends Error {
  override readonly name = 'RedisLayoutError';
  readonly code = 'redis_layout';
  constructor(
    message: string,
    /** What Redis holds: a layout number, `1` for keys of the unversioned layout, or `live-workers`. */
    readonly found: string,
  ) {
    super(message);
  }
}

/** `P layout` while `migrateRedisLayout` runs, and after a run that could not move every key. */
export const LAYOUT_MIGRATING = 'migrating';

const MIGRATE_HINT =
  'Stop every worker, gateway, lobby and persister of the older release, run `npm run redis:migrate` ' +
  '(or `node dist/ops/redis-migrate.js` in a worker image), then start this release';

/** Layout-1 workers whose registration has not expired (their zset's scores are expiry times in ms). */
async function liveLayoutOneWorkers(redis: Redis, prefix: string, now: number): Promise<number> {
  const old = layoutOneKeys(prefix).workers;
  if ((await redis.type(old)) !== 'zset') return 0;
  return redis.zcount(old, now, '+inf');
}

/**
 * Makes sure Redis holds this release's key layout before a service reads or writes a key:
 *
 * - `P layout` = `REDIS_LAYOUT`: resolves `current`, unless a layout-1 worker still beats.
 * - `P layout` absent and none of layout 1's fixed keys present (a new Redis, a new prefix, or one
 *   that lost its data): sets `P layout` (`SET NX`, so concurrent starts agree) and resolves `fresh`.
 *   Any install that ran a lobby holds `P revocations:loaded`, so an old install is never taken for
 *   a new one.
 * - Otherwise throws RedisLayoutError: another layout's number, layout-1 keys not migrated, or a
 *   layout-1 worker alive.
 *
 * With `write: false` (a reader such as `npm run audit`) it never sets `P layout`: a fresh Redis
 * resolves `fresh` as it is.
 */
export async function requireRedisLayout(
  redis: Redis,
  prefix: string,
  { write = true }: { readonly write?: boolean } = {},
): Promise<'current' | 'fresh'> {
  const keys = redisKeys(prefix);
  const expected = String(REDIS_LAYOUT);
  const live = await liveLayoutOneWorkers(redis, prefix, Date.now());
  if (live > 0) {
    throw new RedisLayoutError(
      `${live} worker(s) of the older key layout still beat in Redis (${prefix}workers). ${MIGRATE_HINT}.`,
      'live-workers',
    );
  }
  const check = (layout: string | null): 'current' | null => {
    if (layout === null) return null;
    if (layout === expected) return 'current';
    if (layout === LAYOUT_MIGRATING) {
      throw new RedisLayoutError(
        `A move of the Redis key layout has not finished (${keys.layout} is "${LAYOUT_MIGRATING}"): run \`npm run redis:migrate\` again and read what it reports.`,
        LAYOUT_MIGRATING,
      );
    }
    throw new RedisLayoutError(
      `Redis holds key layout ${JSON.stringify(layout)} (${keys.layout}); this release knows layout ${expected}. ` +
        'Run the release that wrote it, or a newer one.',
      layout,
    );
  };
  if (check(await redis.get(keys.layout)) === 'current') return 'current';
  const fixed = layoutOneKeys(prefix).fixed.map((f) => f.old);
  // One EXISTS a key: on a Redis Cluster they live in different slots.
  const present = await Promise.all(fixed.map((key) => redis.exists(key)));
  if (present.some((n) => n > 0)) {
    throw new RedisLayoutError(
      `Redis holds keys of the older key layout (such as ${prefix}revocations:loaded) and no ${keys.layout}. ${MIGRATE_HINT}.`,
      '1',
    );
  }
  if (!write) return 'fresh';
  if ((await redis.set(keys.layout, expected, 'NX')) === 'OK') return 'fresh';
  // Another service set it first: it must be ours too.
  return check(await redis.get(keys.layout)) ?? 'fresh';
}

/**
 * At a service's start: exits with status 1 and one clear line when Redis holds another key layout
 * (or keys of the older one that were not migrated); says nothing when it holds this one. While Redis
 * does not answer it warns and asks again (every `retryMs`), so a service started before its Redis
 * waits for it instead of writing keys it has not checked.
 */
export async function refuseForeignRedisLayout(
  redis: Redis,
  prefix: string,
  logger: Pick<Logger, 'info' | 'warn' | 'fatal'>,
  exit: (code: number) => never = (code) => process.exit(code),
  retryMs = 1_000,
): Promise<void> {
  for (;;) {
    try {
      if ((await requireRedisLayout(redis, prefix)) === 'fresh') {
        logger.info({ event: 'redis_layout_set', layout: REDIS_LAYOUT }, 'Redis key layout set');
      }
      return;
    } catch (err) {
      if (err instanceof RedisLayoutError) {
        logger.fatal({ event: 'redis_layout_refused', found: err.found }, err.message);
        exit(1);
        return;
      }
      logger.warn({ event: 'redis_layout_unchecked', err }, 'could not read the Redis key layout; asking again');
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }
}

export interface LayoutMigration {
  /** Keys renamed to their layout-2 names. */
  readonly moved: number;
  /** Layout-1 keys left where they are because their layout-2 name already exists (the run fails). */
  readonly conflicts: readonly string[];
  /** `P layout` after the run: `REDIS_LAYOUT` when every key moved, `migrating` when some did not. */
  readonly layout: string | null;
}

const SCAN_COUNT = 1000;

/**
 * Moves a layout-1 Redis (every key `P <kind>:<id>`) to layout 2 with `RENAMENX`, which keeps each
 * key's value and TTL, then sets `P layout`. Run it with every service of the older release stopped:
 * it refuses while a worker of either layout beats. Safe to run again after a partial run (a key
 * already moved is not seen again). `P layout` reads `migrating` from the first key moved until the
 * last, so services refuse a half-moved Redis, and stays so when a key's new name already exists:
 * that key is left in place and reported, and services keep refusing until an operator looks.
 * A single node or a Sentinel master only: a Redis Cluster is set up with layout 2 from the start
 * (RENAME cannot cross slots).
 */
export async function migrateRedisLayout(
  redis: Redis,
  prefix: string,
  log: (line: string) => void = () => undefined,
): Promise<LayoutMigration> {
  const keys = redisKeys(prefix);
  const old = layoutOneKeys(prefix);
  const expected = String(REDIS_LAYOUT);
  const layout = await redis.get(keys.layout);
  if (layout !== null && layout !== expected && layout !== LAYOUT_MIGRATING) {
    throw new RedisLayoutError(
      `Redis holds key layout ${JSON.stringify(layout)}; this tool moves layout 1 to ${expected} only.`,
      layout,
    );
  }
  const now = Date.now();
  const liveOld = await liveLayoutOneWorkers(redis, prefix, now);
  const liveNew = (await redis.type(keys.workers)) === 'zset' ? await redis.zcount(keys.workers, now, '+inf') : 0;
  if (liveOld + liveNew > 0) {
    throw new RedisLayoutError(
      `${liveOld + liveNew} worker(s) still beat in Redis: stop every worker (and the gateways, lobbies and persisters) first.`,
      'live-workers',
    );
  }

  // Services refuse a Redis in the middle of the move (and after one that stopped short).
  if (layout !== expected) await redis.set(keys.layout, LAYOUT_MIGRATING);
  let moved = 0;
  const conflicts: string[] = [];
  const move = async (from: string, to: string): Promise<void> => {
    if ((await redis.renamenx(from, to)) === 1) moved += 1;
    else if ((await redis.exists(from)) === 1) conflicts.push(from);
  };
  const moveAll = async (oldPrefix: string, to: (id: string) => string): Promise<void> => {
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${escapeGlob(oldPrefix)}*`, 'COUNT', SCAN_COUNT);
      cursor = next;
      for (const key of found) await move(key, to(key.slice(oldPrefix.length)));
    } while (cursor !== '0');
  };

  for (const kind of old.tableKinds) await moveAll(kind.old, kind.to);
  await moveAll(old.workerHashes.old, old.workerHashes.to);
  await moveAll(old.revoked.old, old.revoked.to);
  for (const f of old.fixed) {
    if ((await redis.exists(f.old)) === 1) await move(f.old, f.to);
  }
  log(`moved ${moved} key(s) to layout ${expected}`);
  if (conflicts.length > 0) {
    for (const c of conflicts.slice(0, 20)) log(`conflict: ${c} was not moved: its layout-${expected} name exists`);
    return { moved, conflicts, layout: await redis.get(keys.layout) };
  }
  await redis.set(keys.layout, expected);
  return { moved, conflicts, layout: expected };
}

/** A prefix as a SCAN pattern that matches it literally (`FELT_REDIS_PREFIX` allows none of `*?[]\`, but a caller may). */
function escapeGlob(s: string): string {
  return s.replace(/[*?[\]\\]/g, '\\$&');
}
