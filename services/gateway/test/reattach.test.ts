// A re-attachment that the ring overtakes: the ring moves a table while the gateway is re-attaching
// one of its connections at the previous owner. The reconcile of that ring change passes the
// connection by (it is attaching); when the old owner's ack then arrives, the connection must still
// follow the table to its new owner, or it stays attached where the table no longer lives and
// receives none of its events.
import { createLogger, type RingMember, type RingView } from '@felt/platform';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChannelSubscriptions } from '../src/channel-subscriptions.js';
import { ConnectionIndex, type Attachment } from '../src/connection-index.js';
import type { GatewayMetrics } from '../src/metrics.js';
import { TableRequests, type TableClient } from '../src/table-requests.js';
import type { WorkerAnswer } from '../src/worker-link.js';
import type { RoutedAnswer, WorkerRouter } from '../src/worker-router.js';

const TABLE = 'table-1';
const silent = createLogger('gateway', { level: 'silent' });

function member(id: string): RingMember {
  return { id, addr: `${id}:1`, httpAddr: '', startedAt: 0, draining: false };
}

interface Asked {
  readonly tableId: string;
  readonly workerId: string;
  readonly answer: (a: WorkerAnswer) => void;
}

/** A ring whose owner the test moves, and a router whose answers the test gives one by one. */
function rig() {
  let owner = 'wa';
  const asked: Asked[] = [];
  const ring = { ownerOf: () => member(owner) } as unknown as RingView;
  const router = {
    link: () => ({ state: 'open', generation: 7 }),
    request: (tableId: string) => {
      const workerId = owner;
      return new Promise<RoutedAnswer>((resolve) => {
        asked.push({
          tableId,
          workerId,
          answer: (answer) => resolve({ answer, workerId, linkGeneration: 7, retried: false }),
        });
      });
    },
  } as unknown as WorkerRouter;
  const index = new ConnectionIndex();
  const requests = new TableRequests<TableClient & { closed: boolean }>({
    gatewayId: 'g1',
    ring,
    router,
    index,
    channels: { acquire: () => Promise.resolve(), release: () => undefined } as unknown as ChannelSubscriptions<
      TableClient & { closed: boolean }
    >,
    metrics: {
      notOwnerRetries: { inc: () => undefined },
      requestSeconds: { observe: () => undefined },
    } as unknown as GatewayMetrics,
    logger: silent,
    maxTablesPerSocket: 8,
    send: () => undefined,
    sendError: () => undefined,
  });
  // A connection attached at a worker that died: its table is now wa's.
  const att: Attachment = { state: 'attached', workerId: 'wdead', linkGeneration: 3, spectate: false };
  const conn = { id: 'c1', userId: 'u1', sessionId: 's1', name: 'Ann', tables: new Map([[TABLE, att]]), closed: false };
  index.add(conn, TABLE);
  return {
    requests,
    asked,
    att,
    moveTo: (id: string) => {
      owner = id;
    },
  };
}

const ack: WorkerAnswer = { kind: 'ack', atTableSeq: 10, replies: [] };

afterEach(() => {
  vi.useRealTimers();
});

describe('re-attachment overtaken by a ring change', () => {
  it('an ack from the previous owner, arriving after the ring moved the table on, is followed to the new owner', async () => {
    vi.useFakeTimers();
    const { requests, asked, att, moveTo } = rig();

    requests.reconcile();
    expect(asked.map((a) => a.workerId)).toEqual(['wa']);
    expect(att.state).toBe('attaching');

    // wb joins and the ring gives it the table; the reconcile of that change finds the connection
    // still attaching at wa and leaves it.
    moveTo('wb');
    requests.reconcile();
    expect(asked).toHaveLength(1);

    // wa answers (it still served the table when the attach reached it).
    asked[0]!.answer(ack);
    await vi.waitFor(() => expect(att).toMatchObject({ state: 'attached', workerId: 'wa' }));

    // The connection follows the table to wb.
    await vi.advanceTimersByTimeAsync(500);
    expect(asked.map((a) => a.workerId)).toEqual(['wa', 'wb']);
    asked[1]!.answer(ack);
    await vi.waitFor(() => expect(att).toMatchObject({ state: 'attached', workerId: 'wb' }));
    requests.stop();
  });

  it('an ack from the owner the ring still names needs nothing more', async () => {
    vi.useFakeTimers();
    const { requests, asked, att } = rig();
    requests.reconcile();
    asked[0]!.answer(ack);
    await vi.waitFor(() => expect(att).toMatchObject({ state: 'attached', workerId: 'wa' }));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(asked).toHaveLength(1);
    requests.stop();
  });
});
