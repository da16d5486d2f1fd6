// Invariants 8 and 11 of docs/architecture.md, by fuzzing: at least 100,000 generated client frames
// (valid frames mutated, wrong types, huge numbers, unknown fields, deep nesting, invalid UTF-8,
// binary, oversized and empty frames) through a real gateway and worker, from several sockets of one
// attacker account spectating a table where two honest players keep playing. Every frame must get
// exactly what the protocol promises (a typed error, its answer, or a close code), no process may fail,
// and the honest players' actions must keep being acknowledged throughout; their ack latency is
// printed, not asserted.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { parseClientFrame, type TableState } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, TEST_ORIGIN, type GatewayHandle } from './harness/cluster.js';
import { fuzzFrame, validFrame, type FuzzContext, type FuzzFrame } from './harness/frame-fuzz.js';
import { LobbyClient, type SignedUpUser } from './harness/lobby-client.js';
import { RawSocket } from './harness/raw-socket.js';
import { passivePlay, TableClient, type Msg } from './harness/table-client.js';
import { expectationOf, FuzzLane, newFuzzStats, type FuzzLimits, type FuzzStats } from './harness/ws-fuzzer.js';

/** Frames to send in all. */
const TARGET_FRAMES = 100_000;
/** The run is cut into slices of this many frames; each must see an honest ack before it closes. */
const SLICE_FRAMES = 10_000;
/** A slice that waits this long for an honest ack fails the run (a stalled table, not a slow one). */
const SLICE_TIMEOUT_MS = 90_000;
/** Attacker sockets: well under the per-account cap (16), so none is refused for that. */
const LANES = 8;
const SEED = Number(process.env.FELT_FUZZ_SEED ?? 0x5eed13);
const LIMITS: FuzzLimits = { maxPayload: 16384, maxBlindPayload: 163840, maxTablesPerSocket: 16 };

let cluster: Cluster;
let gateway: GatewayHandle;
let lobby: LobbyClient;
let attacker: SignedUpUser;
let ann: SignedUpUser;
let bob: SignedUpUser;
let tableId: string;
let idleTableId: string;
const honest: TableClient[] = [];

beforeAll(async () => {
  cluster = await Cluster.start({
    gateways: 0,
    workers: 1,
    lobby: false,
    persister: true,
    env: {
      // Hands follow each other quickly, so the honest players act often.
      FELT_HAND_PAUSE_MS: '300',
      FELT_SEED_WINDOW_MS: '200',
      // A loaded machine must not drop the busy worker from the ring (failover has its own suites).
      FELT_MEMBER_TTL_MS: '15000',
      // The worker is stopped at the end with a hand in progress: hand it over soon.
      FELT_DRAIN_DEADLINE_MS: '2000',
    },
  });
  // The per-socket token bucket is effectively off on this gateway. At the default 20 frames a
  // second, 100,000 frames would take 5,000 socket-seconds, and a frame over the rate is dropped
  // with at most one rate_limited error a second, so no frame could be matched with its answer.
  // The bucket and its 4008 close have their own test (test/cluster.e2e.test.ts); every other
  // limit (payload, sockets per account and address, tables per socket) stays at its default.
  // Debug level logs one line per closed socket with its code and uWS's reason (the summary counts them).
  gateway = await cluster.addGateway({
    GATEWAY_RATE_PER_SEC: '1000000',
    GATEWAY_RATE_BURST: '1000000',
    LOG_LEVEL: 'debug',
  });
  await cluster.startLobby();
  await cluster.waitReady(gateway.httpUrl);
  lobby = new LobbyClient(cluster.lobby!.url);
  const signUp = (name: string) => lobby.signUp(`${name}-${randomUUID().slice(0, 8)}`);
  attacker = await signUp('mallory');
  ann = await signUp('ann');
  bob = await signUp('bob');
  const room = await lobby.createRoom(ann, {});
  await lobby.joinByCode(bob, room.code);
  tableId = room.sessionId;
  idleTableId = (await lobby.createRoom(ann, { startHand: { autoStart: false } })).sessionId;
});

