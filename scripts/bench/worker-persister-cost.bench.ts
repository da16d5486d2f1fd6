/*
 * BENCH worker-cost and BENCH persister-cost: what a completed hand costs the table worker, and a
 * persisted hand the persister, in CPU (/proc/<pid>/stat of each child process), under a fixed playing
 * load, ÷ the engine's own CPU per hand for the same game played in this process (engine-cost.ts).
 * Goals: worker at most 20, persister at most 10.
 *
 * The engine's figure is felt-sim's work per hand, without its file write (engine-cost.ts).
 *
 * The load: FELT_BENCH_LOAD_TABLES (default 4) unlisted 6-max NL hold'em rooms of
 * FELT_BENCH_LOAD_PLAYERS (default 6) SDK bots playing flat out (think 0) through one gateway, one
 * worker, a lobby and a persister (`npm run load -- --play`'s runner). After FELT_BENCH_LOAD_WARMUP
 * seconds (default 10) the window opens for FELT_BENCH_LOAD_SECONDS (default 30): hands completed come
 * from the worker's felt_worker_hands_total{event="completed"}, hands persisted from the persister's
 * felt_persister_jobs_total{kind="hand",result="written"}. FELT_BENCH_ENGINE_HANDS (default 2000) hands
 * per round of the engine anchor.
 *
 * FELT_BENCH_PROFILE=<dir> profiles the worker, the persister and the gateway over the measured window
 * as `node --cpu-prof` would (bench-preload.mjs) into <dir>/CPU.<pid>.1.cpuprofile and prints their top
 * self-time functions (profile-top.ts); the ratios of such a run carry the profiler's overhead.
 */
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster } from '../../test/harness/cluster.js';
import type { BenchReporter } from './bench-api.js';
import {
  errorKinds,
  fastHandsEnv,
  profileDir,
  profileOf,
  scrape,
  signalAll,
  startPlay,
  withCluster,
  type PlayRun,
} from './cluster-rig.js';
import { engineCpuPerHand } from './engine-cost.js';
import { envInt, fixed, goalFields, metricSum } from './measure.js';
import { CpuWindow } from './proc-cpu.js';
import { formatSummary, readProfile, summarizeProfile } from './profile-top.js';

const WORKER_GOAL = 20;
const PERSISTER_GOAL = 10;

interface Counts {
  readonly completed: number;
  readonly commands: number;
  /** The tables' checkpoint saves that stood, and their state text in bytes. */
  readonly checkpoints: number;
  readonly checkpointBytes: number;
  readonly persisted: number;
  readonly queued: number;
}

async function counts(cluster: Cluster): Promise<Counts> {
  const [worker, persister] = await Promise.all([
    scrape(cluster.workers[0]!.httpUrl),
    scrape(cluster.persister!.httpUrl),
  ]);
  return {
    completed: metricSum(worker, 'felt_worker_hands_total', { event: 'completed' }),
    commands: metricSum(worker, 'felt_worker_commands_total', { result: 'ok' }),
    checkpoints: metricSum(worker, 'felt_worker_checkpoints_total', { result: 'saved' }),
    checkpointBytes: metricSum(worker, 'felt_worker_checkpoint_bytes_total'),
    persisted: metricSum(persister, 'felt_persister_jobs_total', { kind: 'hand', result: 'written' }),
    queued: metricSum(persister, 'felt_persister_queue_depth', { state: 'waiting' }),
  };
}

/** Prints the top self-time functions of each profiled process. */
async function reportProfiles(
  report: BenchReporter,
  dir: string,
  pids: Readonly<Record<string, number>>,
): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  for (const [name, pid] of Object.entries(pids)) {
    const file = await profileOf(dir, pid);
    if (file === undefined) {
      report.info(`profile: none written by the ${name} (pid ${pid}) in ${dir}`);
      continue;
    }
    const summary = summarizeProfile(readProfile(file), { top: 25, root });
    for (const line of formatSummary(`profile ${name} (${file})`, summary)) report.info(line);
  }
}

