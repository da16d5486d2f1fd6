/*
 * BENCH idle-socket: what an idle authenticated socket costs a gateway in memory (its RSS from /proc,
 * after FELT_BENCH_IDLE_SOCKETS sockets, default 5,000, minus before, per socket) ÷ what an idle
 * socket costs a bare uWebSockets.js app (raw-uws-server.ts) measured the same way in the same run.
 * Goal: at most 2.
 *
 * The gateway's sockets carry session cookies signed with the cluster's secret (distinct users, as
 * the e2e tests make them), join no table, and are each answered a ping before the second reading, so
 * every one was admitted. Both servers first accept and close a few sockets, so that code paths
 * are warm and first-use allocations are in the "before" reading, and both collect their garbage
 * before each reading (bench-preload.mjs, on SIGUSR2): what is counted is what the sockets hold, not
 * garbage from the upgrades that a later GC would have returned.
 */
import type { Cluster } from '../../test/harness/cluster.js';
import type { BenchReporter } from './bench-api.js';
import { closeSockets, gcOnSignalEnv, openSockets, signalAll, signedCookie, withCluster } from './cluster-rig.js';
import { envInt, fixed, goalFields } from './measure.js';
import { settledRss } from './proc-cpu.js';
import { RawUwsServer } from './raw-uws.js';
import { pause } from '../../test/harness/wait.js';

const GOAL = 2;
const WARM_SOCKETS = 50;
const SETTLE_MS = 1_000;

/** The server's RSS once it has collected its garbage. */
async function heldRss(pid: number): Promise<number> {
  await pause(SETTLE_MS, 'let the server finish what the sockets started');
  signalAll([pid]);
  await pause(SETTLE_MS, 'a full GC, and the pages it frees returned');
  return settledRss(pid);
}

/** RSS growth per socket of the server `pid` at `url` for `count` sockets opened with `cookieFor`. */
async function bytesPerSocket(
  pid: number,
  url: string,
  count: number,
  cookieFor: (i: number) => Promise<string | undefined>,
): Promise<{ perSocket: number; before: number; after: number }> {
  await closeSockets(await openSockets(url, WARM_SOCKETS, (i) => cookieFor(count + i)));
  const before = await heldRss(pid);
  const sockets = await openSockets(url, count, cookieFor);
  try {
    const after = await heldRss(pid);
    return { perSocket: (after - before) / count, before, after };
  } finally {
    await closeSockets(sockets);
  }
}

export async function run(report: BenchReporter): Promise<void> {
  const count = envInt('FELT_BENCH_IDLE_SOCKETS', 5000);

  const server = await RawUwsServer.start(gcOnSignalEnv());
  let raw;
  try {
    raw = await bytesPerSocket(server.pid, server.wsUrl, count, () => Promise.resolve(undefined));
  } finally {
    await server.stop();
  }

  const gw = await withCluster(
    {
      gateways: 1,
      workers: 1,
      lobby: false,
      persister: false,
      env: { ...gcOnSignalEnv(), GATEWAY_MAX_SOCKETS_PER_ADDRESS: String(count + WARM_SOCKETS + 100) },
    },
    (cluster: Cluster) => {
      const gateway = cluster.gateways[0]!;
      return bytesPerSocket(gateway.proc.pid, gateway.wsUrl, count, (i) => signedCookie(cluster, `idle-${i}`));
    },
  );

  report.figure('idle-socket', {
    // A server whose memory did not grow measured nothing: no ratio then (ok=false), not a zero or
    // negative one, which would pass as under the goal.
    ...goalFields(raw.perSocket > 0 && gw.perSocket > 0 ? gw.perSocket / raw.perSocket : NaN, GOAL, 'at_most'),
    gateway_bytes_per_socket: Math.round(gw.perSocket),
    raw_uws_bytes_per_socket: Math.round(raw.perSocket),
    sockets: count,
    gateway_rss_mb: `${fixed(gw.before / 2 ** 20, 1)}->${fixed(gw.after / 2 ** 20, 1)}`,
    raw_uws_rss_mb: `${fixed(raw.before / 2 ** 20, 1)}->${fixed(raw.after / 2 ** 20, 1)}`,
  });
}