afterAll(async () => {
  for (const c of honest) c.close();
  await cluster?.stop();
});

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface HonestRecord {
  acks: number;
  readonly latenciesMs: number[];
  readonly refusals: Msg[];
  /** Why an honest player stopped early (no turn for SLICE_TIMEOUT_MS, no answer to an action). */
  readonly failures: string[];
}

/** What an honest client last saw of the table, for failure messages. */
function describeTable(client: TableClient): string {
  const s = client.state;
  if (!s) return 'no snapshot';
  const seats = s.seats.filter((x) => x.user_id !== null).map((x) => `${x.seat}:${x.status}:${x.stack}`);
  return `phase=${s.phase} hand=${s.hand_id ?? '-'} actor=${s.actor ?? '-'} seats=${seats.join(',')} errors=${JSON.stringify(client.errors.slice(-3))}`;
}

/**
 * Plays every turn of `client` (check when free, call small bets, fold to big ones) until `stop`,
 * timing each action from send to ack.
 */
async function playHonestly(client: TableClient, record: HonestRecord, measuring: () => boolean, stop: () => boolean) {
  const answered = new Set<string>();
  for (;;) {
    const turn = await client.until(
      () => {
        if (stop()) return 'stop' as const;
        const state = client.state;
        const token = state?.hero?.turn_token;
        return state && token && state.hero?.valid_actions && !answered.has(token) ? state : undefined;
      },
      SLICE_TIMEOUT_MS,
      'the honest player’s turn',
    );
    if (turn === 'stop') return;
    const state: TableState = turn;
    const token = state.hero!.turn_token!;
    answered.add(token);
    const choice = passivePlay(state.hero!.valid_actions!, state, () => 0.5) ?? { action: 'fold' };
    const started = performance.now();
    const commandId = client.command({ type: 'action', hand_id: state.hand_id, turn_token: token, ...choice });
    const answer = await client.answer(commandId, SLICE_TIMEOUT_MS);
    if (answer.type !== 'ack') {
      record.refusals.push(answer);
      continue;
    }
    record.acks++;
    if (measuring()) record.latenciesMs.push(performance.now() - started);
  }
}

interface FuzzRun {
  readonly stats: FuzzStats;
  readonly slices: readonly { frames: number; honestAcks: number }[];
  readonly lanes: readonly { lane: FuzzLane }[];
  readonly results: readonly PromiseSettledResult<void>[];
  readonly seconds: number;
}

/**
 * Runs LANES fuzzing sockets until TARGET_FRAMES frames are sent and every SLICE_FRAMES of them saw
 * an honest ack, or the first violation.
 */
async function fuzz(record: HonestRecord): Promise<FuzzRun> {
  const stats: FuzzStats = newFuzzStats();
  const slices: { frames: number; honestAcks: number }[] = [];
  let slice = { startFrames: 0, startAcks: record.acks, openedAt: Date.now() };
  let stopped = false;
  const stop = (why: string): undefined => {
    if (!stopped) stats.violations.push(why);
    stopped = true;
    return undefined;
  };
  const next = (buffer: FuzzFrame[], refill: () => FuzzFrame[]) => (): FuzzFrame | undefined => {
    if (stopped) return undefined;
    if (stats.violations.length > 0) return stop('stopping at the first violation');
    if (stats.frames - slice.startFrames >= SLICE_FRAMES) {
      const acks = record.acks - slice.startAcks;
      if (acks > 0) {
        slices.push({ frames: stats.frames - slice.startFrames, honestAcks: acks });
        slice = { startFrames: stats.frames, startAcks: record.acks, openedAt: Date.now() };
      } else if (Date.now() - slice.openedAt > SLICE_TIMEOUT_MS) {
        return stop(`the honest players got no ack in ${SLICE_TIMEOUT_MS} ms of fuzzing (slice ${slices.length + 1})`);
      }
    }
    if (slices.length * SLICE_FRAMES >= TARGET_FRAMES) {
      stopped = true;
      return undefined;
    }
    if (buffer.length === 0) buffer.push(...refill());
    return buffer.pop();
  };

  const started = Date.now();
  const lanes = Array.from({ length: LANES }, (_, i) => {
    const lane = new FuzzLane({
      name: `lane${i}`,
      connect: () =>
        RawSocket.connect(gateway.wsUrl, { cookie: attacker.cookie, origin: TEST_ORIGIN, keepMessages: false }),
      home: tableId,
      limits: LIMITS,
      stats,
    });
    let batch = 0;
    const refill = (): FuzzFrame[] => {
      const ctx: FuzzContext = {
        tableIds: [tableId, idleTableId],
        handId: honest[0]!.state?.hand_id ?? null,
        maxPayload: LIMITS.maxPayload,
        maxBlindPayload: LIMITS.maxBlindPayload,
      };
      return fc.sample(fuzzFrame(ctx), { seed: SEED + i * 1_000_003 + batch++, numRuns: 250 }).reverse();
    };
    return { lane, run: lane.run(next([], refill)) };
  });
  const results = await Promise.allSettled(lanes.map((l) => l.run));
  return { stats, slices, lanes, results, seconds: (Date.now() - started) / 1000 };
}

