import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { FeltClient, type LobbyClient, type TableSession } from '@felt/client';
import { accountName, passwordFor } from './accounts.js';
import { LoadBot, type AckedAction } from './load-bot.js';
import { LobbyError, createLoadRoom, joinLoadRoom, lobbyClient, lobbyStep } from './lobby.js';
import type { PlayConfig } from './play-args.js';
import { PlayStats, type PlayShape } from './play-stats.js';
import { ArrivalMiss, StateArrivals } from './state-arrivals.js';
import { closeKind, tracedSocketFactory, type SocketTrace } from './traced-socket.js';
import { LOAD_BUY_IN, type RoomRef } from './wire.js';

export interface PlayDeps {
  /** Progress and per-error detail; the summary line itself is the caller's to print. */
  readonly log: (line: string) => void;
}

/** What a finished play run hands back: its counters and the shape the summary line reports. */
export interface PlayResult {
  readonly stats: PlayStats;
  readonly shape: PlayShape;
  /** The summary line: `LOAD tables=… … errors=…`. */
  readonly summary: string;
}

const PROGRESS_MS = 5000;
/** Attempts at a lobby request that answers 503 busy (it sheds password hashes under a login burst). */
const BUSY_ATTEMPTS = 6;
/** Attempts at a rebuy the lobby refuses as out of range (its escrow lags the table until the hand is persisted). */
const REBUY_ATTEMPTS = 10;
const REBUY_RETRY_MS = 1000;
/** Errors the SDK reports for races that are not faults (a seed after the window closed). */
const EXPECTED_REFUSALS: ReadonlySet<string> = new Set(['seed_refused', 'cannot_show']);

/** A small seeded PRNG (mulberry32): a run's decisions and think times reproduce from --seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Player {
  /** 0-based across the run: table t's players are t×K … t×K+K−1; the first of each table hosts it. */
  readonly index: number;
  readonly table: TableRun;
  readonly name: string;
  readonly arrivals: StateArrivals;
  lobby?: LobbyClient;
  seated: boolean;
  client?: FeltClient;
  session?: TableSession;
  bot?: LoadBot;
  socket?: SocketTrace;
  everJoined: boolean;
  /** The last few messages received, as `type` or `type:code`: what a join timeout reports. */
  readonly recent: string[];
}

interface TableRun {
  readonly index: number;
  readonly players: Player[];
  room?: RoomRef;
}

class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}

/**
 * The playing scenario: log in (or sign up) tables × players accounts, seat each table's players in
 * an unlisted room the first of them creates, connect each player with its own @felt/client
 * FeltClient through the gateways, and let {@link LoadBot}s play. Hands, actions and latencies are
 * measured for `durationS` once every table is seated and joined; then the hosts close their rooms
 * (the hand in progress finishes, flat out, and every seat is refunded) and every client closes.
 * `stopSignal` ends the measured window early (Ctrl-C), with the same teardown and summary.
 */
