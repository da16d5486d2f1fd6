// What the capacity benches (latency-under-load.bench.ts, scale-curve.bench.ts) share: the CPU of every
// process a cluster runs on, Redis and Postgres included, over a measured window of play, and hands completed.
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { PlayResult } from '@felt/loadtest';
import type { Cluster } from '../../test/harness/cluster.js';
import { PrivateRedis } from '../../test/harness/private-redis.js';
import { onCleanup } from './cleanup.js';
import type { BenchReporter } from './bench-api.js';
import { errorKinds, scrape, startPlay, type PlayShape } from './cluster-rig.js';
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
class GroupCpu {
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

async function groupsOf(cluster: Cluster): Promise<Record<string, number[]>> {
  return {
    workers: cluster.workers.map((w) => w.proc.pid),
    gateways: cluster.gateways.map((g) => g.proc.pid),
    lobby: [cluster.lobby!.proc.pid],
    persister: [cluster.persister!.proc.pid],
    redis: [await redisPid(cluster.redisUrl)],
  };
}

async function handsCompleted(cluster: Cluster): Promise<number> {
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

/** What one measured play window gave: every process's CPU seconds (and `wall`), the hands completed, the run. */
export interface MeasuredPlay {
  readonly used: Record<string, number>;
  readonly hands: number;
  readonly result: PlayResult;
}

/**
 * Plays `shape` on `cluster` (the load runner's bots): seated, `warmupS` of play, then `seconds` in
 * which every process's CPU and the hands the workers completed are measured. The run is stopped
 * (its rooms closed) whatever happens, and its LOAD line reported.
 */
export async function measurePlay(
  report: BenchReporter,
  label: string,
  cluster: Cluster,
  shape: PlayShape,
  warmupS: number,
  seconds: number,
): Promise<MeasuredPlay> {
  const cpu = new GroupCpu(await groupsOf(cluster));
  const play = startPlay(cluster, shape);
  let used: Record<string, number>;
  let hands: number;
  let result: PlayResult;
  try {
    await play.started;
    await sleep(warmupS * 1000);
    const before = await handsCompleted(cluster);
    cpu.begin();
    await sleep(seconds * 1000);
    used = cpu.end();
    hands = (await handsCompleted(cluster)) - before;
  } finally {
    result = await play.stop();
    report.info(`${label}: ${result.summary}; errors: ${errorKinds(result)}`);
  }
  return { used, hands, result };
}

/** Every bot connects from this machine's one address: a per-address socket cap that admits `sockets`. */
export function oneAddressEnv(sockets: number): Record<string, string> {
  return { GATEWAY_MAX_SOCKETS_PER_ADDRESS: String(sockets + 100) };
}