export async function run(report: BenchReporter): Promise<void> {
  const tables = envInt('FELT_BENCH_LOAD_TABLES', 4);
  const players = envInt('FELT_BENCH_LOAD_PLAYERS', 6, 2);
  const warmup = envInt('FELT_BENCH_LOAD_WARMUP', 10, 0);
  const seconds = envInt('FELT_BENCH_LOAD_SECONDS', 30);
  const engineHands = envInt('FELT_BENCH_ENGINE_HANDS', 2000);
  const prof = profileDir();

  // The anchor first, on a machine the cluster does not load yet.
  const engine = engineCpuPerHand(engineHands, players);

  await withCluster(
    { gateways: 1, workers: 1, lobby: true, persister: true, env: fastHandsEnv(), profileDir: prof },
    async (cluster) => {
      const cpu = new CpuWindow({
        worker: cluster.workers[0]!.proc.pid,
        persister: cluster.persister!.proc.pid,
        gateway: cluster.gateways[0]!.proc.pid,
        lobby: cluster.lobby!.proc.pid,
      });
      // Profiled (FELT_BENCH_PROFILE) over the measured window only.
      const profiled = {
        worker: cluster.workers[0]!.proc.pid,
        persister: cluster.persister!.proc.pid,
        gateway: cluster.gateways[0]!.proc.pid,
      };
      const play: PlayRun = startPlay(cluster, { tables, players, thinkMs: 0, seed: 1515 });
      let used: Record<string, number>;
      let loadDecisions: number;
      let before: Counts;
      let after: Counts;
      try {
        await play.started;
        await sleep(warmup * 1000);
        before = await counts(cluster);
        if (prof !== undefined) signalAll(Object.values(profiled));
        cpu.start();
        await sleep(seconds * 1000);
        used = cpu.stop();
        if (prof !== undefined) signalAll(Object.values(profiled));
        after = await counts(cluster);
      } finally {
        const result = await play.stop();
        loadDecisions = result.stats.actions / result.stats.handCount;
        report.info(`load: ${result.summary}; errors: ${errorKinds(result)}`);
      }
      const completed = after.completed - before.completed;
      const persisted = after.persisted - before.persisted;
      const workerMs = (used.worker! * 1000) / completed;
      const persisterMs = (used.persister! * 1000) / persisted;
      const shape = `${tables}x${players}`;
      const checkpoints = after.checkpoints - before.checkpoints;
      report.figure('worker-cost', {
        ...goalFields(workerMs / engine.msPerHand, WORKER_GOAL, 'at_most'),
        worker_cpu_ms_per_hand: fixed(workerMs, 2),
        engine_cpu_ms_per_hand: fixed(engine.msPerHand, 3),
        hands: completed,
        window_s: fixed(used.wall!, 1),
        worker_cpu_s: fixed(used.worker!, 2),
        checkpoints_per_hand: fixed(checkpoints / completed, 1),
        checkpoint_kb: fixed((after.checkpointBytes - before.checkpointBytes) / Math.max(1, checkpoints) / 1024, 1),
        load: shape,
      });
      report.figure('persister-cost', {
        ...goalFields(persisterMs / engine.msPerHand, PERSISTER_GOAL, 'at_most'),
        persister_cpu_ms_per_hand: fixed(persisterMs, 2),
        engine_cpu_ms_per_hand: fixed(engine.msPerHand, 3),
        hands: persisted,
        persister_cpu_s: fixed(used.persister!, 2),
        queue_waiting_at_end: after.queued,
        load: shape,
      });
      report.info(
        `cost: ${fixed(completed / used.wall!, 2)} hands/s; worker commands per hand ${fixed((after.commands - before.commands) / completed, 1)}, ` +
          `bot decisions per hand ${fixed(loadDecisions, 1)}; ` +
          `engine decisions per hand ${fixed(engine.actionsPerHand, 1)} and ${Math.round(engine.historyBytes)} bytes of history ` +
          `(${engine.hands} hands x ${engine.rounds} rounds); ` +
          `CPU s in the window: gateway ${fixed(used.gateway!, 2)}, lobby ${fixed(used.lobby!, 2)}, bots (this process) ${fixed(used.bench!, 2)}` +
          (prof !== undefined ? '; PROFILED: the ratios include the profiler' : ''),
      );
      if (prof !== undefined) await reportProfiles(report, prof, profiled);
    },
  );
}
