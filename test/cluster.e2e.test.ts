// The real cluster (2 gateways, 2 workers, lobby) as separate processes on ephemeral ports, against the
// machine's Postgres and Redis.
import { randomUUID } from 'node:crypto';
import { HashRing } from '@felt/platform';
import { stateHash } from '@felt/protocol';
import { TableServiceClient, type WorkerFrame } from '@felt/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, TEST_ORIGIN } from './harness/cluster.js';
import { LobbyClient, type SignedUpUser } from './harness/lobby-client.js';
import { sessionCookie } from './harness/session.js';
import { isTableState, seatOf, waitForSeat, type TableStateMsg } from './harness/table.js';
import { waitFor } from './harness/wait.js';
import { TestSocket } from './harness/ws-client.js';

interface DebugSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  attributes: Record<string, unknown>;
}

let cluster: Cluster;
let lobby: LobbyClient;
let ann: SignedUpUser;
let bob: SignedUpUser;
let tableId: string;
let movedTable: string;
let annSocket: TestSocket;
let bobSocket: TestSocket;
const opened: TestSocket[] = [];

async function connect(gateway: number, cookie: string): Promise<TestSocket> {
  const s = await TestSocket.connect(cluster.gateways[gateway]!.wsUrl, { cookie, origin: TEST_ORIGIN });
  opened.push(s);
  return s;
}

async function allHealthy(): Promise<void> {
  for (const p of cluster.processes()) expect(p.alive, `${p.name} is running`).toBe(true);
  const ops = [
    ...cluster.gateways.map((g) => g.httpUrl),
    ...cluster.workers.map((w) => w.httpUrl),
    cluster.persister!.httpUrl,
  ];
  for (const url of ops) {
    expect((await fetch(`${url}/healthz`)).status, `${url}/healthz`).toBe(200);
    expect((await fetch(`${url}/readyz`)).status, `${url}/readyz`).toBe(200);
  }
}

beforeAll(async () => {
  cluster = await Cluster.start({ gateways: 2, workers: 2, lobby: true, persister: true, tracing: true });
  lobby = new LobbyClient(cluster.lobby!.url);
});

afterAll(async () => {
  for (const s of opened) s.close();
  await cluster?.stop();
});

