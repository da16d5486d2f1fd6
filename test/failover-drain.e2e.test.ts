// Failover (docs/operations.md, Failover and drain): a drain on SIGTERM hands a table over at its
// hand boundary and releases the lease (the next owner does not wait for it to expire); scaling the
// worker set moves only the tables whose ring owner changes.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { HashRing } from '@felt/platform';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from './harness/cluster.js';
import { eventually, leaseHolder, playStep, workerById, type LeaseInfo } from './harness/failover-play.js';
import { FailoverRig } from './harness/failover-rig.js';
import type { LobbyClient } from './harness/lobby-client.js';
import type { HandRecords } from './harness/privacy.js';
import { makeBotOnlyTable } from './harness/table-ops.js';

const run = promisify(execFile);

let rig: FailoverRig;
let cluster: Cluster;
let lobby: LobbyClient;
let redis: Redis;
let records: HandRecords;

beforeAll(async () => {
  rig = await FailoverRig.start({
    FELT_MEMBER_TTL_MS: '5000',
    // Long leases: a hand-over that waited for expiry instead of a release would show.
    FELT_LEASE_TTL_MS: '60000',
    FELT_LEASE_WAIT_MS: '3000',
    FELT_DRAIN_DEADLINE_MS: '20000',
    FELT_HAND_PAUSE_MS: '500',
    FELT_BOT_THINK_MS: '30',
    FELT_BOT_ITERATIONS: '20',
  });
  ({ cluster, lobby, redis, records } = rig);
});

afterAll(async () => {
  await rig?.stop();
});

describe('drain and scaling', () => {
  it('SIGTERM: the owner finishes the hand, hands the table over at the boundary, releases the lease and exits 0', async () => {
    const { tableId, ann, both } = await rig.headsUp({ game: 'holdem', limit: 'nl' });
    await ann.until(() => ann.state?.hand_id !== undefined && ann.state.actor !== null, 30_000, 'the deal');
    const handId = ann.state!.hand_id!;
    const holder = (await leaseHolder(redis, cluster.prefix, tableId))!;
    const owner = workerById(cluster, holder.workerId)!;

    const exited = owner.proc.stop(30_000);
    // The hand goes on at the draining owner until its result.
    const finished = () => ann.received.some((m) => m.type === 'hand_result' && m.hand_id === handId);
    while (!finished()) await playStep(both, finished, { actionTimeoutMs: 20_000 });
    expect(await exited).toBe(0);
    const drained = owner.proc.jsonLogs().find((l) => l.event === 'drained');
    expect(drained).toMatchObject({ atBoundary: 1, atDeadline: 0 });
    // Released, not left to expire (60 s): free, or already the next owner's.
    const after = await leaseHolder(redis, cluster.prefix, tableId);
    expect(after?.workerId ?? '').not.toBe(holder.workerId);

    // The next hand is dealt by another worker, table_seq growing, the hand completed and recorded.
    await ann.until(() => ann.state?.hand_id !== undefined && ann.state.hand_id !== handId, 30_000, 'the next hand');
    const next = (await leaseHolder(redis, cluster.prefix, tableId))!;
    expect(next.workerId).not.toBe(holder.workerId);
    expect(next.epoch).toBe(holder.epoch + 1);
    expect(await eventually('the drained hand record', () => records.job(handId), 20_000)).toBeTruthy();
    for (const c of both) expect(c.hashMismatches).toBe(0);
    await cluster.addWorker();
  });

  it('adding and removing a worker moves only the tables whose ring owner changes', async () => {
    const host = await lobby.signUp(`host-${randomUUID().slice(0, 8)}`);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const room = await lobby.createRoom(host, { game: 'holdem', limit: 'nl' }, { seatHost: false });
      await makeBotOnlyTable(cluster, room.sessionId);
      ids.push(room.sessionId);
    }
    const live = () => cluster.workers.filter((w) => w.proc.alive).map((w) => w.id);
    const holders = async (): Promise<Map<string, LeaseInfo>> => {
      const out = new Map<string, LeaseInfo>();
      for (const id of ids) {
        const h = await leaseHolder(redis, cluster.prefix, id);
        if (h) out.set(id, h);
      }
      return out;
    };
    const settled = (members: string[]) =>
      eventually(
        'every table at its ring owner',
        async () => {
          const ring = new HashRing(members);
          const h = await holders();
          return ids.every((id) => h.get(id)?.workerId === ring.ownerOf(id)) ? h : null;
        },
        40_000,
        200,
      );
    const before = await settled(live());

    const added = await cluster.addWorker();
    const grown = await settled(live());
    const moved = ids.filter((id) => grown.get(id)!.workerId !== before.get(id)!.workerId);
    for (const id of ids) {
      if (moved.includes(id)) {
        expect(grown.get(id)!.workerId).toBe(added.id);
        expect(grown.get(id)!.epoch).toBeGreaterThan(before.get(id)!.epoch);
      } else {
        // Untouched: same holder, same epoch (never re-acquired).
        expect(grown.get(id)).toEqual(before.get(id));
      }
    }

    // Removing it (the preStop drain, then SIGTERM) moves back exactly the tables it had.
    const tool = fileURLToPath(new URL('../services/table-worker/dist/ops/drain.js', import.meta.url));
    const { stdout } = await run(process.execPath, [tool], {
      env: { PATH: process.env.PATH ?? '', WORKER_ID: added.id, WORKER_HTTP_PORT: new URL(added.httpUrl).port },
    });
    // A table still in a hand at the deadline is handed over mid-hand (resumed from its checkpoint).
    expect(stdout).toMatch(/^drained: \d+ at a hand boundary, \d+ at the deadline/);
    expect(await added.proc.stop(30_000)).toBe(0);
    const shrunk = await settled(live());
    for (const id of ids) {
      if (moved.includes(id)) expect(shrunk.get(id)!.workerId).toBe(before.get(id)!.workerId);
      else expect(shrunk.get(id)).toEqual(before.get(id));
    }
  });
});