describe('WebSocket fuzz through a real gateway and worker', () => {
  it('the generators make valid frames where they mean to, and every kind of bad frame', () => {
    const ctx: FuzzContext = {
      tableIds: [randomUUID()],
      handId: randomUUID(),
      maxPayload: LIMITS.maxPayload,
      maxBlindPayload: LIMITS.maxBlindPayload,
    };
    for (const f of fc.sample(validFrame(ctx), { seed: SEED, numRuns: 2_000 }))
      expect(parseClientFrame(JSON.stringify(f)), JSON.stringify(f)).toMatchObject({ ok: true });
    const kinds = new Map<string, number>();
    for (const f of fc.sample(fuzzFrame(ctx), { seed: SEED, numRuns: 20_000 })) {
      const e = expectationOf(f, new Set(ctx.tableIds), LIMITS);
      const kind = e.kind === 'sync' ? `${e.kind}:${e.answer.type === 'error' ? e.answer.code : 'pong'}` : e.kind;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    for (const kind of [
      'sync:bad_json',
      'sync:invalid_frame',
      'sync:unknown_type',
      'sync:not_joined',
      'sync:pong',
      'async',
      'silent',
      'close',
    ])
      expect(kinds.get(kind) ?? 0, `${kind} in ${JSON.stringify([...kinds])}`).toBeGreaterThan(0);
  });

  it(
    `${TARGET_FRAMES} frames from ${LANES} attacker sockets; the honest players keep playing`,
    async () => {
      for (const [user, seed] of [
        [ann, 1],
        [bob, 2],
      ] as const) {
        honest.push(await TableClient.join(gateway.wsUrl, user.cookie, tableId, user.userId, { seed }));
      }
      const record: HonestRecord = { acks: 0, latenciesMs: [], refusals: [], failures: [] };
      let fuzzing = false;
      let finished = false;
      const players = honest.map((c) =>
        playHonestly(
          c,
          record,
          () => fuzzing,
          () => finished,
        ).catch((err: unknown) => {
          record.failures.push(err instanceof Error ? err.message : String(err));
        }),
      );
      let run: FuzzRun;
      try {
        // The table is dealing before the fuzz starts.
        await honest[0]!
          .until(() => record.acks > 0 || record.failures.length > 0, SLICE_TIMEOUT_MS, 'a first honest ack')
          .catch((err: unknown) => {
            throw new Error(`${String(err)}; the table: ${describeTable(honest[0]!)}`);
          });
        expect(record.failures).toEqual([]);
        fuzzing = true;
        run = await fuzz(record);
      } finally {
        fuzzing = false;
        finished = true;
        await Promise.all(players);
      }
      const { stats, slices, lanes, results, seconds } = run;

      const latencies = [...record.latenciesMs].sort((a, b) => a - b);
      const workerMs = [...stats.workerAnswerMs].sort((a, b) => a - b);
      const serverCloses = new Map<string, number>();
      for (const l of gateway.proc.jsonLogs()) {
        if (l.event !== 'socket_closed') continue;
        const key = `${String(l.code)}:${JSON.stringify(l.reason ?? '')}`;
        serverCloses.set(key, (serverCloses.get(key) ?? 0) + 1);
      }
      const errorLogs = new Map<string, number>();
      for (const p of cluster.processes()) {
        for (const l of p.jsonLogs()) {
          if (typeof l.level !== 'number' || l.level < 50) continue;
          const key = `${p.name.replace(/-[0-9a-f]{4}$/, '')}:${JSON.stringify(l.msg)}`;
          errorLogs.set(key, (errorLogs.get(key) ?? 0) + 1);
        }
      }
      const fmt = (map: Map<string | number, number>) =>
        [...map]
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k}=${v}`)
          .join(' ');
      console.log(
        `FUZZ seed=${SEED} frames=${stats.frames} sockets=${LANES} seconds=${seconds.toFixed(1)} ` +
          `frames_per_s=${Math.round(stats.frames / seconds)} reconnects=${stats.reconnects} ` +
          `stream_messages=${stats.streamMessages} late_answers=${stats.late}\n` +
          `FUZZ per_socket ${lanes.map((l) => l.lane.frames).join(',')}\n` +
          `FUZZ frames ${fmt(stats.byLabel)}\n` +
          `FUZZ answers ${fmt(stats.answers)}\n` +
          `FUZZ closes ${fmt(stats.closes)}\n` +
          `FUZZ server_closes ${fmt(serverCloses)}\n` +
          `FUZZ error_logs ${fmt(errorLogs) || 'none'}\n` +
          `FUZZ worker_answers n=${workerMs.length} p50_ms=${percentile(workerMs, 50).toFixed(1)} ` +
          `p99_ms=${percentile(workerMs, 99).toFixed(1)}\n` +
          `FUZZ honest acks=${record.acks} during_fuzz=${latencies.length} ` +
          `p50_ms=${percentile(latencies, 50).toFixed(1)} p99_ms=${percentile(latencies, 99).toFixed(1)} ` +
          `max_ms=${(latencies.at(-1) ?? Number.NaN).toFixed(1)} slices=${slices.map((s) => s.honestAcks).join(',')}`,
      );

      const failures = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
      expect([...new Set([...stats.violations, ...failures])].slice(0, 20)).toEqual([]);
      expect(stats.frames).toBeGreaterThanOrEqual(TARGET_FRAMES);
      expect(slices.length).toBeGreaterThanOrEqual(TARGET_FRAMES / SLICE_FRAMES);
      for (const l of lanes) expect(l.lane.frames).toBeGreaterThan(TARGET_FRAMES / LANES / 4);
      // Every kind of refusal and close happened, so the run covered what it claims.
      for (const kind of [
        'error:bad_json',
        'error:invalid_frame',
        'error:unknown_type',
        'error:not_joined',
        'error:not_engine_blind',
        'pong',
      ])
        expect(stats.answers.get(kind) ?? 0, kind).toBeGreaterThan(0);
      expect(stats.closes.get(1009) ?? 0).toBeGreaterThan(0);
      expect(stats.closes.get(1006) ?? 0).toBeGreaterThan(0);

      // The honest players: every action acknowledged, every snapshot's hash right.
      expect(record.refusals).toEqual([]);
      expect(record.failures).toEqual([]);
      for (const c of honest) {
        expect(c.hashMismatches, c.userId).toBe(0);
        expect(c.invalidMessages, c.userId).toEqual([]);
      }

      // No process crashed or logged a failure.
      for (const p of cluster.processes()) {
        expect(p.alive, `${p.name} is running`).toBe(true);
        const bad = p
          .jsonLogs()
          .filter(
            (l) =>
              (typeof l.level === 'number' && l.level >= 60) ||
              ['uncaught exception', 'unhandled rejection', 'frame handling failed'].includes(String(l.msg)),
          );
        expect(bad.slice(0, 5), `${p.name}'s failures`).toEqual([]);
      }
      const ops = [
        gateway.httpUrl,
        ...cluster.workers.map((w) => w.httpUrl),
        cluster.persister!.httpUrl,
        cluster.lobby!.opsUrl,
      ];
      for (const url of ops) {
        expect((await fetch(`${url}/healthz`)).status, `${url}/healthz`).toBe(200);
        expect((await fetch(`${url}/readyz`)).status, `${url}/readyz`).toBe(200);
      }
      // And each stops cleanly when asked.
      for (const p of [gateway.proc, ...cluster.workers.map((w) => w.proc)])
        expect(await p.stop(15_000), p.name).toBe(0);
    },
    15 * 60_000,
  );
});