describe('cluster walking skeleton', () => {
  it('two users sign up over HTTP, one creates a room, both join; through different gateways each sees the other seated', async () => {
    ann = await lobby.signUp(`ann-${randomUUID().slice(0, 8)}`);
    bob = await lobby.signUp(`bob-${randomUUID().slice(0, 8)}`);
    // No hands: this suite is about the cluster's plumbing (hands have their own suites).
    const room = await lobby.createRoom(ann, { startHand: { autoStart: false } });
    tableId = room.sessionId;

    annSocket = await connect(0, ann.cookie);
    annSocket.send({ type: 'join_table', table_id: tableId, command_id: 'a1' });
    const first = await waitForSeat(annSocket, tableId, ann.userId, 'active');
    expect(seatOf(first, bob.userId)).toBeUndefined();

    // Bob joins through the lobby while Ann watches: the worker hears it on room-events.
    await lobby.joinByCode(bob, room.code);
    const seated = await waitForSeat(annSocket, tableId, bob.userId, 'disconnected');
    expect(seatOf(seated, bob.userId)?.name).toBe(bob.name);

    bobSocket = await connect(1, bob.cookie);
    bobSocket.send({ type: 'join_table', table_id: tableId, command_id: 'b1' });
    const bobView = await waitForSeat(bobSocket, tableId, ann.userId, 'active');
    expect(seatOf(bobView, bob.userId)).toMatchObject({ name: bob.name, status: 'active' });
    const annView = await waitForSeat(annSocket, tableId, bob.userId, 'active');
    expect(seatOf(annView, ann.userId)?.status).toBe('active');
    expect(annView.table_seq).toBeGreaterThan(first.table_seq);
    // Same table at the same table_seq, whichever gateway delivered it; each hash covers its recipient's view.
    const bobSame = (await bobSocket.next(
      (m) => isTableState(m, tableId) && m.table_seq === annView.table_seq,
    )) as unknown as TableStateMsg;
    expect(bobSame.seats).toEqual(annView.seats);
    for (const view of [annView, bobSame])
      expect(view.state_hash).toBe(stateHash(view as unknown as Record<string, unknown>));
  });

  it('refuses a user who is not a member of the room at attach', async () => {
    const carol = await lobby.signUp(`carol-${randomUUID().slice(0, 8)}`);
    const socket = await connect(1, carol.cookie);
    socket.send({ type: 'join_table', table_id: tableId, command_id: 'c1' });
    const err = await socket.next((m) => m.type === 'error');
    expect(err).toMatchObject({ code: 'not_member', command_id: 'c1', table_id: tableId });
    expect(socket.messages.some((m) => m.type === 'table_state')).toBe(false);
    // An id that names no room is refused as such.
    socket.send({ type: 'join_table', table_id: randomUUID(), command_id: 'c2' });
    expect(await socket.next((m) => m.type === 'error' && m.command_id === 'c2')).toMatchObject({
      code: 'table_not_found',
    });
    socket.close();
  });

  it('refuses a bad Origin, a forged cookie and a revoked cookie at upgrade', async () => {
    const url = cluster.gateways[0]!.wsUrl;
    expect(await TestSocket.refusal(url, { cookie: ann.cookie, origin: 'https://evil.example' })).toBe(403);
    expect(await TestSocket.refusal(url, { origin: TEST_ORIGIN })).toBe(401);
    const forged = await sessionCookie('f'.repeat(43), { userId: ann.userId, name: ann.name });
    expect(await TestSocket.refusal(url, { cookie: forged, origin: TEST_ORIGIN })).toBe(401);

    const dave = await lobby.signUp(`dave-${randomUUID().slice(0, 8)}`);
    const open = await connect(0, dave.cookie);
    await lobby.logout(dave);
    // Logout also ends sockets that were already open.
    expect((await open.closed).code).toBe(4001);
    expect(await TestSocket.refusal(url, { cookie: dave.cookie, origin: TEST_ORIGIN })).toBe(401);
    expect(await TestSocket.refusal(cluster.gateways[1]!.wsUrl, { cookie: dave.cookie, origin: TEST_ORIGIN })).toBe(
      401,
    );
  });

  it('answers malformed JSON, an unknown type and an oversized frame with a typed error or close code 1009; nothing crashes', async () => {
    const s = await connect(0, bob.cookie);
    s.sendRaw('{"type":"join_table",');
    expect(await s.next((m) => m.type === 'error')).toMatchObject({ code: 'bad_json' });
    s.send({ type: 'deal_me_aces', command_id: 'x1' });
    expect(await s.next((m) => m.type === 'error' && m.command_id === 'x1')).toMatchObject({ code: 'unknown_type' });
    s.send({ type: 'join_table', table_id: tableId, user_id: ann.userId, command_id: 'x2' });
    expect(await s.next((m) => m.type === 'error' && m.command_id === 'x2')).toMatchObject({ code: 'invalid_frame' });
    s.send({ type: 'ping', nonce: 'still-here' });
    expect(await s.next((m) => m.type === 'pong')).toMatchObject({ nonce: 'still-here' });

    s.sendRaw(JSON.stringify({ type: 'ping', nonce: 'x'.repeat(20_000) }));
    expect((await s.closed).code).toBe(1009);

    await allHealthy();
    // The table kept working for everyone else.
    const before = annSocket.messages.length;
    annSocket.send({ type: 'resync_request', table_id: tableId, command_id: 'r0' });
    const resync = (await annSocket.next((m) => m.type === 'resync_response', 10_000, before)) as {
      snapshot: TableStateMsg;
    };
    expect(seatOf(resync.snapshot, bob.userId)?.status).toBe('active');
  });

  it('drops frames over the rate limit with rate_limited, then closes a socket that keeps flooding (4008)', async () => {
    const s = await connect(1, bob.cookie);
    for (let i = 0; i < 120; i++) s.send({ type: 'ping' });
    expect(await s.next((m) => m.type === 'error')).toMatchObject({ code: 'rate_limited' });
    expect((await s.closed).code).toBe(4008);
    await allHealthy();
  });

  it('traces one command across gateway and worker', async () => {
    const from = annSocket.messages.length;
    annSocket.send({ type: 'resync_request', table_id: tableId, command_id: 'trace-me' });
    await annSocket.next((m) => m.type === 'resync_response' && m.table_id === tableId, 10_000, from);
    const spans = async (url: string) => (await (await fetch(`${url}/debug/spans`)).json()) as DebugSpan[];
    const { gatewaySpan, workerSpan } = await waitFor('gateway and worker spans of the resync', async () => {
      const gw = (await spans(cluster.gateways[0]!.httpUrl)).filter(
        (s) => s.name === 'gateway.resync_request' && s.attributes['felt.table_id'] === tableId,
      );
      const wk = (await Promise.all(cluster.workers.map((w) => spans(w.httpUrl)))).flat();
      for (const g of gw) {
        const w = wk.find((s) => s.name === 'table.resync' && s.parentSpanId === g.spanId);
        if (w) return { gatewaySpan: g, workerSpan: w };
      }
      return undefined;
    });
    expect(gatewaySpan.service).toBe('gateway');
    expect(workerSpan.service).toBe('table-worker');
    expect(workerSpan.traceId).toBe(gatewaySpan.traceId);
    expect(workerSpan.parentSpanId).toBe(gatewaySpan.spanId);

    // Logs join traces: the worker logged the table's creation inside the first join's trace.
    const created = cluster.workers
      .flatMap((w) => w.proc.jsonLogs())
      .find((l) => l.event === 'table_created' && l.tableId === tableId);
    expect(created?.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const joins = (await spans(cluster.gateways[0]!.httpUrl)).filter(
      (s) => s.name === 'gateway.join_table' && s.attributes['felt.table_id'] === tableId,
    );
    expect(joins.map((s) => s.traceId)).toContain(created!.trace_id);

    // The gRPC instrumentation is live in the worker (the ESM preload hook took): an admin call
    // leaves a server span.
    const worker = cluster.workers[0]!;
    const client = new TableServiceClient(worker.grpcAddr, cluster.gatewayCredentials());
    try {
      await new Promise<void>((resolve, reject) => client.health({}, (err) => (err ? reject(err) : resolve())));
    } finally {
      client.close();
    }
    await waitFor('a gRPC server span for Health', async () =>
      (await spans(worker.httpUrl)).find((s) => s.name === 'grpc.felt.table.v1.TableService/Health'),
    );
  });

  it('serves Prometheus metrics on every service', async () => {
    const text = async (url: string) => (await fetch(`${url}/metrics`)).text();
    const gw = await text(cluster.gateways[0]!.httpUrl);
    expect(gw).toMatch(/felt_gateway_sockets\{service="gateway"\} \d+/);
    expect(gw).toMatch(/felt_gateway_refusals_total\{reason="origin_not_allowed",service="gateway"\} [1-9]/);
    expect(gw).toContain('felt_gateway_messages_in_total');
    const wk = (await Promise.all(cluster.workers.map((w) => text(w.httpUrl)))).join('\n');
    expect(wk).toMatch(/felt_worker_live_tables\{service="table-worker"\} [1-9]/);
    expect(wk).toMatch(/felt_worker_commands_total\{type="attach",result="ok",service="table-worker"\} [1-9]/);
    expect(wk).toContain('felt_worker_command_duration_seconds_bucket');
    // Every table's attach was committed: its checkpoint save is counted (main.ts wires countedCheckpoints).
    expect(wk).toMatch(/felt_worker_checkpoints_total\{result="saved",service="table-worker"\} [1-9]/);
    expect(wk).toMatch(/felt_worker_checkpoint_bytes_total\{service="table-worker"\} [1-9]/);
    const ps = await text(cluster.persister!.httpUrl);
    expect(ps).toContain('felt_persister_queue_depth');
    expect(ps).toContain('process_cpu_user_seconds_total');
  });

  it('gateways and workers compute the same owner for every table', async () => {
    const ids = Array.from({ length: 40 }, () => randomUUID());
    const ringOf = async (url: string, id: string) =>
      ((await (await fetch(`${url}/debug/ring?table=${id}`)).json()) as { owner: string; members: string[] }).owner;
    const owners = new Set<string>();
    for (const id of ids) {
      const answers = await Promise.all(
        [...cluster.gateways.map((g) => g.httpUrl), ...cluster.workers.map((w) => w.httpUrl)].map((u) => ringOf(u, id)),
      );
      expect(new Set(answers).size, `owners of ${id}: ${answers.join(',')}`).toBe(1);
      owners.add(answers[0]!);
    }
    expect(owners).toEqual(new Set(cluster.workers.map((w) => w.id)));

    // A worker asked about a table it does not own names the same owner in its NOT_OWNER hint.
    const notMine = ids[0]!;
    const gatewayOwner = await ringOf(cluster.gateways[0]!.httpUrl, notMine);
    const other = cluster.workers.find((w) => w.id !== gatewayOwner)!;
    const client = new TableServiceClient(other.grpcAddr, cluster.gatewayCredentials());
    try {
      const stream = client.connect();
      const frames: WorkerFrame[] = [];
      stream.on('data', (f: WorkerFrame) => frames.push(f));
      stream.on('error', () => undefined);
      stream.write({ frame: { $case: 'hello', hello: { gatewayId: 'e2e' } } });
      stream.write({
        frame: {
          $case: 'attach',
          attach: {
            requestId: 'q1',
            connectionId: 'c',
            userId: ann.userId,
            userName: ann.name,
            tableId: notMine,
            traceContext: {},
            spectate: false,
          },
        },
      });
      const hint = await waitFor('NOT_OWNER', () => frames.find((f) => f.frame?.$case === 'notOwner'));
      expect(hint.frame).toMatchObject({
        $case: 'notOwner',
        notOwner: { tableId: notMine, ownerWorkerId: gatewayOwner },
      });
      stream.end();
    } finally {
      client.close();
    }
  });

  it('when a worker joins, tables it now owns move to it and their clients get a fresh snapshot', async () => {
    const newId = cluster.nextWorkerId();
    const future = new HashRing([...cluster.workers.map((w) => w.id), newId]);
    // Rooms get server-side ids: make rooms until one will belong to the new worker.
    let moving: string | undefined;
    for (let i = 0; i < 30 && !moving; i++) {
      const room = await lobby.createRoom(ann, { startHand: { autoStart: false } });
      if (future.ownerOf(room.sessionId) === newId) moving = room.sessionId;
    }
    expect(moving, 'a room that moves to the new worker').toBeDefined();
    movedTable = moving!;
    const s = await connect(1, ann.cookie);
    s.send({ type: 'join_table', table_id: moving });
    const before = await waitForSeat(s, moving!, ann.userId, 'active');

    const joined = await cluster.addWorker(newId);
    for (const g of cluster.gateways) {
      await waitFor(`${g.id} sees ${newId}`, async () => {
        const r = (await (await fetch(`${g.httpUrl}/debug/ring?table=${moving}`)).json()) as { owner: string };
        return r.owner === newId;
      });
    }
    // The gateway re-attached Ann at the new owner, which continued table_seq from the checkpoint.
    const after = await waitFor('a fresh snapshot from the new owner', () =>
      s.messages.find(
        (m): m is Record<string, unknown> & TableStateMsg => isTableState(m, moving) && m.table_seq > before.table_seq,
      ),
    );
    expect(seatOf(after, ann.userId)?.status).toBe('active');
    const live = (await (await fetch(`${joined.httpUrl}/debug/ring`)).json()) as { liveTables: number };
    expect(live.liveTables).toBeGreaterThanOrEqual(1);
    const sent = s.messages.length;
    s.send({ type: 'resync_request', table_id: moving, command_id: 'm1' });
    const resynced = (await s.next((m) => m.type === 'resync_response', 10_000, sent)) as {
      to_table_seq: number;
      snapshot: TableStateMsg;
    };
    expect(resynced.to_table_seq).toBeGreaterThanOrEqual(after.table_seq);
    // Nothing changed since: the resync snapshot is the one the stream carried, hash for hash.
    expect(resynced.snapshot.state_hash).toBe(after.state_hash);
    s.close();
  });

  it('a worker stopped with SIGTERM leaves the ring at once, exits 0, and its tables move on', async () => {
    const leaving = cluster.workers.at(-1)!;
    const mine = await waitFor('a table on the leaving worker', async () => {
      const r = (await (await fetch(`${leaving.httpUrl}/debug/ring`)).json()) as { liveTables: number };
      return r.liveTables > 0 ? r : undefined;
    });
    expect(mine.liveTables).toBeGreaterThan(0);
    // The table the previous test moved onto this worker.
    const moving = movedTable;
    expect(new HashRing(cluster.workers.map((w) => w.id)).ownerOf(moving)).toBe(leaving.id);
    const s = await connect(1, ann.cookie);
    s.send({ type: 'join_table', table_id: moving });
    const before = await waitForSeat(s, moving, ann.userId, 'active');

    expect(await leaving.proc.stop()).toBe(0);
    const remaining = cluster.workers.filter((w) => w !== leaving).map((w) => w.id);
    const owner = await waitFor(
      'the gateway to drop the leaving worker',
      async () => {
        const r = (await (await fetch(`${cluster.gateways[1]!.httpUrl}/debug/ring?table=${moving}`)).json()) as {
          owner: string;
          members: string[];
        };
        return r.members.includes(leaving.id) ? undefined : r.owner;
      },
      3_000,
    );
    expect(remaining).toContain(owner);
    const after = await waitFor('a fresh snapshot from the next owner', () =>
      s.messages.find(
        (m): m is Record<string, unknown> & TableStateMsg => isTableState(m, moving) && m.table_seq > before.table_seq,
      ),
    );
    expect(seatOf(after, ann.userId)?.status).toBe('active');
    cluster.workers.splice(cluster.workers.indexOf(leaving), 1);
    s.close();
  });

  it('when a gateway process dies, its client reconnects through the other gateway and gets a fresh snapshot', async () => {
    const bobFrom = bobSocket.messages.length;
    const killed = cluster.gateways[0]!;
    await killed.proc.kill('SIGKILL');
    const closed = await annSocket.closed;
    expect(closed.code).toBe(1006);
    // The worker saw the gateway's stream end and marked Ann disconnected for everyone.
    const gone = await waitForSeat(bobSocket, tableId, ann.userId, 'disconnected', 10_000, bobFrom);

    const again = await connect(1, ann.cookie);
    again.send({ type: 'join_table', table_id: tableId, command_id: 'a2' });
    const fresh = await waitForSeat(again, tableId, ann.userId, 'active');
    expect(fresh.table_seq).toBeGreaterThan(gone.table_seq);
    expect(seatOf(fresh, bob.userId)?.status).toBe('active');
    await waitForSeat(bobSocket, tableId, ann.userId, 'active', 10_000, bobFrom);

    for (const p of cluster.processes().filter((p) => p !== killed.proc)) expect(p.alive, p.name).toBe(true);
  });

  it('gateways, workers and the persister stop cleanly on SIGTERM with exit code 0', async () => {
    const procs = [
      ...cluster.gateways.map((g) => g.proc),
      ...cluster.workers.map((w) => w.proc),
      cluster.persister!.proc,
    ].filter((p) => p.alive);
    expect(procs.length).toBeGreaterThanOrEqual(4);
    for (const p of procs) expect(await p.stop(), p.name).toBe(0);
  });
});
