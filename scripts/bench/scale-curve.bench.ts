/*
 * BENCH scale-curve (docs/operations.md, "Capacity planning"): SDK bots playing flat out (think 0) on
 * FELT_BENCH_SCALE_TABLES (default 12) tables of 6 against 1, 2 and 3 workers (1 gateway, lobby,
 * persister; a Redis of its own), each for FELT_BENCH_SCALE_SECONDS (default 20) after FELT_BENCH_SCALE_WARMUP (default 8)
 * s: hands a second at saturation and the CPU seconds of every process, Redis and Postgres included
 * (Postgres: every `postgres` process of the machine's server, so other databases' work counts too),
 * and how busy the machine's cores were. The bots run in this process, on the same cores.
 */
import type { BenchReporter } from './bench-api.js';
import { cpuFields, machineBusyPct, measurePlay, oneAddressEnv, withPrivateRedis } from './capacity-rig.js';
import { fastHandsEnv, withCluster } from './cluster-rig.js';
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
          env: { ...fastHandsEnv(), ...oneAddressEnv(tables * 6) },
          redisUrl,
        },
        async (cluster) => {
          const shape = { tables, players: 6, thinkMs: 0, signupPerSecond: 10, seed: 4100 + workers };
          const label = `scale-curve workers=${workers}`;
          const { used, hands } = await measurePlay(report, label, cluster, shape, warmup, seconds);
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
