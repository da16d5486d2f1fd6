#!/usr/bin/env node
// `npm run load -w @felt/loadtest -- --lobby URL --users N --duration S`: drives the load scenario
// against a running cluster and prints one LOAD summary line on stdout (details on stderr). Exits 1
// when any user failed, so scripts can gate on it; Ctrl-C ends the run early with the same summary.
import { ArgsError, USAGE, parseLoadArgs } from './args.js';
import { resolveGateways } from './gateways.js';
import { defaultDeps, runLoad } from './runner.js';

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseLoadArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof ArgsError)) throw err;
    process.stderr.write(`${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  const config = { ...parsed, gateways: await resolveGateways(parsed, log) };
  log(
    `load: ${config.users} users, ${config.durationS}s after a ${config.rampUpS}s ramp-up, rooms of ${config.roomSize}, ` +
      `lobby ${config.lobby.origin}, gateways ${config.gateways.join(' ')}`,
  );

  const stop = new AbortController();
  const onSignal = (): void => {
    log('load: stopping early (signal)');
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const stats = await runLoad(config, defaultDeps(config, log), stop.signal);
  for (const [kind, n] of stats.errorBreakdown()) log(`load: error ${kind} x${n}`);
  process.stdout.write(`${stats.summaryLine(config.users)}\n`);
  return stats.errors === 0 && stats.connected === config.users ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`load: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 2;
  },
);
