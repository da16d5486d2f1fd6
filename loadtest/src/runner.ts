import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoadConfig } from './args.js';
import { LobbyError, SdkLobbyApi } from './lobby.js';
import { LoadStats } from './stats.js';
import { openJsonSocket, TransportError, type JsonSocket, type OpenOptions } from './ws-transport.js';
import { ServerType, joinTableFrame, messageHead, pingFrame, type Credentials, type RoomRef } from './wire.js';

/** The lobby calls the scenario makes; {@link SdkLobbyApi} (the @felt/client SDK over HTTP) in production. */
export interface LobbyApi {
  signup(credentials: Credentials): Promise<void>;
  login(credentials: Credentials): Promise<string>;
  createRoom(cookie: string, seats: number): Promise<RoomRef>;
  joinRoom(cookie: string, code: string): Promise<RoomRef>;
  closeRoom(cookie: string, sessionId: string): Promise<void>;
}

export interface RunnerDeps {
  readonly lobby: LobbyApi;
  readonly open: (options: OpenOptions) => Promise<JsonSocket>;
  /** Progress and per-error detail; the summary line itself is the caller's to print. */
  readonly log: (line: string) => void;
}

export function defaultDeps(config: LoadConfig, log: (line: string) => void): RunnerDeps {
  return { lobby: new SdkLobbyApi(config.lobby, config.timeoutMs), open: openJsonSocket, log };
}

/** A room shared by `roomSize` consecutive users: the first creates it, the rest wait for its code. */
interface RoomGroup {
  readonly room: Promise<RoomRef>;
  /** The host's session, once the room exists: it closes the room when the run ends. */
  host?: { cookie: string; room: RoomRef };
  resolve(ref: RoomRef): void;
  reject(err: Error): void;
}

function roomGroup(): RoomGroup {
  let resolve!: (ref: RoomRef) => void;
  let reject!: (err: Error) => void;
  const room = new Promise<RoomRef>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A group whose creator failed is reported once, by the creator; members just stop.
  room.catch(() => undefined);
  return { room, resolve, reject };
}

const PROGRESS_MS = 5000;
const JOIN_ATTEMPTS = 2;
const JOIN_RETRY_MS = 500;

/** Ends one user's session with a counted error kind as its message. */
class UserAborted extends Error {}
class RoomUnavailable extends Error {}

/**
 * Drives the load scenario: every user signs up, logs in, creates or joins a room by code, opens a
 * WebSocket through a gateway with the session cookie, joins the table, and pings until the run ends.
 * Resolves when every user has finished; `signal` ends the run early (Ctrl-C) with the same summary.
 */
