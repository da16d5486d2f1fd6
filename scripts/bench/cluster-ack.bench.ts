/*
 * BENCH cluster-ack: an action's send → its ack, p50, at one table of 3 SDK bots on an otherwise idle
 * local cluster (1 gateway, 1 worker, lobby, persister), one action at a time, ÷ one raw Redis pub/sub
 * hop p50 (ioredis PUBLISH → the subscriber's message) measured in the same run on the same Redis.
 * Goal: at most 30.
 *
 * The ack is the load runner's (`npm run load -- --play`, `ack_p50_ms`): its bots think
 * FELT_BENCH_ACK_THINK_MS (default 20) before each action, so the cluster is quiet when one arrives.
 * The hops are timed one after another with no pause: a hop's own cost, the anchor the goal was set
 * against (0.08 ms when it was). Hops with the bots' pause between them (each starting from an idle
 * event loop, as an action does) are printed too, as `redis_idle_hop_p50_ms`. Half of each kind are
 * timed before the play and half after it.
 *
 * Sizes: FELT_BENCH_ACK_SECONDS (default 20) of play, FELT_BENCH_HOP_SAMPLES (default 500) hops of each kind.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { PlayResult } from '@felt/loadtest';
import type { BenchReporter } from './bench-api.js';
import { errorKinds, fastHandsEnv, loadField, startPlay, withCluster } from './cluster-rig.js';
import { envInt, fixed, goalFields, percentile } from './measure.js';

const GOAL = 30;
const HOP_BYTES = 512;
const HOP_WARMUP = 50;

/** p50 and p99 of `samples` publish → message hops, `gapMs` apart, on a channel of the cluster's namespace. */
async function redisHops(redisUrl: string, channel: string, samples: number, gapMs: number): Promise<number[]> {
  const pub = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const sub = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  try {
    await sub.subscribe(channel);
    const payload = 'x'.repeat(HOP_BYTES);
    const hop = (): Promise<number> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('a Redis pub/sub hop took over 5 s')), 5_000);
        const sent = performance.now();
        sub.once('message', () => {
          clearTimeout(timer);
          resolve(performance.now() - sent);
        });
        pub.publish(channel, payload).catch(reject);
      });
    const times: number[] = [];
    for (let i = 0; i < HOP_WARMUP + samples; i++) {
      const ms = await hop();
      if (i >= HOP_WARMUP) times.push(ms);
      if (gapMs > 0) await sleep(gapMs);
    }
    return times;
  } finally {
    sub.disconnect();
    pub.disconnect();
  }
}

export async function run(report: BenchReporter): Promise<void> {
  const seconds = envInt('FELT_BENCH_ACK_SECONDS', 20);
  const thinkMs = envInt('FELT_BENCH_ACK_THINK_MS', 20, 0);
  const hopSamples = envInt('FELT_BENCH_HOP_SAMPLES', 500);
  await withCluster({ gateways: 1, workers: 1, lobby: true, persister: true, env: fastHandsEnv() }, async (cluster) => {
    const redisUrl = cluster.commonEnv().REDIS_URL!;
    const channel = `${cluster.prefix}bench:hop:${randomBytes(3).toString('hex')}`;
    // Half the hops before the play and half after, so that the anchor sees the machine as the play does.
    const half = Math.ceil(hopSamples / 2);
    const hops = await redisHops(redisUrl, channel, half, 0);
    const idleHops = await redisHops(redisUrl, channel, half, thinkMs);

    const play = startPlay(cluster, { tables: 1, players: 3, thinkMs, seed: 15 });
    let result: PlayResult;
    try {
      await play.started;
      await sleep(seconds * 1000);
    } finally {
      result = await play.stop();
    }
    hops.push(...(await redisHops(redisUrl, channel, half, 0)));
    idleHops.push(...(await redisHops(redisUrl, channel, half, thinkMs)));

    const ackP50 = loadField(result.summary, 'ack_p50_ms');
    const hopP50 = percentile(hops, 50);
    report.figure('cluster-ack', {
      ...goalFields(ackP50 / hopP50, GOAL, 'at_most'),
      cluster_p50_ms: fixed(ackP50, 1),
      cluster_p99_ms: fixed(loadField(result.summary, 'ack_p99_ms'), 1),
      redis_hop_p50_ms: fixed(hopP50, 4),
      redis_hop_p99_ms: fixed(percentile(hops, 99), 4),
      redis_idle_hop_p50_ms: fixed(percentile(idleHops, 50), 4),
      actions: result.stats.actions,
      hops: hops.length,
      errors: result.stats.errors,
    });
    report.info(`cluster-ack: ${result.summary}; errors: ${errorKinds(result)}`);
    report.info(
      `cluster-ack: 1 table x 3 bots thinking ${thinkMs} ms, ${seconds} s; ${hops.length} hops of ${HOP_BYTES} bytes ` +
        `back to back and as many ${thinkMs} ms apart (idle), half before the play and half after`,
    );
  });
}
