// What the capacity benches (latency-under-load.bench.ts, scale-curve.bench.ts) share: the CPU of every
// process a cluster runs on, Redis and Postgres included, over a measured window, and hands completed.
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Redis } from 'ioredis';
import type { Cluster } from '../../test/harness/cluster.js';
import { PrivateRedis } from '../../test/harness/private-redis.js';
import { onCleanup } from './cleanup.js';
import { scrape } from './cluster-rig.js';
import { fixed, metricSum } from './measure.js';
import { cpuSeconds } from './proc-cpu.js';

/**
 * A redis-server of the bench's own (nothing on disk, as `npm start`'s), so that its CPU is this
 * cluster's alone and not that of whatever else uses the machine's shared Redis.
 */
export async function withPrivateRedis<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const redis = await PrivateRedis.start({ inMemory: true });
  const forget = onCleanup(() => redis.stop());
  try {
    return await fn(redis.url);
  } finally {
    forget();
    await redis.stop();
  }
}

/** The pid of the redis-server behind `url`. */
async function redisPid(url: string): Promise<number> {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  try {
    const info = await redis.info('server');
    const m = /process_id:(\d+)/.exec(info);
    if (!m) throw new Error('INFO server has no process_id');
    return Number(m[1]);
  } finally {
    redis.disconnect();
  }
}

/** The pids of every `postgres` process on this machine (the server and its backends). */
function postgresPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(entry));
    } catch {
      // gone since the listing
    }
  }
  return pids;
}

function cpuOrZero(pid: number): number {
  try {
    return cpuSeconds(pid);
  } catch {
    return 0;
  }
}

/** CPU seconds of named process groups over a window; Postgres backends that come and go are summed. */
export class GroupCpu {
  private start = new Map<number, number>();
  private wallStart = 0;
  constructor(private readonly groups: Readonly<Record<string, readonly number[]>>) {}

  private sample(): Map<number, number> {
    const out = new Map<number, number>();
    for (const pids of Object.values(this.groups)) for (const pid of pids) out.set(pid, cpuOrZero(pid));
    for (const pid of postgresPids()) out.set(-pid, cpuOrZero(pid));
    out.set(process.pid, cpuOrZero(process.pid));
    return out;
  }

  begin(): void {
    this.wallStart = performance.now();
    this.start = this.sample();
  }

  end(): Record<string, number> {
    const end = this.sample();
    const used: Record<string, number> = { wall: (performance.now() - this.wallStart) / 1000 };
    const delta = (key: number) => (end.get(key) ?? 0) - (this.start.get(key) ?? 0);
    for (const [name, pids] of Object.entries(this.groups)) used[name] = pids.reduce((sum, pid) => sum + delta(pid), 0);
    used.postgres = [...end.keys()].filter((k) => k < 0).reduce((sum, k) => sum + Math.max(0, delta(k)), 0);
    used.bots = delta(process.pid);
    return used;
  }
}

export async function groupsOf(cluster: Cluster): Promise<Record<string, number[]>> {
  return {
    workers: cluster.workers.map((w) => w.proc.pid),
    gateways: cluster.gateways.map((g) => g.proc.pid),
    lobby: [cluster.lobby!.proc.pid],
    persister: [cluster.persister!.proc.pid],
    redis: [await redisPid(cluster.redisUrl)],
  };
}

export async function handsCompleted(cluster: Cluster): Promise<number> {
  const pages = await Promise.all(cluster.workers.map((w) => scrape(w.httpUrl)));
  return pages.reduce((sum, page) => sum + metricSum(page, 'felt_worker_hands_total', { event: 'completed' }), 0);
}

export const cpuFields = (used: Record<string, number>): Record<string, string> =>
  Object.fromEntries(
    ['workers', 'gateways', 'persister', 'lobby', 'redis', 'postgres', 'bots'].map((k) => [
      `cpu_${k}_s`,
      fixed(used[k] ?? 0, 2),
    ]),
  );

/** Percent of this machine's cores that the measured processes kept busy. */
export function machineBusyPct(used: Readonly<Record<string, number>>): string {
  const busy = Object.entries(used)
    .filter(([k]) => k !== 'wall')
    .reduce((sum, [, v]) => sum + v, 0);
  return fixed((100 * busy) / (used.wall! * availableParallelism()), 0);
}