export async function runLoad(config: LoadConfig, deps: RunnerDeps, signal?: AbortSignal): Promise<LoadStats> {
  const stats = new LoadStats();
  const runId = randomBytes(3).toString('hex');
  const t0 = performance.now();
  const endAt = t0 + (config.rampUpS + config.durationS) * 1000;
  const gateways = config.gateways;
  const groups: RoomGroup[] = [];
  const spacingMs = config.users > 1 ? (config.rampUpS * 1000) / config.users : 0;

  const failure = (i: number, kind: string, err: unknown): void => {
    stats.recordError(kind);
    deps.log(`user ${i}: ${kind}: ${err instanceof Error ? err.message : String(err)}`);
  };

  const user = async (i: number): Promise<void> => {
    const groupIndex = Math.floor(i / config.roomSize);
    const group = (groups[groupIndex] ??= roomGroup());
    const creator = i % config.roomSize === 0;
    try {
      await sleep(i * spacingMs, undefined, signal ? { signal } : {});
    } catch {
      return;
    }
    const credentials: Credentials = { name: `lt${runId}u${i}`, password: randomBytes(12).toString('hex') };
    let cookie: string;
    let room: RoomRef;
    try {
      await deps.lobby.signup(credentials);
      cookie = await deps.lobby.login(credentials);
      if (creator) {
        room = await deps.lobby.createRoom(cookie, config.roomSize);
        group.host = { cookie, room };
        group.resolve(room);
      } else {
        const created = await group.room.catch((err: unknown) => {
          throw new RoomUnavailable('room creator failed', { cause: err });
        });
        room = await deps.lobby.joinRoom(cookie, created.code);
      }
    } catch (err) {
      if (creator) group.reject(err as Error);
      // The creator already counted the error that left the room uncreated.
      if (err instanceof RoomUnavailable) deps.log(`user ${i}: ${err.message}; not joining`);
      else if (err instanceof LobbyError) failure(i, err.kind, err);
      else failure(i, 'lobby_unexpected', err);
      return;
    }

    const url = gateways[i % gateways.length];
    if (url === undefined) {
      failure(i, 'no_gateway', new Error('no gateway URL'));
      return;
    }
    let socket: JsonSocket;
    try {
      socket = await deps.open({ url, headers: { cookie, origin: config.origin }, timeoutMs: config.timeoutMs });
    } catch (err) {
      const kind = err instanceof TransportError ? `ws_${err.code}${err.status ? `_${err.status}` : ''}` : 'ws_error';
      failure(i, kind, err);
      return;
    }
    stats.connected += 1;
    await session(i, socket, room);
  };

  const session = async (i: number, socket: JsonSocket, room: RoomRef): Promise<void> => {
    let joined: (() => void) | undefined;
    // The join attempt in flight and the error code that refused it, if one did.
    let joinCommand = '';
    let joinRefusal: string | undefined;
    let pong: { nonce: string; resolve: () => void } | undefined;
    let closedByUs = false;
    let closedByServer = false;
    const ended = socket.closed.then((info) => {
      if (closedByUs) return;
      closedByServer = true;
      failure(i, `closed_${info.code}`, new Error(`closed by server: ${info.code} ${info.reason}`));
    });

    socket.onMessage((message) => {
      stats.msgsIn += 1;
      const head = messageHead(message);
      if (!head) {
        failure(i, 'bad_frame', new Error('server frame without a type'));
        return;
      }
      switch (head.type) {
        case ServerType.TABLE_STATE:
          if (head.table_id === room.sessionId) joined?.();
          break;
        case ServerType.PONG:
          if (pong && head.nonce === pong.nonce) pong.resolve();
          break;
        case ServerType.ERROR:
          if (head.command_id !== undefined && head.command_id === joinCommand) {
            joinRefusal = head.code ?? 'error';
            joined?.();
          } else {
            failure(i, `server_${head.code ?? 'error'}`, new Error(`error frame: ${JSON.stringify(message)}`));
          }
          break;
        default:
          break;
      }
    });

    // Resolves true when `arm` fires before the timeout or the socket closing.
    const within = (ms: number, arm: (done: () => void) => void): Promise<boolean> =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        const done = (): void => {
          clearTimeout(timer);
          resolve(true);
        };
        arm(done);
        void ended.then(() => {
          clearTimeout(timer);
          resolve(false);
        });
      });

    const send = (frame: object): void => {
      if (socket.send(frame)) stats.msgsOut += 1;
    };

    try {
      // "unavailable" means retry shortly (the table's worker is starting it or moving it), which is
      // what a real client does; any other refusal, or a second one, fails this user.
      for (let attempt = 1; ; attempt++) {
        joinCommand = `join-${i}-${attempt}`;
        joinRefusal = undefined;
        const answered = await within(config.timeoutMs, (done) => {
          joined = done;
          send(joinTableFrame(room.sessionId, joinCommand));
        });
        if (closedByServer) return;
        if (!answered) throw new UserAborted('join_timeout');
        // Set by the message handler while we awaited; the cast stops TypeScript keeping the narrowing above.
        const refusal = joinRefusal as string | undefined;
        if (refusal === undefined) {
          stats.joined += 1;
          break;
        }
        if (refusal === 'unavailable' && attempt < JOIN_ATTEMPTS) {
          deps.log(`user ${i}: join refused as unavailable; retrying`);
          await sleep(JOIN_RETRY_MS);
          continue;
        }
        throw new UserAborted(`join_${refusal}`);
      }

      let seq = 0;
      while (performance.now() < endAt && !signal?.aborted) {
        const nonce = `${i}-${seq++}`;
        const sentAt = performance.now();
        const answered = await within(config.timeoutMs, (done) => {
          pong = { nonce, resolve: done };
          send(pingFrame(nonce));
        });
        pong = undefined;
        if (closedByServer) return;
        if (answered) stats.recordRtt(performance.now() - sentAt);
        else if (performance.now() < endAt) throw new UserAborted('ping_timeout');
        const pause = Math.min(config.pingIntervalMs, endAt - performance.now());
        if (pause > 0) {
          try {
            await sleep(pause, undefined, signal ? { signal } : {});
          } catch {
            break;
          }
        }
      }
    } catch (err) {
      if (err instanceof UserAborted) failure(i, err.message, err);
      else failure(i, 'session_unexpected', err);
    } finally {
      closedByUs = true;
      socket.close(1000, 'load run finished');
      await ended;
    }
  };

  const progress = setInterval(() => deps.log(stats.progressLine((performance.now() - t0) / 1000)), PROGRESS_MS);
  try {
    await Promise.all(Array.from({ length: config.users }, (_, i) => user(i)));
  } finally {
    clearInterval(progress);
  }
  // Close the rooms this run created; the lobby refunds the seats, so a run leaves no chips at tables.
  await Promise.all(
    groups.map(async (g, n) => {
      if (!g.host) return;
      try {
        await deps.lobby.closeRoom(g.host.cookie, g.host.room.sessionId);
      } catch (err) {
        failure(n * config.roomSize, err instanceof LobbyError ? err.kind : 'close_room_unexpected', err);
      }
    }),
  );
  return stats;
}