export async function runPlay(
  config: PlayConfig,
  gateways: readonly string[],
  deps: PlayDeps,
  stopSignal?: AbortSignal,
): Promise<PlayResult> {
  // One listener on the caller's signal; every player's waits listen to this one (hundreds of them).
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  if (stopSignal?.aborted) stop.abort();
  else stopSignal?.addEventListener('abort', () => stop.abort(), { once: true });
  const signal = stop.signal;
  const stats = new PlayStats();
  const shape: PlayShape = { tables: config.tables, players: config.tables * config.playersPerTable };
  const now = (): number => performance.now();
  const t0 = now();
  const random = seededRandom(config.seed);
  const runId = randomBytes(3).toString('hex');
  let stopping = false;

  const failure = (who: string, kind: string, err: unknown): void => {
    stats.recordError(kind);
    deps.log(`${who}: ${kind}: ${err instanceof Error ? err.message : String(err)}`);
  };

  const tables: TableRun[] = Array.from({ length: config.tables }, (_, t) => {
    const table: TableRun = { index: t, players: [] };
    for (let p = 0; p < config.playersPerTable; p++) {
      const index = t * config.playersPerTable + p;
      const name =
        config.accounts.kind === 'login'
          ? accountName(config.accounts.prefix, config.accounts.first + index)
          : accountName(`${config.accounts.prefix}${runId}-`, index + 1);
      table.players.push({
        index,
        table,
        name,
        arrivals: new StateArrivals(),
        seated: false,
        everJoined: false,
        recent: [],
      });
    }
    return table;
  });
  const players = tables.flatMap((t) => t.players);
  const accountNumber = (player: Player): number =>
    config.accounts.kind === 'login' ? config.accounts.first + player.index : player.index + 1;

  /** A lobby call, retried while the lobby says it is busy hashing passwords (503 busy, Retry-After). */
  const patient = async <T>(call: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (err) {
        if (!(err instanceof LobbyError) || !err.busy || attempt >= BUSY_ATTEMPTS) throw err;
        stats.busyRetries += 1;
        const waitMs = Math.min(10, err.retryAfterSeconds ?? 1) * 1000 * (0.5 + random());
        await sleep(waitMs, undefined, { signal });
      }
    }
  };

  const lobbyFailure = (who: string, err: unknown, step: string): void => {
    if (err instanceof LobbyError) failure(who, err.kind, err);
    else if (signal.aborted) deps.log(`${who}: ${step} abandoned (stopping)`);
    else failure(who, `${step}_unexpected`, err);
  };

  // ---- accounts: logins at a bounded concurrency, or sign-ups at a fixed rate ------------------
  const authenticate = async (player: Player, gate: Semaphore | undefined): Promise<void> => {
    const lobby = lobbyClient(config.lobby, config.timeoutMs);
    const password = passwordFor(config.passwordScheme, player.name, accountNumber(player));
    try {
      if (config.accounts.kind === 'signup') {
        await sleep((player.index * 1000) / config.accounts.perSecond, undefined, { signal });
        await patient(() => lobbyStep('signup', () => lobby.signup(player.name, password)));
      } else {
        await gate!.run(() => patient(() => lobbyStep('login', () => lobby.login(player.name, password))));
      }
      if (lobby.cookie === undefined) throw new Error('the lobby set no session cookie');
      player.lobby = lobby;
    } catch (err) {
      lobbyFailure(player.name, err, config.accounts.kind);
    }
  };

  // ---- rooms: the first player of each table creates it and sits; the others join by code --------
  const seat = async (table: TableRun): Promise<void> => {
    const [host, ...guests] = table.players;
    if (!host?.lobby) {
      deps.log(`table ${table.index}: its host ${host?.name ?? '?'} has no session; not playing`);
      return;
    }
    try {
      table.room = await createLoadRoom(host.lobby, config.playersPerTable);
      host.seated = true;
    } catch (err) {
      lobbyFailure(host.name, err, 'create_room');
      return;
    }
    const code = table.room.code;
    await Promise.all(
      guests.map(async (g) => {
        if (!g.lobby) return;
        try {
          await joinLoadRoom(g.lobby, code);
          g.seated = true;
        } catch (err) {
          lobbyFailure(g.name, err, 'join_room');
        }
      }),
    );
  };

  // ---- measurements ---------------------------------------------------------------------------
  /** The player who observes `actor`'s actions for the broadcast latency: the next one at the table. */
  const observerOf = (actor: Player): Player | undefined => {
    const seatedOthers = actor.table.players.filter((p) => p !== actor && p.session);
    const after = seatedOthers.find((p) => p.index > actor.index);
    return after ?? seatedOthers[0];
  };

  const onAck = (actor: Player, acked: AckedAction): void => {
    if (!acked.measured) return;
    stats.recordAck(acked.ackedAt - acked.sentAt);
    const observer = observerOf(actor);
    if (!observer) return;
    void observer.arrivals.arrivalOf(acked.ack.at_table_seq, config.timeoutMs).then((at) => {
      if (at === ArrivalMiss.CANCELLED) return;
      if (at === ArrivalMiss.TIMEOUT) {
        failure(
          actor.name,
          'broadcast_timeout',
          new Error(`${observer.name} got no table_state at or after table_seq ${acked.ack.at_table_seq}`),
        );
        return;
      }
      stats.recordBroadcast(at - acked.sentAt);
    });
  };

  const rebuy = async (player: Player): Promise<void> => {
    const room = player.table.room;
    if (!player.lobby || !room) return;
    const lobby = player.lobby;
    const key = `load-rebuy-${runId}-${player.index}-${randomBytes(4).toString('hex')}`;
    for (let attempt = 1; ; attempt++) {
      try {
        await lobbyStep('top_up', () => lobby.topUp(room.sessionId, LOAD_BUY_IN, key));
        stats.rebuys += 1;
        return;
      } catch (err) {
        // The lobby's escrow trails the table until the busting hand is persisted: try again shortly.
        const later = err instanceof LobbyError && err.apiCode === 'buy_in_out_of_range' && attempt < REBUY_ATTEMPTS;
        if (later && !stopping) {
          await sleep(REBUY_RETRY_MS);
          continue;
        }
        if (!stopping) lobbyFailure(player.name, err, 'top_up');
        throw err;
      }
    }
  };

  // ---- connections: one FeltClient (one socket) per player -------------------------------------
  const connect = (player: Player, room: RoomRef): void => {
    const cookie = player.lobby!.cookie!;
    const rotated = gateways.map((_, i) => gateways[(player.index + i) % gateways.length]!);
    const client = new FeltClient({
      gatewayUrls: rotated,
      socketFactory: tracedSocketFactory({ cookie, origin: config.origin }, (trace) => {
        player.socket = trace;
      }),
      // A command is sent again (same command_id) after a third of the timeout, and fails after three sends.
      commandRetryMs: Math.max(500, Math.round(config.timeoutMs / 3)),
      commandAttempts: 3,
      connectTimeoutMs: config.timeoutMs,
    });
    const session = client.join(room.sessionId);
    player.client = client;
    player.session = session;
    const who = player.name;

    client.on('close', (c) => {
      if (!stopping) failure(who, closeKind(player.socket, c.code), new Error(`socket closed: ${c.code} ${c.reason}`));
    });
    client.on('raw', (raw) => {
      const m = raw as { type?: unknown; code?: unknown } | null;
      player.recent.push(typeof m?.code === 'string' ? `${String(m.type)}:${m.code}` : String(m?.type));
      if (player.recent.length > 4) player.recent.shift();
    });
    client.on('invalid', (i) => failure(who, 'invalid_message', new Error(i.issues)));
    client.on('error', (e) => {
      // The answer to a command the table's closing already settled (the run is ending) is no fault.
      if (!(stopping && e.code === 'table_closed')) failure(who, `server_${e.code}`, new Error(e.message));
    });
    session.on('refused', (e) => {
      if (!EXPECTED_REFUSALS.has(e.code)) failure(who, `refused_${e.code}`, new Error(e.message));
    });
    session.on('hash_mismatch', (h) =>
      failure(who, 'hash_mismatch', new Error(`table_seq ${h.tableSeq}: ${h.claimed} != ${h.computed}`)),
    );
    session.on('resync', (r) => {
      // Live delivery is at most once and the protocol's answer to a detected loss is this resync, so
      // a loss is counted, not failed (as `npm run demo` reports resyncs). An anomaly is wrong data: a
      // failure. Reconnects resync too, but their close is counted already, and a hash mismatch has
      // its own listener.
      if (r.reason === 'loss') stats.losses += 1;
      else if (r.reason === 'anomaly') failure(who, 'anomaly', new Error(`resync from table_seq ${r.fromTableSeq}`));
    });
    session.on('fairness', (f) => {
      if (!f.ok) failure(who, 'fairness_failed', new Error(`hand ${f.handId}: ${f.problems.join(', ')}`));
    });
    session.on('status', (s) => {
      if (s === 'joined' && !player.everJoined) {
        player.everJoined = true;
        stats.joined += 1;
      }
    });
    session.on('closed', (c) => {
      if (c.reason === 'join_refused') failure(who, `join_${c.error?.code ?? 'refused'}`, new Error('join refused'));
      else if (c.reason === 'table_closed' && !stopping) failure(who, 'table_closed', new Error('the table closed'));
    });
    session.on('message', (m) => {
      if (m.type === 'table_state') player.arrivals.record(m.table_seq, now());
    });
    session.on('event', (e) => {
      if (e.type === 'hand_result') stats.recordHand(room.sessionId, e.hand_id);
      else if (e.type === 'hand_voided') failure(who, 'hand_voided', new Error(`hand ${e.hand_id}: ${e.reason}`));
      else if (e.type === 'player_action' && e.timeout === true && e.seat === session.heroSeat && !stopping) {
        failure(who, 'clock_acted', new Error(`the clock acted for seat ${e.seat} in hand ${e.hand_id}`));
      }
    });
    player.bot = new LoadBot(session, {
      random,
      think: config.think,
      now,
      measuring: () => stats.measuring,
      onAck: (acked) => onAck(player, acked),
      onError: (kind, err) => {
        // Commands still pending when the clients close are no fault of the cluster.
        if (!(stopping && kind === 'action_session_closed')) failure(who, kind, err);
      },
      rebuy: () => rebuy(player),
    });
    client.connect();
  };

  /** Resolves when every connected player's session is joined, or after the timeout (counting each laggard). */
  const allJoined = async (connected: readonly Player[]): Promise<void> => {
    await Promise.all(
      connected.map(async (p) => {
        const session = p.session!;
        if (session.status === 'joined') return;
        const joined = await new Promise<boolean>((resolve) => {
          const done = (ok: boolean): void => {
            off();
            clearTimeout(timer);
            signal.removeEventListener('abort', abort);
            resolve(ok);
          };
          const abort = (): void => done(false);
          const off = session.on('status', (s) => {
            if (s === 'joined' || s === 'closed') done(s === 'joined');
          });
          const timer = setTimeout(() => done(false), config.timeoutMs);
          signal.addEventListener('abort', abort, { once: true });
        });
        // A refused join was counted by the session's 'closed' listener.
        if (!joined && session.status === 'joining') {
          const c = p.client!.connection;
          failure(
            p.name,
            'join_timeout',
            new Error(
              `not joined after ${config.timeoutMs} ms (connection ${c.state} at ${c.url}, ` +
                `${c.socketsOpened} sockets opened, ${p.client!.stats.messages} messages received, ` +
                `the last: ${p.recent.join(' ') || 'none'})`,
            ),
          );
        }
      }),
    );
  };

  const progress = setInterval(() => deps.log(stats.progressLine((now() - t0) / 1000, shape)), PROGRESS_MS);
  try {
    deps.log(
      config.accounts.kind === 'login'
        ? `load: logging in ${players.length} players (${players[0]?.name} … ${players.at(-1)?.name}), ${config.accounts.concurrency} at a time`
        : `load: signing up ${players.length} players at ${config.accounts.perSecond}/s`,
    );
    const gate = config.accounts.kind === 'login' ? new Semaphore(config.accounts.concurrency) : undefined;
    // Table by table: a table sits down and connects as soon as its players have sessions, so the
    // tables come up one after another as the logins (first come, first served) get through, the
    // way players arrive, rather than all at once after the last login.
    await Promise.all(
      tables.map(async (t) => {
        await Promise.all(t.players.map((p) => authenticate(p, gate)));
        if (signal.aborted) return;
        await seat(t);
        if (signal.aborted || !t.room) return;
        const seated = t.players.filter((p) => p.seated);
        if (seated.length < 2) {
          deps.log(`table ${t.index}: fewer than 2 players seated; not playing`);
          return;
        }
        for (const p of seated) connect(p, t.room);
        await allJoined(seated);
      }),
    );
    if (!signal.aborted) {
      deps.log(
        `load: ${stats.joined}/${shape.players} players joined at ${tables.filter((t) => t.room).length} tables ` +
          `after ${((now() - t0) / 1000).toFixed(1)}s; playing for ${config.durationS}s`,
      );
      stats.startWindow(now());
      await sleep(config.durationS * 1000, undefined, { signal }).catch(() => {
        deps.log('load: stopping early (signal)');
      });
    }
    stats.endWindow(now());
  } finally {
    stopping = true;
    stats.endWindow(now());
    await teardown(tables, players, config, deps, failure);
    clearInterval(progress);
  }
  return { stats, shape, summary: stats.summaryLine(shape, now()) };
}

