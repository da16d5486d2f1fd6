/*
 * BENCH gateway-fanout: messages a gateway delivers per second of its CPU (deliveries per second per
 * gateway core) with FELT_BENCH_FANOUT_SOCKETS (default 1,000) sockets attached to tables on it, ÷ the
 * deliveries per CPU second of a bare uWebSockets.js app `publish`ing to the same number of subscribed
 * sockets (raw-uws-server.ts), measured in the same run. Goal: at least 0.5.
 *
 * The gateway's events come from play: FELT_BENCH_FANOUT_TABLES (default 2) tables of 6 SDK bots
 * playing flat out (the load runner), all on one gateway, and the rest of the sockets spectating those
 * tables (harness RawSockets with signed session cookies). Its deliveries are its own
 * felt_gateway_messages_out_total, its CPU /proc's, over FELT_BENCH_FANOUT_SECONDS (default 15). The
 * bare app then publishes, for as long, messages of the spectators' mean size at the rate per socket
 * the gateway delivered, and its deliveries are counted at the sockets.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RawSocket } from '../../test/harness/raw-socket.js';
import type { BenchReporter } from './bench-api.js';
import {
  closeSockets,
  errorKinds,
  fastHandsEnv,
  openSockets,
  scrape,
  signedCookie,
  spectate,
  startPlay,
  verboseLog,
  withCluster,
} from './cluster-rig.js';
import { envInt, fixed, goalFields, metricSum } from './measure.js';
import { CpuWindow } from './proc-cpu.js';
import { RawUwsServer } from './raw-uws.js';

const GOAL = 0.5;
const PLAYERS = 6;
const WARMUP_S = 2;
const JOINS_AT_ONCE = 10;

/** Counts the messages and bytes `sockets` receive from now on. */
function tally(sockets: readonly RawSocket[]): { messages: number; bytes: number } {
  const t = { messages: 0, bytes: 0 };
  for (const s of sockets) {
    s.ws.on('message', (data: Buffer) => {
      t.messages++;
      t.bytes += data.length;
    });
  }
  return t;
}

interface Gateway {
  readonly deliveries: number;
  readonly cpuS: number;
  readonly wallS: number;
  readonly spectators: number;
  readonly meanBytes: number;
  readonly benchCpuS: number;
}

async function measureGateway(
  report: BenchReporter,
  sockets: number,
  tables: number,
  seconds: number,
): Promise<Gateway> {
  const spectators = sockets - tables * PLAYERS;
  if (spectators < 0) throw new Error(`FELT_BENCH_FANOUT_SOCKETS must be at least ${tables * PLAYERS}`);
  const env = {
    ...fastHandsEnv(),
    WORKER_MAX_SPECTATORS: String(sockets),
    GATEWAY_MAX_SOCKETS_PER_ADDRESS: String(sockets + 100),
  };
  return withCluster({ gateways: 1, workers: 1, lobby: true, persister: true, env }, async (cluster) => {
    const gateway = cluster.gateways[0]!;
    const play = startPlay(cluster, { tables, players: PLAYERS, thinkMs: 0, seed: 1516 });
    let watchers: RawSocket[] = [];
    try {
      await play.started;
      const tableIds = (await cluster.db.prisma.room.findMany({ select: { id: true } })).map((r) => r.id);
      if (tableIds.length !== tables) throw new Error(`expected ${tables} rooms, found ${tableIds.length}`);
      watchers = await openSockets(gateway.wsUrl, spectators, (i) => signedCookie(cluster, `spec-${i}`));
      // A few joins at a time: each is a command in the table's mailbox, between the players' actions.
      for (let from = 0; from < watchers.length; from += JOINS_AT_ONCE) {
        await Promise.all(
          watchers.slice(from, from + JOINS_AT_ONCE).map((s, k) => spectate(s, tableIds[(from + k) % tables]!)),
        );
      }
      verboseLog(`gateway-fanout: ${watchers.length} spectators joined`);
      const seen = tally(watchers);
      await sleep(WARMUP_S * 1000);
      const cpu = new CpuWindow({ gateway: gateway.proc.pid });
      const out0 = metricSum(await scrape(gateway.httpUrl), 'felt_gateway_messages_out_total');
      const seen0 = { ...seen };
      cpu.start();
      await sleep(seconds * 1000);
      const used = cpu.stop();
      const out1 = metricSum(await scrape(gateway.httpUrl), 'felt_gateway_messages_out_total');
      const messages = seen.messages - seen0.messages;
      return {
        deliveries: out1 - out0,
        cpuS: used.gateway!,
        wallS: used.wall!,
        spectators,
        meanBytes: messages > 0 ? (seen.bytes - seen0.bytes) / messages : 0,
        benchCpuS: used.bench!,
      };
    } finally {
      verboseLog('gateway-fanout: window closed; the play stops, then the spectators leave');
      const result = await play.stop();
      await closeSockets(watchers);
      report.info(`gateway-fanout: the event source: ${result.summary}; errors: ${errorKinds(result)}`);
    }
  });
}

