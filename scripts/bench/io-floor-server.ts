/*
 * The I/O a table worker does for one commit, and nothing else (io-floor.bench.ts): a gateway's command
 * arrives on a gRPC Connect stream (the real TableService, protobuf and HTTP/2), the checkpoint is saved
 * by the worker's own RedisCheckpointStore (one EVALSHA of the measured size, fenced as in production
 * by no epoch), the batch is published by the worker's own RedisEventPublisher (one pipeline of the
 * measured count and size, texts prepared as snapshots' are), and the command is acknowledged on the
 * stream. No table, engine, views or hashes: what it costs is the floor under any worker that keeps
 * this design's per-command contract (checkpoint before ack, publish every batch).
 *
 * Environment: REDIS_URL, FELT_GRPC_TLS_CA/_CERT/_KEY (mutual TLS, as a worker), FLOOR_PREFIX (the Redis key prefix), FLOOR_STATE_BYTES, FLOOR_EVENTS,
 * FLOOR_EVENT_BYTES, FLOOR_PUBLICATIONS, FLOOR_PUBLICATION_BYTES, FLOOR_CHECKPOINT (0: no checkpoint is
 * saved, so with no publications only the gRPC request and its ack are left: the transport's own
 * share). Prints one JSON ready line (BenchChild) when it listens.
 */
import { Server, type ServerDuplexStream } from '@grpc/grpc-js';
import {
  grpcServerCredentials,
  grpcTlsFromEnv,
  TableServiceService,
  type GatewayFrame,
  type WorkerFrame,
} from '@felt/proto';
import { createRedis } from '@felt/platform';
import { RedisCheckpointStore } from '../../services/table-worker/src/adapters/redis-checkpoint-store.js';
import { RedisEventPublisher } from '../../services/table-worker/src/adapters/redis-publisher.js';
import type { Publication } from '../../services/table-worker/src/ports.js';
import type { BufferedEvent } from '../../services/table-worker/src/table/event-buffer.js';

const num = (name: string): number => {
  const v = Number(process.env[name]);
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`${name} must be a whole number, got ${process.env[name]}`);
  return v;
};

const prefix = process.env.FLOOR_PREFIX ?? 'floor:';
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { name: 'io-floor' });
const checkpoints = new RedisCheckpointStore(redis, prefix);
const publisher = new RedisEventPublisher(redis, prefix);

const state = JSON.stringify({
  format: 'felt-io-floor/1',
  padding: 'x'.repeat(Math.max(0, num('FLOOR_STATE_BYTES') - 40)),
});
const eventPadding = 'e'.repeat(Math.max(0, num('FLOOR_EVENT_BYTES') - 80));
const publicationPadding = 'p'.repeat(Math.max(0, num('FLOOR_PUBLICATION_BYTES') - 80));
const eventCount = num('FLOOR_EVENTS');
const publicationCount = num('FLOOR_PUBLICATIONS');
const saveCheckpoint = process.env.FLOOR_CHECKPOINT !== '0';
const seqs = new Map<string, number>();

/** A batch's events as the checkpoint buffers them. */
function events(tableId: string, from: number): BufferedEvent[] {
  return Array.from({ length: eventCount }, (_, i) => ({
    tableSeq: from + i,
    audience: { kind: 'table', except: [] },
    message: {
      type: 'chat_message',
      table_id: tableId,
      table_seq: from + i,
      user_id: 'u',
      name: 'n',
      text: eventPadding,
    },
  })) as unknown as BufferedEvent[];
}

/** A batch's publications, each to one member's stream, its text prepared (as a snapshot's is). */
function publications(tableId: string, tableSeq: number): Publication[] {
  return Array.from({ length: publicationCount }, (_, i) => {
    const message = { type: 'table_closed', table_id: tableId, table_seq: tableSeq } as const;
    return {
      audience: { kind: 'user', userId: `user-${i % 6}` },
      message,
      text: JSON.stringify({ ...message, padding: publicationPadding }),
    };
  });
}

async function commit(tableId: string, requestId: string, call: ServerDuplexStream<GatewayFrame, WorkerFrame>) {
  const first = (seqs.get(tableId) ?? 0) + 1;
  const last = first + eventCount;
  seqs.set(tableId, last);
  if (saveCheckpoint) {
    await checkpoints.save(tableId, last, state, events(tableId, first), { mark: { handId: null, handNo: 0 } });
  }
  if (publicationCount > 0) void publisher.publish(tableId, publications(tableId, last));
  call.write({ frame: { $case: 'ack', ack: { requestId, tableId, atTableSeq: last } } });
}

const server = new Server();
server.addService(TableServiceService, {
  connect(call: ServerDuplexStream<GatewayFrame, WorkerFrame>) {
    call.on('data', (frame: GatewayFrame) => {
      if (frame.frame?.$case === 'hello') {
        call.write({ frame: { $case: 'welcome', welcome: { workerId: 'floor' } } });
      } else if (frame.frame?.$case === 'command') {
        const c = frame.frame.command;
        commit(c.tableId, c.requestId, call).catch((err: unknown) => {
          console.error('commit failed', err);
          process.exit(1);
        });
      }
    });
    call.on('end', () => call.end());
  },
  health: (_call: unknown, cb: (err: null, res: object) => void) => cb(null, {}),
  drain: (_call: unknown, cb: (err: null, res: object) => void) => cb(null, {}),
  tournament: (_call: unknown, cb: (err: null, res: object) => void) => cb(null, {}),
});
// Mutual TLS as the workers of the bench's clusters have it (FELT_GRPC_TLS_*), plaintext without.
server.bindAsync('127.0.0.1:0', grpcServerCredentials(grpcTlsFromEnv(process.env)), (err, port) => {
  if (err) throw err;
  process.stdout.write(`${JSON.stringify({ event: 'ready', port })}\n`);
});
process.on('SIGTERM', () => {
  server.forceShutdown();
  redis.disconnect();
  process.exit(0);
});
