/*
 * What the cluster benches share: a real local cluster from the test harness (test/harness/cluster.ts)
 * set up for measuring, the load runner's playing bots (@felt/loadtest's runPlay, the code behind
 * `npm run load -- --play`) with a window the bench can time, services' metrics, and authenticated
 * sockets from the harness's RawSocket. Everything started here is on the cleanup list (cleanup.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runPlay, type PlayConfig, type PlayResult } from '@felt/loadtest';
import { Cluster, TEST_ORIGIN, type ClusterOptions } from '../../test/harness/cluster.js';
import { RawSocket, type ServerMsg } from '../../test/harness/raw-socket.js';
import { sessionCookie } from '../../test/harness/session.js';
import { pause } from '../../test/harness/wait.js';
import { onCleanup } from './cleanup.js';
import { envPairs } from './measure.js';

// ---- the cluster -----------------------------------------------------------------------------

/** FELT_BENCH_PROFILE=<dir>: where each service's CPU profile goes (made absolute and created), or undefined. */
export function profileDir(): string | undefined {
  const dir = process.env.FELT_BENCH_PROFILE;
  if (dir === undefined || dir.trim() === '') return undefined;
  const abs = resolve(dir);
  mkdirSync(abs, { recursive: true });
  return abs;
}

export interface BenchClusterOptions extends ClusterOptions {
  /** Every service can be profiled into this directory ({@link profileEnv}). */
  readonly profileDir?: string | undefined;
}

const PRELOAD = new URL('./bench-preload.mjs', import.meta.url).href;

/**
 * The environment that makes a Node process profile itself into `dir` between two SIGUSR2s
 * ({@link signalAll}), as `node --cpu-prof` would (bench-preload.mjs, through NODE_OPTIONS).
 */
export function profileEnv(dir: string): Record<string, string> {
  return { NODE_OPTIONS: `--import=${PRELOAD}`, FELT_BENCH_SIGNAL: 'profile', FELT_CPU_PROF_DIR: dir };
}

/** The environment that makes a Node process collect its garbage on SIGUSR2 (bench-preload.mjs). */
export function gcOnSignalEnv(): Record<string, string> {
  return { NODE_OPTIONS: `--import=${PRELOAD}`, FELT_BENCH_SIGNAL: 'gc' };
}

/** SIGUSR2 to each process: what bench-preload.mjs does with it depends on the env it was started with. */
export function signalAll(pids: readonly number[]): void {
  for (const pid of pids) process.kill(pid, 'SIGUSR2');
}

/** The profile `pid` wrote into `dir` (CPU.<pid>.<n>.cpuprofile), waiting for it a moment. */
export async function profileOf(dir: string, pid: number, timeoutMs = 10_000): Promise<string | undefined> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const file = readdirSync(dir).find((f) => f.startsWith(`CPU.${pid}.`) && f.endsWith('.cpuprofile'));
    if (file !== undefined) return join(dir, file);
    if (performance.now() > deadline) return undefined;
    await pause(200, 'a profile is written when its process gets the signal');
  }
}

/**
 * The harness's cluster with what a measurement needs: spans are not kept in memory, and heartbeats
 * and session checks run at their production intervals (the harness changes these for tests). With
 * `profileDir` every service can be profiled ({@link profileEnv}); `env` adds to or overrides all this.
 */
export async function withCluster<T>(options: BenchClusterOptions, fn: (cluster: Cluster) => Promise<T>): Promise<T> {
  const { profileDir: prof, ...rest } = options;
  const starting = Cluster.start({
    ...rest,
    env: {
      // The production defaults of what the harness shortens for tests: background work as deployed.
      FELT_TRACE_MEMORY: '0',
      // The module hook as deployed (the harness leaves it out of clusters that record no spans).
      OTEL_ESM_HOOK: '1',
      FELT_HEARTBEAT_MS: '1000',
      FELT_MEMBER_TTL_MS: '5000',
      GATEWAY_SESSION_CHECK_MS: '15000',
      ...(prof !== undefined ? profileEnv(prof) : {}),
      ...rest.env,
      ...envPairs('FELT_BENCH_SERVICE_ENV'),
    },
  });
  // On the cleanup list from the start: interrupted while starting, it is stopped once it is up
  // (a cluster that fails to start stops itself).
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= starting.then(
      (c) => c.stop(),
      () => undefined,
    ));
  const forget = onCleanup(stop);
  try {
    const cluster = await starting;
    verboseLog(`cluster up: redis prefix ${cluster.prefix}, database ${new URL(cluster.db.url).pathname.slice(1)}`);
    return await fn(cluster);
  } finally {
    forget();
    await stop();
  }
}

/** Timers shortened (as the e2e suites do) so a bot table deals a hand every second or so, not every 5 s. */
export function fastHandsEnv(): Record<string, string> {
  return {
    FELT_HAND_PAUSE_MS: String(process.env.FELT_BENCH_HAND_PAUSE_MS ?? 200),
    FELT_SEED_WINDOW_MS: String(process.env.FELT_BENCH_SEED_WINDOW_MS ?? 300),
  };
}

// ---- playing bots ------------------------------------------------------------------------------

export interface PlayShape {
  readonly tables: number;
  readonly players: number;
  /** Each bot's think time before each decision; 0 is flat out. */
  readonly thinkMs: number;
  /** With it, each think time is drawn between thinkMs and this (a human pace, as `--think 1000-3000`). */
  readonly thinkMaxMs?: number;
  /** Sign-ups a second while seating (default 5: each is a password hash at the lobby). */
  readonly signupPerSecond?: number;
  readonly seed: number;
}

