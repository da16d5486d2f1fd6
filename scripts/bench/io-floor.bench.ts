/*
 * BENCH worker-io-floor: what a table worker's I/O alone costs per commit, and so per hand, under this
 * design's per-command contract (a command stands once its checkpoint is in Redis; every batch is
 * published; then the gateway gets its ack). io-floor-server.ts does exactly that I/O with the worker's
 * own adapters (the gRPC TableService with mutual TLS, RedisCheckpointStore, RedisEventPublisher) and
 * nothing else: no table, engine, views or hashes. Its CPU per commit (/proc), times the commits a hand
 * takes, ÷ the engine's CPU per hand (the worker-cost anchor), is the lowest `worker-cost` ratio any
 * worker keeping that contract could read on this machine: no goal, a floor to read the goal against.
 *
 * The load matches worker-cost's by default: FELT_BENCH_FLOOR_TABLES (4) tables, each sending one
 * command, waiting for its ack, and sending the next on a fixed beat, FELT_BENCH_FLOOR_RATE (270)
 * commits a second in all; a commit writes a checkpoint of FELT_BENCH_FLOOR_STATE_BYTES (17400) with
 * FELT_BENCH_FLOOR_EVENTS (3) buffered events of 300 bytes and publishes FELT_BENCH_FLOOR_PUBLICATIONS
 * (13) of FELT_BENCH_FLOOR_PUBLICATION_BYTES (1300); FELT_BENCH_FLOOR_COMMITS_PER_HAND (23) commits
 * make a hand (what worker-cost prints as checkpoints_per_hand and checkpoint_kb).
 * FELT_BENCH_FLOOR_CHECKPOINT=0 saves no checkpoint: with FELT_BENCH_FLOOR_PUBLICATIONS=0 too, what is
 * left is the gRPC command and its ack, the transport's own share of the floor. 5 s of warm-up, then
 * FELT_BENCH_FLOOR_SECONDS (20).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { ClientDuplexStream } from '@grpc/grpc-js';
import { closeRedis, createRedis } from '@felt/platform';
import {
  ActionType,
  grpcChannelCredentials,
  TableServiceClient,
  type GatewayFrame,
  type WorkerFrame,
} from '@felt/proto';
import { ensureDevCertificates } from '../dev-certs.js';
import type { BenchReporter } from './bench-api.js';
import { BenchChild } from './bench-child.js';
import { engineCpuPerHand } from './engine-cost.js';
import { envInt, fixed, percentile } from './measure.js';
import { CpuWindow } from './proc-cpu.js';

const SERVER = fileURLToPath(new URL('./io-floor-server.ts', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** One gateway's Connect stream: commands out, each resolved by its ack. */
class FloorLink {
  private readonly waiting = new Map<string, (atMs: number) => void>();
  private constructor(private readonly call: ClientDuplexStream<GatewayFrame, WorkerFrame>) {
    call.on('data', (frame: WorkerFrame) => {
      if (frame.frame?.$case !== 'ack') return;
      const resolve = this.waiting.get(frame.frame.ack.requestId);
      this.waiting.delete(frame.frame.ack.requestId);
      resolve?.(performance.now());
    });
  }

  static async open(client: InstanceType<typeof TableServiceClient>): Promise<FloorLink> {
    const call = client.connect();
    const welcomed = new Promise<void>((resolve, reject) => {
      call.once('data', () => resolve());
      call.once('error', reject);
    });
    call.write({ frame: { $case: 'hello', hello: { gatewayId: 'io-floor' } } });
    await welcomed;
    return new FloorLink(call);
  }

  /** Sends one action of `tableId`'s; resolves with the ack's round trip in ms. */
  command(tableId: string, n: number): Promise<number> {
    const requestId = `r${n}`;
    const sent = performance.now();
    const acked = new Promise<number>((resolve) => this.waiting.set(requestId, (at) => resolve(at - sent)));
    this.call.write({
      frame: {
        $case: 'command',
        command: {
          requestId,
          connectionId: `c-${tableId}`,
          userId: 'u',
          tableId,
          traceContext: {},
          commandId: `a-${n}`,
          command: {
            $case: 'act',
            act: { handId: tableId, turnToken: 'tok', action: ActionType.ACTION_TYPE_CALL, cards: [] },
          },
        },
      },
    });
    return acked;
  }

