/*
 * BENCH scale-curve (docs/operations.md, "Capacity planning"): SDK bots playing flat out (think 0) on
 * FELT_BENCH_SCALE_TABLES (default 12) tables of 6 against 1, 2 and 3 workers (1 gateway, lobby,
 * persister; a Redis of its own), each for FELT_BENCH_SCALE_SECONDS (default 20) after FELT_BENCH_SCALE_WARMUP (default 8)
 * s: hands a second at saturation and the CPU seconds of every process, Redis and Postgres included
 * (Postgres: every `postgres` process of the machine's server, so other databases' work counts too),
 * and how busy the machine's cores were. The bots run in this process, on the same cores.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchReporter } from './bench-api.js';
import { cpuFields, GroupCpu, groupsOf, handsCompleted, machineBusyPct, withPrivateRedis } from './capacity-rig.js';
import { errorKinds, fastHandsEnv, startPlay, withCluster } from './cluster-rig.js';
import { envInt, fixed } from './measure.js';

export async function run(report: BenchReporter): Promise<void> {
  const tables = envInt('FELT_BENCH_SCALE_TABLES', 12);
  const seconds = envInt('FELT_BENCH_SCALE_SECONDS', 20);
  const warmup = envInt('FELT_BENCH_SCALE_WARMUP', 8, 0);
  for (const workers of [1, 2, 3]) {
    await withPrivateRedis((redisUrl) =>
      withCluster(
        {
          gateways: 1,
          workers,
          lobby: true,
          persister: true,
          env: { ...fastHandsEnv(), GATEWAY_MAX_SOCKETS_PER_ADDRESS: String(tables * 6 + 100) },
          redisUrl,
        },
        async (cluster) => {
          const cpu = new GroupCpu(await groupsOf(cluster));
          const play = startPlay(cluster, {
            tables,
            players: 6,
            thinkMs: 0,
            signupPerSecond: 10,
            seed: 4100 + workers,
          });
          let used: Record<string, number>;
          let hands: number;
          try {
            await play.started;
            await sleep(warmup * 1000);
            const before = await handsCompleted(cluster);
            cpu.begin();
            await sleep(seconds * 1000);
            used = cpu.end();
            hands = (await handsCompleted(cluster)) - before;
          } finally {
            const result = await play.stop();
            report.info(`scale-curve workers=${workers}: ${result.summary}; errors: ${errorKinds(result)}`);
          }
          report.figure('scale-curve', {
            workers,
            hands_per_s: fixed(hands / used.wall!, 2),
            worker_cpu_ms_per_hand: fixed((used.workers! * 1000) / hands, 1),
            machine_busy_pct: machineBusyPct(used),
            ...cpuFields(used),
            load: `${tables}x6 flat out`,
          });
        },
      ),
    );
  }
}