export interface PlayRun {
  /** Resolves when every table is seated and joined and the runner's measured window opens. */
  readonly started: Promise<void>;
  /** Closes the window now, lets the runner close its rooms and clients, and returns its result. */
  stop(): Promise<PlayResult>;
}

/**
 * `npm run load -- --play` in this process against `cluster`: new accounts signed up through its lobby,
 * `shape.tables` unlisted hold'em rooms of `shape.players` SDK bots playing through its gateways. The
 * measured window stays open until stop(), so the bench times it.
 */
export function startPlay(cluster: Cluster, shape: PlayShape, log: (line: string) => void = verboseLog): PlayRun {
  if (!cluster.lobby) throw new Error('playing needs the lobby');
  const config: PlayConfig = {
    lobby: new URL(cluster.lobby.url),
    tables: shape.tables,
    playersPerTable: shape.players,
    durationS: 24 * 3600,
    think: { minMs: shape.thinkMs, maxMs: shape.thinkMaxMs ?? shape.thinkMs },
    // Each sign-up is a password hash at the lobby: a gentle rate, so none times out on a busy machine.
    accounts: { kind: 'signup', prefix: 'bench-', perSecond: shape.signupPerSecond ?? 5 },
    passwordScheme: 'felt-bench-password',
    gateways: cluster.gateways.map((g) => g.wsUrl),
    origin: TEST_ORIGIN,
    timeoutMs: 30_000,
    seed: shape.seed,
  };
  const abort = new AbortController();
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  const done = runPlay(
    config,
    config.gateways,
    {
      log: (line) => {
        if (line.includes('; playing for ')) open();
        log(line);
      },
    },
    abort.signal,
  );
  const started = Promise.race([
    opened,
    done.then(() => {
      throw new Error('the play run ended before its measured window opened');
    }),
  ]);
  // stop() is what reports a failed run; a failure before the window is reported by `started` too.
  started.catch(() => undefined);
  return {
    started,
    stop: () => {
      abort.abort();
      return done;
    },
  };
}

/** FELT_BENCH_VERBOSE=1 shows the clusters' namespaces and the load runner's progress and errors on stderr. */
export function verboseLog(line: string): void {
  if (process.env.FELT_BENCH_VERBOSE === '1') process.stderr.write(`${new Date().toISOString()} ${line}\n`);
}

/** `key=value` of the runner's LOAD line, as a number (NaN when absent or `na`). */
export function loadField(summary: string, key: string): number {
  const m = new RegExp(`(?:^| )${key}=(\\S+)`).exec(summary);
  return m ? Number(m[1]) : NaN;
}

/** Error kinds of a play run, `<kind>x<n>` comma-separated, or `none`. */
export function errorKinds(result: PlayResult): string {
  const kinds = [...result.stats.errorBreakdown()].map(([k, n]) => `${k}x${n}`);
  return kinds.length > 0 ? kinds.join(',') : 'none';
}

// ---- metrics ---------------------------------------------------------------------------------

/** A service's `/metrics` page. */
export async function scrape(httpUrl: string): Promise<string> {
  const res = await fetch(`${httpUrl}/metrics`);
  if (!res.ok) throw new Error(`${httpUrl}/metrics answered ${res.status}`);
  return res.text();
}

// ---- sockets -----------------------------------------------------------------------------------

/** A session cookie for a new user the lobby never saw, signed with the cluster's secret (as the e2e tests do). */
export function signedCookie(cluster: Cluster, name: string): Promise<string> {
  return sessionCookie(cluster.secret, { userId: randomUUID(), name });
}

/**
 * Opens `count` sockets to `url`, `concurrency` at a time, each answered a ping (so the server holds
 * it), with the cookie `cookieFor(i)` gives. Messages are handed to listeners, not kept.
 */
export async function openSockets(
  url: string,
  count: number,
  cookieFor: (i: number) => Promise<string | undefined>,
  concurrency = 50,
): Promise<RawSocket[]> {
  const sockets: RawSocket[] = [];
  const forget = onCleanup(() => closeSockets(sockets));
  try {
    for (let from = 0; from < count; from += concurrency) {
      await Promise.all(
        Array.from({ length: Math.min(concurrency, count - from) }, async (_, k) => {
          const cookie = await cookieFor(from + k);
          const s = await RawSocket.connect(url, {
            origin: TEST_ORIGIN,
            keepMessages: false,
            ...(cookie !== undefined ? { cookie } : {}),
          });
          sockets.push(s);
          const probe = await s.probe(20_000);
          if (!('pong' in probe))
            throw new Error(`socket ${from + k} closed: ${probe.closed.code} ${probe.closed.reason}`);
        }),
      );
    }
  } catch (err) {
    forget();
    await closeSockets(sockets);
    throw err;
  }
  forget();
  return sockets;
}

/** Closes every socket and waits (a bounded while) for the closes to complete. */
export async function closeSockets(sockets: readonly RawSocket[]): Promise<void> {
  for (const s of sockets) s.close();
  await Promise.race([Promise.all(sockets.map((s) => s.closed)), pause(5_000, 'closes that never complete')]);
}

/** Joins `tableId` as a spectator on an open socket; resolves once its first table_state arrived. */
export async function spectate(socket: RawSocket, tableId: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const answer = socket.next(
      (m: ServerMsg) => m.table_id === tableId && (m.type === 'table_state' || m.type === 'error'),
      20_000,
    );
    socket.send({ type: 'join_table', table_id: tableId, spectate: true });
    const m = await answer;
    if (m.type === 'table_state') return;
    if (m.code !== 'unavailable' || attempt >= 5)
      throw new Error(`spectating ${tableId} refused: ${JSON.stringify(m)}`);
    await pause(500, 'a client backs off before asking an unavailable table again');
  }
}