/**
 * The hosts close their rooms (the lobby refunds every seat once the hand in progress is over); the
 * bots play that hand out flat out, then every client closes.
 */
async function teardown(
  tables: readonly TableRun[],
  players: readonly Player[],
  config: PlayConfig,
  deps: PlayDeps,
  failure: (who: string, kind: string, err: unknown) => void,
): Promise<void> {
  for (const p of players) p.bot?.flatOut();
  await Promise.all(
    tables.map(async (t) => {
      const host = t.players[0];
      if (!t.room || !host?.lobby) return;
      const room = t.room;
      const connected = t.players.filter((p) => p.session && p.session.status !== 'closed');
      const closed = connected.map(
        (p) =>
          new Promise<boolean>((resolve) => {
            const off = p.session!.on('closed', () => {
              off();
              resolve(true);
            });
            setTimeout(() => {
              off();
              resolve(p.session!.status === 'closed');
            }, config.timeoutMs).unref();
          }),
      );
      try {
        await lobbyStep('close_room', () => host.lobby!.closeRoom(room.sessionId));
      } catch (err) {
        failure(host.name, err instanceof LobbyError ? err.kind : 'close_room_unexpected', err);
        return;
      }
      const results = await Promise.all(closed);
      const open = results.filter((r) => !r).length;
      if (open > 0) {
        failure(
          host.name,
          'close_timeout',
          new Error(`table ${room.sessionId}: ${open} players still attached ${config.timeoutMs} ms after the close`),
        );
      }
    }),
  );
  // Stop deciding, then close: closing settles every command still pending, so the bots go idle.
  const idle = players.flatMap((p) => (p.bot ? [p.bot.stop()] : []));
  for (const p of players) {
    p.arrivals.cancel();
    p.client?.close();
  }
  await Promise.all(idle);
  deps.log(`load: ${tables.filter((t) => t.room).length} rooms closed; seats refunded by the lobby`);
}
