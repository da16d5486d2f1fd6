// Upgrading the Redis key layout (docs/operations.md, "Upgrading the Redis key layout"): a table in the
// middle of a hand, its keys spelled as the previous release spelled them (layout 1, no hash tags), is
// refused by a worker of this release until `npm run redis:migrate` moves them; then a worker takes
// the table over from its checkpoint, and the hand goes on with the same deck and a higher epoch.
//
// The previous release's code is not here to run, so its Redis is made by renaming this release's
// keys of a live table back to layout 1's names (`layoutOneKeys`, the migration's own map read
// backwards), with every service that writes them stopped, as an operator stops them to upgrade.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { layoutOneKeys, REDIS_LAYOUT, redisKeys } from '@felt/platform';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  leaseHolder,
  playOneAction,
  playToReveal,
  revealChecks,
  tableEpoch,
  type AckedAction,
} from './harness/failover-play.js';
import { FailoverRig } from './harness/failover-rig.js';

const run = promisify(execFile);
let rig: FailoverRig;

beforeAll(async () => {
  rig = await FailoverRig.start();
}, 120_000);

afterAll(async () => {
  await rig?.stop();
});

/** Every key of layout 2 under the prefix renamed to its layout-1 name, and `P layout` gone. */
async function spellAsLayoutOne(
  redis: Redis,
  prefix: string,
  tableIds: readonly string[],
  workerIds: readonly string[],
) {
  const old = layoutOneKeys(prefix);
  const keys = redisKeys(prefix);
  const back = async (from: string, to: string) => {
    if ((await redis.exists(from)) === 1) await redis.rename(from, to);
  };
  for (const id of tableIds) for (const kind of old.tableKinds) await back(kind.to(id), `${kind.old}${id}`);
  for (const id of workerIds) await back(old.workerHashes.to(id), `${old.workerHashes.old}${id}`);
  const revokedHead = old.revoked.to('');
  for (const key of await redis.keys(`${revokedHead}*`))
    await back(key, `${old.revoked.old}${key.slice(revokedHead.length)}`);
  for (const f of old.fixed) await back(f.to, f.old);
  await redis.del(keys.layout);
}

/** `felt-redis-migrate` as an operator runs it: exit code and output. */
async function migrate(prefix: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run('node', ['services/table-worker/dist/ops/redis-migrate.js'], {
      env: { ...process.env, REDIS_URL: rig.cluster.redisUrl, FELT_REDIS_PREFIX: prefix },
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('upgrading the Redis key layout', () => {
  it('refuses a layout-1 Redis, moves it with redis:migrate, and the table resumes mid-hand', async () => {
    const { cluster, redis } = rig;
    const prefix = cluster.prefix;
    const keys = redisKeys(prefix);
    const old = layoutOneKeys(prefix);
    expect(await redis.get(keys.layout)).toBe(String(REDIS_LAYOUT));

    const { tableId, ann, both } = await rig.headsUp({ game: 'holdem', limit: 'nl' }, { dealt: true });
    const handId = ann.state!.hand_id!;
    const acked: AckedAction[] = [];
    const first = await playOneAction(both);
    expect(first).not.toBeNull();
    acked.push(first!);
    await eventually('the action applied', () => both.every((c) => c.state!.actor !== first!.seat));
    const before = { actor: ann.state!.actor, street: ann.state!.street, seq: both.map((c) => c.lastSeq) };
    const epochBefore = await tableEpoch(redis, prefix, tableId);
    expect(epochBefore).toBeGreaterThanOrEqual(1);

    // The upgrade window: the lobby and every worker stopped (the gateways hold the players' sockets).
    await cluster.lobby!.proc.stop();
    const workerIds = cluster.workers.map((w) => w.id);
    for (const w of cluster.workers) await w.proc.kill('SIGKILL');
    await spellAsLayoutOne(redis, prefix, [tableId], workerIds);
    expect(
      await redis.exists(
        `${old.tableKinds.find((k) => k.to(tableId) === keys.tableCheckpoint(tableId))!.old}${tableId}`,
      ),
    ).toBe(1);
    expect(await redis.exists(keys.tableCheckpoint(tableId), keys.epoch(tableId), keys.revocationsLoaded)).toBe(0);

    // This release's worker will not run on it.
    await expect(cluster.addWorker()).rejects.toThrow(/older key layout/);
    expect(await redis.get(keys.layout)).toBeNull();

    // The migration: refused while a registration of the killed workers has not expired, then done.
    const refusals: string[] = [];
    const done = await eventually(
      'redis:migrate to succeed',
      async () => {
        const r = await migrate(prefix);
        if (r.code !== 0) refusals.push(r.out);
        return r.code === 0 ? r : null;
      },
      20_000,
      250,
    );
    for (const out of refusals) expect(out).toMatch(/still beat/);
    const moved = /REDIS_LAYOUT layout=(\d+) moved=(\d+) conflicts=0/.exec(done.out);
    expect(moved, done.out).not.toBeNull();
    expect(moved![1]).toBe(String(REDIS_LAYOUT));
    // The table's epoch, lease, checkpoint, events and mark, the revocation marker, the registry.
    expect(Number(moved![2])).toBeGreaterThanOrEqual(6);
    for (const kind of old.tableKinds) expect(await redis.exists(`${kind.old}${tableId}`)).toBe(0);
    expect(await redis.get(keys.layout)).toBe(String(REDIS_LAYOUT));
    expect(await tableEpoch(redis, prefix, tableId)).toBe(epochBefore);
    // Once more: nothing left to move.
    expect((await migrate(prefix)).out).toMatch(/REDIS_LAYOUT layout=2 moved=0 conflicts=0/);

    // This release starts, and a worker takes the table over from its checkpoint.
    await cluster.startLobby();
    await cluster.addWorker();
    await Promise.all(
      both.map((c, i) => c.until(() => c.lastSeq > before.seq[i]! && c.state, 40_000, 'the new owner’s snapshot')),
    );
    const holder = await eventually('a lease holder', () => leaseHolder(redis, prefix, tableId));
    expect(holder.epoch).toBeGreaterThan(epochBefore);
    for (const c of both) {
      expect(c.state!.hand_id).toBe(handId);
      expect(c.state!.street).toBe(before.street);
      expect(c.state!.actor).toBe(before.actor);
    }

    // The hand plays out from the same committed deck.
    await playToReveal(both, handId, acked);
    expect(acked.length).toBeGreaterThanOrEqual(2);
    for (const check of revealChecks(both, handId)) expect(check.ok, check.detail).toBe(true);
  }, 180_000);
});
