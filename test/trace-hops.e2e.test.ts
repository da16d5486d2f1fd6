// One trace follows a player's action through every hop of the cluster: the gateway's request span,
// the worker's command span, its Redis calls (checkpoint, publish, the hand job), the gateways'
// delivery of what it published (the trace context rides in the pub/sub envelope), and the hand job
// through BullMQ to the persister's write in Postgres. Real processes with in-memory span exporters
// (FELT_TRACE_MEMORY), read back from each one's /debug/spans.
import type { DebugSpan } from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './harness/cluster.js';
import type { TableClient } from './harness/table-client.js';
import { dealAndFold } from './harness/table-ops.js';
import { waitFor } from './harness/wait.js';

let cluster: Cluster;
const open: TableClient[] = [];

beforeAll(async () => {
  cluster = await Cluster.start({
    gateways: 1,
    workers: 1,
    lobby: true,
    persister: true,
    tracing: true,
    env: { FELT_HAND_PAUSE_MS: '200', FELT_SEED_WINDOW_MS: '300' },
  });
});

afterAll(async () => {
  for (const c of open) c.close();
  await cluster?.stop();
});

async function spansOf(url: string): Promise<DebugSpan[]> {
  return (await (await fetch(`${url}/debug/spans`)).json()) as DebugSpan[];
}

describe('tracing through every hop', () => {
  it('a fold that ends a hand: gateway → worker → Redis → gateway delivery, and worker → BullMQ → persister → Postgres', async () => {
    const { tableId, clients } = await dealAndFold(cluster);
    open.push(...clients);

    const gatewayUrl = cluster.gateways[0]!.httpUrl;
    const workerUrl = cluster.workers[0]!.httpUrl;
    const persisterUrl = cluster.persister!.httpUrl;
    const action = await waitFor('the gateway span of the fold', async () =>
      (await spansOf(gatewayUrl)).find((s) => s.name === 'gateway.action' && s.attributes['felt.table_id'] === tableId),
    );
    const trace = action.traceId;
    const inTrace = async (url: string) => (await spansOf(url)).filter((s) => s.traceId === trace);

    // The persister's write is the last hop: once it is in the trace, every hop before it ended too.
    const persister = await waitFor('the persister’s spans in the fold’s trace', async () => {
      const spans = await inTrace(persisterUrl);
      return spans.some((s) => s.name === 'persister.hand.completed') &&
        spans.some((s) => s.attributes['db.system.name'] === 'postgresql')
        ? spans
        : undefined;
    });
    const worker = await inTrace(workerUrl);
    const gateway = await inTrace(gatewayUrl);
    const names = (spans: DebugSpan[]) => spans.map((s) => `${s.service}:${s.name}`);

    // The worker served the command under the gateway's span.
    const command = worker.find((s) => s.name === 'table.action');
    expect(command, names(worker).join(', ')).toBeDefined();
    expect(command!.parentSpanId).toBe(action.spanId);
    // Its Redis calls: the checkpoint and the publish, and the hand job added to the queue.
    const redisCalls = worker.filter((s) => s.attributes['db.system.name'] === 'redis');
    expect(
      redisCalls.map((s) => s.name),
      names(worker).join(', '),
    ).toEqual(expect.arrayContaining(['evalsha', 'publish']));
    const produced = worker.find(
      (s) => s.attributes['bullmq.queue.operation'] === 'add' && s.attributes['bullmq.job.name'] === 'hand.completed',
    );
    expect(produced, names(worker).join(', ')).toBeDefined();

    // The gateway delivered what the worker published in the same trace.
    const deliveries = gateway.filter((s) => s.name === 'gateway.deliver');
    expect(deliveries.length, names(gateway).join(', ')).toBeGreaterThan(0);
    expect(deliveries.every((d) => d.attributes['felt.table_id'] === tableId)).toBe(true);
    expect(deliveries.map((d) => d.attributes['felt.message_type'])).toContain('hand_result');

    // The persister processed the hand job and wrote it to Postgres, still in the same trace.
    const processed = persister.find((s) => s.name === 'persister.hand.completed')!;
    expect(processed.attributes['felt.result']).toBe('written');
    const sql = persister.filter((s) => s.attributes['db.system.name'] === 'postgresql');
    expect(
      sql.map((s) => s.name.split(' ')[0]),
      names(persister).join(', '),
    ).toEqual(expect.arrayContaining(['pg.query:BEGIN', 'pg.query:COMMIT']));
  });
});
