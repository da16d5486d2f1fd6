/*
 * BENCH latency-under-load and BENCH capacity-per-core (docs/operations.md, "Capacity planning"):
 * FELT_BENCH_CAP_TABLES (default 40) tables of FELT_BENCH_CAP_PLAYERS (default 6) SDK bots thinking
 * 1–3 s (`npm run load -- --play`'s default pace) on the `npm start` topology (2 gateways, 3 workers,
 * lobby, persister) on a Redis of its own, all on this machine with the bots, for FELT_BENCH_CAP_SECONDS (default 60) after
 * FELT_BENCH_CAP_WARMUP (default 10) s. Goal: ack p99 at most 100 ms, with no errors.
 *
 * From the CPU each service used in that window, capacity-per-core says what one core of each carries
 * at that pace: tables of 6 per worker core, sockets per gateway core, hands a second per persister
 * core and per Redis core.
 */
import type { BenchReporter } from './bench-api.js';
import { cpuFields, machineBusyPct, measurePlay, oneAddressEnv, withPrivateRedis } from './capacity-rig.js';
import { loadField, withCluster } from './cluster-rig.js';
import { envInt, fixed } from './measure.js';

const ACK_P99_GOAL_MS = 100;

export async function run(report: BenchReporter): Promise<void> {
  const tables = envInt('FELT_BENCH_CAP_TABLES', 40);
  const players = envInt('FELT_BENCH_CAP_PLAYERS', 6, 2);
  const seconds = envInt('FELT_BENCH_CAP_SECONDS', 60);
  const warmup = envInt('FELT_BENCH_CAP_WARMUP', 10, 0);
  await withPrivateRedis((redisUrl) =>
    withCluster(
      { gateways: 2, workers: 3, lobby: true, persister: true, env: oneAddressEnv(tables * players), redisUrl },
      async (cluster) => {
        const shape = { tables, players, thinkMs: 1000, thinkMaxMs: 3000, signupPerSecond: 10, seed: 4006 };
        const { used, hands, result } = await measurePlay(
          report,
          'latency-under-load',
          cluster,
          shape,
          warmup,
          seconds,
        );
        const summary = result.summary;
        const ackP99 = loadField(summary, 'ack_p99_ms');
        const errors = loadField(summary, 'errors');
        const handsPerS = hands / used.wall!;
        report.figure('latency-under-load', {
          ack_p99_ms: fixed(ackP99, 1),
          goal: `<=${ACK_P99_GOAL_MS}`,
          ok: String(ackP99 <= ACK_P99_GOAL_MS && errors === 0),
          ack_p50_ms: fixed(loadField(summary, 'ack_p50_ms'), 1),
          broadcast_p99_ms: fixed(loadField(summary, 'broadcast_p99_ms'), 1),
          errors,
          load: `${tables}x${players}`,
          think: '1-3s',
          hands_per_s: fixed(handsPerS, 2),
          machine_busy_pct: machineBusyPct(used),
          ...cpuFields(used),
          window_s: fixed(used.wall!, 1),
        });
        // What one core of each service carries of this load.
        const perCore = (cpuS: number | undefined, amount: number) =>
          cpuS !== undefined && cpuS > 0 ? Math.round((amount * used.wall!) / cpuS) : 'na';
        report.figure('capacity-per-core', {
          tables_per_worker_core: perCore(used.workers, tables),
          sockets_per_gateway_core: perCore(used.gateways, tables * players),
          hands_per_s_per_persister_core: perCore(used.persister, handsPerS),
          hands_per_s_per_redis_core: perCore(used.redis, handsPerS),
          hands_per_s_per_table: fixed(handsPerS / tables, 4),
          load: `${tables}x${players}`,
        });
      },
    ),
  );
}
