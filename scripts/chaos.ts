// `npm run chaos -- --seconds S`: an SRE tool and test of failover. See scripts/chaos/run.ts
// and docs/operations.md ("Chaos"). Prints progress, then one line:
// CHAOS seconds=… kills=… pauses=… hands=… resumed=… voided=… lost_actions=… chips_delta=… stale_writes=… unconverged=…
// and exits 1 when lost_actions, chips_delta, stale_writes or unconverged is not zero.
import { parseArgs } from 'node:util';
import { chaosFailed, chaosLine, runChaos } from './chaos/run.js';

const USAGE = `usage: npm run chaos -- [options]

  --seconds S        how long to inject failures (default 60)
  --tables N         tables with SDK bots (default 20, at least 1)
  --players K        bots per table (default 2)
  --kill-every MS    mean time between worker SIGKILLs (default 5000)
  --pause-every MS   mean time between owner SIGSTOPs past the lease (default 15000)
  --seed N           seed of the bots and of the chaos schedule
  --quiet            no progress lines`;

function int(name: string, v: string | undefined, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    process.stderr.write(`--${name} must be an integer >= ${min}\n${USAGE}\n`);
    process.exit(2);
  }
  return n;
}

const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    tables: { type: 'string' },
    players: { type: 'string' },
    'kill-every': { type: 'string' },
    'pause-every': { type: 'string' },
    seed: { type: 'string' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const report = await runChaos({
  seconds: int('seconds', values.seconds, 60, 1),
  tables: int('tables', values.tables, 20, 1),
  playersPerTable: int('players', values.players, 2, 2),
  killEveryMs: int('kill-every', values['kill-every'], 5_000, 500),
  pauseEveryMs: int('pause-every', values['pause-every'], 15_000, 1_000),
  ...(values.seed !== undefined ? { seed: int('seed', values.seed, 0, 0) } : {}),
  log: values.quiet ? () => undefined : (line) => process.stderr.write(`${line}\n`),
});
for (const p of report.problems.slice(0, 20)) process.stderr.write(`chaos: ${p}\n`);
process.stderr.write(
  `chaos: checked ${report.ackedActions} acked actions of ${report.clients} clients; the workers refused ${report.refusedStaleWrites} stale writes\n`,
);
process.stdout.write(`${chaosLine(report)}\n`);
process.exit(chaosFailed(report) ? 1 : 0);