  end(): void {
    this.call.end();
  }
}

export async function run(report: BenchReporter): Promise<void> {
  const tables = envInt('FELT_BENCH_FLOOR_TABLES', 4);
  const rate = envInt('FELT_BENCH_FLOOR_RATE', 270);
  const seconds = envInt('FELT_BENCH_FLOOR_SECONDS', 20);
  const commitsPerHand = envInt('FELT_BENCH_FLOOR_COMMITS_PER_HAND', 23);
  const sizes = {
    FLOOR_STATE_BYTES: String(envInt('FELT_BENCH_FLOOR_STATE_BYTES', 17_400)),
    FLOOR_EVENTS: String(envInt('FELT_BENCH_FLOOR_EVENTS', 3, 0)),
    FLOOR_EVENT_BYTES: '300',
    FLOOR_PUBLICATIONS: String(envInt('FELT_BENCH_FLOOR_PUBLICATIONS', 13, 0)),
    FLOOR_PUBLICATION_BYTES: String(envInt('FELT_BENCH_FLOOR_PUBLICATION_BYTES', 1300)),
    FLOOR_CHECKPOINT: envInt('FELT_BENCH_FLOOR_CHECKPOINT', 1, 0) === 0 ? '0' : '1',
  };
  const engine = engineCpuPerHand(envInt('FELT_BENCH_ENGINE_HANDS', 2000), 6);

  const certs = ensureDevCertificates(mkdtempSync(join(tmpdir(), 'felt-floor-')));
  const prefix = `floor${randomBytes(4).toString('hex')}:`;
  const server = await BenchChild.start(SERVER, 'io-floor server', {
    REDIS_URL,
    FLOOR_PREFIX: prefix,
    ...sizes,
    ...certs.worker,
  });
  const client = new TableServiceClient(
    `127.0.0.1:${server.port}`,
    grpcChannelCredentials({
      ca: certs.gateway.FELT_GRPC_TLS_CA,
      cert: certs.gateway.FELT_GRPC_TLS_CERT,
      key: certs.gateway.FELT_GRPC_TLS_KEY,
    }),
  );
  const link = await FloorLink.open(client);
  const beatMs = (tables * 1000) / rate;
  let stop = false;
  let commits = 0;
  const acks: number[] = [];
  let n = 0;
  const loops = Array.from({ length: tables }, async (_, t) => {
    const tableId = randomUUID();
    // Spread the tables over the beat, as independent tables are.
    await sleep((beatMs * t) / tables);
    let next = performance.now();
    while (!stop) {
      acks.push(await link.command(tableId, n++));
      commits++;
      next += beatMs;
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      else next = performance.now();
    }
  });
  try {
    await sleep(5_000);
    const cpu = new CpuWindow({ server: server.pid });
    const from = commits;
    acks.length = 0;
    cpu.start();
    await sleep(seconds * 1000);
    const used = cpu.stop();
    const done = commits - from;
    const msPerCommit = (used.server! * 1000) / done;
    const floorPerHand = msPerCommit * commitsPerHand;
    report.figure('worker-io-floor', {
      floor_ratio: fixed(floorPerHand / engine.msPerHand, 1),
      io_cpu_ms_per_commit: fixed(msPerCommit, 3),
      io_cpu_ms_per_hand: fixed(floorPerHand, 2),
      engine_cpu_ms_per_hand: fixed(engine.msPerHand, 3),
      commits_per_s: fixed(done / used.wall!, 0),
      ack_p50_ms: fixed(percentile(acks, 50), 2),
      commits_per_hand: commitsPerHand,
      checkpoint: sizes.FLOOR_CHECKPOINT === '1' ? 'yes' : 'no',
      publications: Number(sizes.FLOOR_PUBLICATIONS),
      tables,
    });
  } finally {
    stop = true;
    await Promise.all(loops);
    link.end();
    client.close();
    await server.stop();
    const redis = createRedis(REDIS_URL, { name: 'io-floor-cleanup' });
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await closeRedis(redis);
  }
}
