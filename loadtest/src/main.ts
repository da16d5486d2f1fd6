#!/usr/bin/env node
// `npm run load -- …` (or `npm run load -w @felt/loadtest -- …`): drives a running cluster and prints
// one LOAD summary line on stdout (details on stderr). Two scenarios:
//   --play   bots seated by the @felt/client SDK play real hands (play.ts);
//   default  sessions that join a table and ping (runner.ts).
// Exits 1 when anything failed, so scripts can gate on it, and 2 on bad arguments; Ctrl-C ends the
// run early with the same summary.
import { ArgsError, USAGE, parseLoadArgs } from './args.js';
import { resolveGateways } from './gateways.js';
import { PLAY_USAGE, parsePlayArgs } from './play-args.js';
import { runPlay } from './play.js';
import { defaultDeps, runLoad } from './runner.js';

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** Ctrl-C and SIGTERM end the run early; the summary still prints. */
function stopSignal(): AbortSignal {
  const stop = new AbortController();
  const onSignal = (): void => {
    log('load: stopping early (signal)');
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return stop.signal;
}

async function play(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parsePlayArgs(argv, process.env);
  } catch (err) {
    if (!(err instanceof ArgsError)) throw err;
    process.stderr.write(`${err.message}\n\n${PLAY_USAGE}\n`);
    return 2;
  }
  if (parsed === 'help') {
    process.stdout.write(`${PLAY_USAGE}\n`);
    return 0;
  }
  const gateways = await resolveGateways(parsed, log);
  const think =
    parsed.think.maxMs === 0 ? 'flat out' : `think ${parsed.think.minMs / 1000}-${parsed.think.maxMs / 1000}s`;
  log(
    `load: play, ${parsed.tables} tables × ${parsed.playersPerTable} players, ${parsed.durationS}s, ${think}, ` +
      `seed ${parsed.seed}, lobby ${parsed.lobby.origin}, gateways ${gateways.join(' ')}`,
  );
  const { stats, summary } = await runPlay(parsed, gateways, { log }, stopSignal());
  log(`load: ${stats.rebuys} rebuys, ${stats.losses} lost messages resynced, ${stats.busyRetries} busy retries`);
  for (const [kind, n] of stats.errorBreakdown()) log(`load: error ${kind} x${n}`);
  process.stdout.write(`${summary}\n`);
  return stats.errors === 0 ? 0 : 1;
}

async function ping(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseLoadArgs(argv);
  } catch (err) {
    if (!(err instanceof ArgsError)) throw err;
    process.stderr.write(`${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const config = { ...parsed, gateways: await resolveGateways(parsed, log) };
  log(
    `load: ${config.users} users, ${config.durationS}s after a ${config.rampUpS}s ramp-up, rooms of ${config.roomSize}, ` +
      `lobby ${config.lobby.origin}, gateways ${config.gateways.join(' ')}`,
  );
  const stats = await runLoad(config, defaultDeps(config, log), stopSignal());
  for (const [kind, n] of stats.errorBreakdown()) log(`load: error ${kind} x${n}`);
  process.stdout.write(`${stats.summaryLine(config.users)}\n`);
  return stats.errors === 0 && stats.connected === config.users ? 0 : 1;
}

const argv = process.argv.slice(2);
(argv.includes('--play') ? play(argv) : ping(argv)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`load: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 2;
  },
);
