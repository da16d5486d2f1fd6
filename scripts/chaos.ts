// `npm run chaos -- --seconds S`: an SRE tool and test of failover. See scripts/chaos/run.ts
// and docs/operations.md ("Chaos"). Prints progress, then one line:
// CHAOS seconds=… faults=worker:…,gateway:…,persister:…,redis:…,postgres:…,link:… kills=… pauses=… hands=… resumed=… voided=…
//   lost_actions=… chips_delta=… stale_writes=… unconverged=… audit=…
// and exits 1 when lost_actions, chips_delta, stale_writes or unconverged is not zero or the audit
// is not ok.
import { parseArgs } from 'node:util';
import { FAULT_KINDS, FaultListError, parseFaults, type FaultKind } from './chaos/faults.js';
import { chaosFailed, chaosLine, runChaos } from './chaos/run.js';

const USAGE = `usage: npm run chaos -- [options]

  --seconds S        how long to inject failures (default 60)
  --faults LIST      comma-separated fault kinds (default all: ${FAULT_KINDS.join(',')})
  --tables N         tables with SDK bots (default 20, at least 1)
  --players K        bots per table (default 2)
  --kill-every MS    mean time between worker SIGKILLs (default 5000)
  --pause-every MS   mean time between owner SIGSTOPs past the lease (default 15000)
  --gateway-every MS mean time between gateway SIGKILLs (default 20000)
  --persister-every MS  mean time between persister SIGKILLs (default 20000)
  --redis-every MS   mean time between Redis restarts, data kept, or master failovers (default 30000)
  --postgres-every MS  mean time between Postgres restarts, each 3 s down (default 30000)
  --link-every MS    mean time between stalls of a worker's link to Redis (default 20000)
  --redis-cluster    run every service on a 3-master Redis Cluster of the run's own (a replica each);
                     the redis fault then fails a master over to its replica (link is not injected)
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
    'gateway-every': { type: 'string' },
    'persister-every': { type: 'string' },
    'redis-every': { type: 'string' },
    'postgres-every': { type: 'string' },
    'link-every': { type: 'string' },
    faults: { type: 'string' },
    seed: { type: 'string' },
    'redis-cluster': { type: 'boolean' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const onCluster = values['redis-cluster'] === true;
let faults: FaultKind[] = FAULT_KINDS.filter((k) => !onCluster || k !== 'link');
if (values.faults !== undefined) {
  try {
    faults = parseFaults(values.faults);
    if (onCluster && faults.includes('link')) {
      throw new FaultListError('--faults link: not with --redis-cluster (a cluster client reaches every node)');
    }
  } catch (err) {
    if (!(err instanceof FaultListError)) throw err;
    process.stderr.write(`${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
}
const report = await runChaos({
  faults,
  redisCluster: onCluster,
  seconds: int('seconds', values.seconds, 60, 1),
  tables: int('tables', values.tables, 20, 1),
  playersPerTable: int('players', values.players, 2, 2),
  killEveryMs: int('kill-every', values['kill-every'], 5_000, 500),
  pauseEveryMs: int('pause-every', values['pause-every'], 15_000, 1_000),
  gatewayEveryMs: int('gateway-every', values['gateway-every'], 20_000, 2_000),
  persisterEveryMs: int('persister-every', values['persister-every'], 20_000, 2_000),
  redisEveryMs: int('redis-every', values['redis-every'], 30_000, 5_000),
  postgresEveryMs: int('postgres-every', values['postgres-every'], 30_000, 5_000),
  linkEveryMs: int('link-every', values['link-every'], 20_000, 2_000),
  ...(values.seed !== undefined ? { seed: int('seed', values.seed, 0, 0) } : {}),
  log: values.quiet ? () => undefined : (line) => process.stderr.write(`${line}\n`),
});
for (const p of report.problems.slice(0, 20)) process.stderr.write(`chaos: ${p}\n`);
process.stderr.write(
  `chaos: checked ${report.ackedActions} acked actions of ${report.clients} clients; the workers refused ${report.refusedStaleWrites} stale writes\n`,
);
process.stdout.write(`${chaosLine(report)}\n`);
process.exit(chaosFailed(report) ? 1 : 0);