interface Raw {
  readonly deliveries: number;
  readonly cpuS: number;
  readonly wallS: number;
  readonly published: number;
}

async function measureRaw(sockets: number, rate: number, bytes: number, seconds: number): Promise<Raw> {
  const server = await RawUwsServer.start();
  let clients: RawSocket[] = [];
  try {
    clients = await openSockets(server.wsUrl, sockets, () => Promise.resolve(undefined));
    const seen = tally(clients);
    await server.publish(rate, WARMUP_S, bytes);
    const cpu = new CpuWindow({ raw: server.pid });
    const seen0 = seen.messages;
    cpu.start();
    const published = await server.publish(rate, seconds, bytes);
    // The last tick's messages are still on their way to the sockets.
    await sleep(250);
    const used = cpu.stop();
    return { deliveries: seen.messages - seen0, cpuS: used.raw!, wallS: used.wall!, published };
  } finally {
    await closeSockets(clients);
    await server.stop();
  }
}

export async function run(report: BenchReporter): Promise<void> {
  const sockets = envInt('FELT_BENCH_FANOUT_SOCKETS', 1000);
  const tables = envInt('FELT_BENCH_FANOUT_TABLES', 2);
  const seconds = envInt('FELT_BENCH_FANOUT_SECONDS', 15);

  const gw = await measureGateway(report, sockets, tables, seconds);
  const gwPerCore = gw.deliveries / gw.cpuS;
  // The same load per socket for the bare app: the gateway's deliveries per second spread over its sockets.
  const rate = Math.max(1, Math.round(gw.deliveries / gw.wallS / sockets));
  const bytes = Math.max(64, Math.round(gw.meanBytes));
  const raw = await measureRaw(sockets, rate, bytes, seconds);
  const rawPerCore = raw.deliveries / raw.cpuS;
  report.figure('gateway-fanout', {
    ...goalFields(gwPerCore / rawPerCore, GOAL, 'at_least'),
    gateway_deliveries_per_core_s: Math.round(gwPerCore),
    raw_uws_deliveries_per_core_s: Math.round(rawPerCore),
    sockets,
    gateway_deliveries_per_s: Math.round(gw.deliveries / gw.wallS),
    gateway_cpu_s: fixed(gw.cpuS, 2),
    raw_uws_deliveries_per_s: Math.round(raw.deliveries / raw.wallS),
    raw_uws_cpu_s: fixed(raw.cpuS, 2),
    message_bytes: bytes,
  });
  report.info(
    `gateway-fanout: ${tables} tables x ${PLAYERS} bots + ${gw.spectators} spectators on one gateway for ${seconds} s ` +
      `(the sockets' process used ${fixed(gw.benchCpuS, 1)} CPU s); the bare app published ${raw.published} messages ` +
      `of ${bytes} bytes at ${rate}/s to ${sockets} sockets`,
  );
}
