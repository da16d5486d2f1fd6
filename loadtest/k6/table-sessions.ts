// WebSocket sessions through the gateways. Each VU is one player: it logs in once (to an account made
// by `npm run accounts`, or signs up with SIGNUP=1), takes a seat in a room by code, then every
// iteration is one WebSocket session of SESSION_SECONDS on that seat. setup() creates the rooms,
// ROOM_SIZE players per room; teardown() closes them, which refunds every seat.
//
// MODE=play (default): the players play hold'em hands, thinking THINK_MIN_MS..THINK_MAX_MS before
// each decision; measures each action's ack and the table_state its batch ends with.
// MODE=ping: the players only join and ping (the round trip to the gateway).
//
//   k6 run -e LOBBY_URL=https://felt.example.com [-e GATEWAY_URL=wss://felt.example.com/ws] \
//          [-e VUS=240] [-e DURATION=10m] [-e ROOM_SIZE=6] dist/table-sessions.js
import { check, fail } from 'k6';
import http from 'k6/http';
import { Counter, Rate, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { clearTimeout, setTimeout } from 'k6/timers';
import { WebSocket } from 'k6/websockets';
import {
  DEFAULT_ACCOUNT_PREFIX,
  DEFAULT_PASSWORD_SCHEME,
  accountName,
  checkAccounts,
  passwordFor,
} from '../src/accounts.js';
import {
  SESSION_COOKIE,
  ServerType,
  LOAD_BUY_IN,
  actionFrame,
  heroView,
  joinTableFrame,
  loadDecision,
  messageHead,
  pingFrame,
  sitInFrame,
  type LoadValidActions,
  type RoomRef,
} from '../src/wire.js';
import { checkUrl, envInt, envString, envUrl, originOf } from './lib/env.js';
import {
  closeRoom,
  createRoom,
  joinRoom,
  lobbyGateways,
  login,
  randomPassword,
  signupAndLogin,
  topUp,
  uniqueName,
  type Session,
} from './lib/lobby.js';

const MODE = envString('MODE', 'play');
if (MODE !== 'play' && MODE !== 'ping') throw new Error(`MODE: expected play or ping, got "${MODE}"`);
const LOBBY = envUrl('LOBBY_URL', ['http', 'https']);
// Empty: setup() asks the lobby (GET /api/config), falling back to the lobby's host at /ws, which is
// how the Kubernetes Ingress serves the gateways.
const GATEWAY_OVERRIDE = envString('GATEWAY_URL', '')
  .split(',')
  .map((u) => u.trim())
  .filter((u) => u !== '')
  .map((u) => checkUrl('GATEWAY_URL', u, ['ws', 'wss']));
const ORIGIN = envString('ORIGIN', originOf(LOBBY));
const VUS = envInt('VUS', 50, 1, 100_000);
const DURATION = envString('DURATION', '3m');
const RAMP = envString('RAMP', '30s');
// Players per room; every seat is a VU (the room's creator, made in setup(), does not sit).
const ROOM_SIZE = envInt('ROOM_SIZE', MODE === 'play' ? 6 : 5, MODE === 'play' ? 2 : 1, 10);
const SESSION_SECONDS = envInt('SESSION_SECONDS', MODE === 'play' ? 120 : 60, 1, 86_400);
const PING_INTERVAL_MS = envInt('PING_INTERVAL_MS', 1000, 100, 60_000);
const TIMEOUT_MS = envInt('TIMEOUT_MS', 10_000, 100, 600_000);
const THINK_MIN_MS = envInt('THINK_MIN_MS', 1000, 0, 600_000);
const THINK_MAX_MS = envInt('THINK_MAX_MS', 3000, THINK_MIN_MS, 600_000);
// Accounts: players are <prefix><FIRST_ACCOUNT> … <prefix><FIRST_ACCOUNT+VUS-1>, the rooms' creators the
// ceil(VUS / ROOM_SIZE) accounts after them. SIGNUP=1 signs everyone up instead (a sign-up storm).
const SIGNUP = envInt('SIGNUP', 0, 0, 1) === 1;
const ACCOUNTS_PREFIX = envString('ACCOUNTS_PREFIX', DEFAULT_ACCOUNT_PREFIX);
const PASSWORD_SCHEME = envString('PASSWORD_SCHEME', DEFAULT_PASSWORD_SCHEME);
const FIRST_ACCOUNT = envInt('FIRST_ACCOUNT', 1, 1, 10_000_000);
const ROOMS = Math.ceil(VUS / ROOM_SIZE);
if (!SIGNUP) checkAccounts(ACCOUNTS_PREFIX, PASSWORD_SCHEME, FIRST_ACCOUNT, FIRST_ACCOUNT + VUS + ROOMS - 1);

const pingRtt = new Trend('felt_ping_rtt', true);
const ackMs = new Trend('felt_ack_ms', true);
const stateMs = new Trend('felt_state_ms', true);
const joinOk = new Rate('felt_join_ok');
const actionOk = new Rate('felt_action_ok');
const sessionOk = new Rate('felt_session_ok');
const msgsIn = new Counter('felt_msgs_in');
const msgsOut = new Counter('felt_msgs_out');
const wsErrors = new Counter('felt_ws_errors');
const hands = new Counter('felt_hands');
const actions = new Counter('felt_actions');

const thresholds: Options['thresholds'] =
  MODE === 'play'
    ? {
        // Rates, so that they hold at any size: almost every join, action and session succeeds…
        felt_join_ok: ['rate>0.99'],
        felt_action_ok: ['rate>0.99'],
        felt_session_ok: ['rate>0.99'],
        checks: ['rate>0.99'],
        // …and an action's ack, and its batch's table_state, come back quickly.
        felt_ack_ms: ['p(50)<50', 'p(99)<250'],
        felt_state_ms: ['p(99)<300'],
        ws_connecting: ['p(95)<1000'],
      }
    : {
        felt_ping_rtt: ['p(50)<50', 'p(99)<250'],
        felt_join_ok: ['rate>0.99'],
        felt_ws_errors: ['count<10'],
        ws_connecting: ['p(95)<1000'],
        checks: ['rate>0.99'],
      };

export const options: Options = {
  scenarios: {
    table_sessions: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: RAMP, target: VUS },
        { duration: DURATION, target: VUS },
        { duration: '10s', target: 0 },
      ],
      gracefulRampDown: `${SESSION_SECONDS + 15}s`,
    },
  },
  // setup() makes one room per ROOM_SIZE VUs, two lobby calls each; teardown() closes them.
  setupTimeout: `${Math.max(60, ROOMS * 3)}s`,
  teardownTimeout: `${Math.max(60, ROOMS)}s`,
  thresholds,
};

interface SetupData {
  readonly rooms: RoomRef[];
  /** The creator of each room, to close it in teardown(). */
  readonly hosts: Session[];
  readonly gateways: string[];
}

/** Account n's session: an existing load account, or (SIGNUP=1) a new one. */
function account(n: number, prefix: string): Session | undefined {
  if (SIGNUP) return signupAndLogin(LOBBY, { name: uniqueName(prefix), password: randomPassword() });
  const name = accountName(ACCOUNTS_PREFIX, n);
  return login(LOBBY, { name, password: passwordFor(PASSWORD_SCHEME, name, n) });
}

// Per VU (module state is per VU in k6): the player logs in and takes a seat once, then every
// iteration is one more WebSocket session on that seat. A new player per iteration would overfill
// the room.
let seated: { player: Session; room: RoomRef; roomIndex: number } | undefined;

export function setup(): SetupData {
  const gateways =
    GATEWAY_OVERRIDE.length > 0 ? GATEWAY_OVERRIDE : (lobbyGateways(LOBBY) ?? [`${LOBBY.replace(/^http/, 'ws')}/ws`]);
  const rooms: RoomRef[] = [];
  const hosts: Session[] = [];
  for (let i = 0; i < ROOMS; i++) {
    const creator = account(FIRST_ACCOUNT + VUS + i, 'k6r');
    const room = creator ? createRoom(LOBBY, creator, ROOM_SIZE, false) : undefined;
    if (!creator || !room) fail(`setup: could not create room ${i + 1} of ${ROOMS}`);
    rooms.push(room);
    hosts.push(creator);
  }
  return { rooms, hosts, gateways };
}

export default function (data: SetupData): void {
  if (!seated) {
    const roomIndex = Math.floor((__VU - 1) / ROOM_SIZE) % data.rooms.length;
    const room = data.rooms[roomIndex];
    if (!room) fail('no room for this VU');
    const p = account(FIRST_ACCOUNT + ((__VU - 1) % VUS), 'k6s');
    if (!p || !joinRoom(LOBBY, p, room.code)) return;
    seated = { player: p, room, roomIndex };
  }
  const gateway = data.gateways[(__VU - 1) % data.gateways.length] ?? '';
  if (MODE === 'play') playSession(seated.player, seated.room, gateway, (__VU - 1) % ROOM_SIZE === 0);
  else pingSession(seated.player, seated.room, gateway);
}

/** Closes every room setup() made, refunding the seats, so a run leaves no chips at tables. */
export function teardown(data: SetupData): void {
  data.rooms.forEach((room, i) => {
    const host = data.hosts[i];
    if (host) closeRoom(LOBBY, host, room);
  });
}

function openSocket(player: Session, gateway: string): WebSocket {
  // An empty jar: the cookie header below is the only session the upgrade carries.
  return new WebSocket(gateway, null, {
    headers: { Cookie: `${SESSION_COOKIE}=${player.cookie}`, Origin: ORIGIN },
    jar: new http.CookieJar(),
  });
}

function parse(event: { data?: unknown } | undefined): unknown {
  try {
    return JSON.parse(typeof event?.data === 'string' ? event.data : '');
  } catch {
    return undefined;
  }
}

/**
 * One session of play: join, then answer every turn after a think time; sit back in when sat out,
 * rebuy when busted. `countsHands`: this VU counts its table's hands (one VU per room does).
 */
function playSession(player: Session, room: RoomRef, gateway: string, countsHands: boolean): void {
  const ws = openSocket(player, gateway);
  let joined = false;
  let failed = false;
  let closing = false;
  let seq = 0;
  let joinAttempt = 0;
  let joinCommand = '';
  let answeredToken = '';
  /** The hero's turn token in the latest table_state, if it is the hero's turn. */
  let currentTurnToken: string | undefined;
  let sitInAt = 0;
  let rebuyAt = 0;
  /** The action awaiting its ack. */
  let pending: { commandId: string; sentAt: number; timer: number } | undefined;
  /** An acked action awaiting its batch's table_state here. */
  let awaitingState: { atSeq: number; sentAt: number } | undefined;
  /** Recent table_state arrivals: the batch's may arrive before the ack. */
  const arrivals: { seq: number; at: number }[] = [];
  const timers: number[] = [];
  let joinTimer: number | undefined;

  const error = (kind: string): void => {
    failed = true;
    wsErrors.add(1, { kind });
  };
  const send = (frame: object): void => {
    ws.send(JSON.stringify(frame));
    msgsOut.add(1);
  };
  const later = (fn: () => void, ms: number): void => {
    timers.push(setTimeout(fn, ms));
  };
  const finish = (): void => {
    closing = true;
    for (const t of timers) clearTimeout(t);
    if (joinTimer !== undefined) clearTimeout(joinTimer);
    if (pending) clearTimeout(pending.timer);
    ws.close(1000, 'k6 session finished');
  };
  const join = (): void => {
    joinAttempt += 1;
    joinCommand = `join-${__VU}-${__ITER}-${joinAttempt}`;
    send(joinTableFrame(room.sessionId, joinCommand));
    joinTimer = setTimeout(() => {
      joinOk.add(false);
      error('join_timeout');
      finish();
    }, TIMEOUT_MS);
  };
  const act = (handId: string, turnToken: string, valid: LoadValidActions): void => {
    // The turn may be over (the clock acted, or this is an old session's timer): nothing to answer.
    if (closing || pending || turnToken !== currentTurnToken) return;
    const commandId = `act-${__VU}-${__ITER}-${seq++}`;
    const sentAt = Date.now();
    const timer = setTimeout(() => {
      pending = undefined;
      actionOk.add(false);
      error('ack_timeout');
    }, TIMEOUT_MS);
    pending = { commandId, sentAt, timer };
    send(actionFrame({ tableId: room.sessionId, handId, turnToken }, loadDecision(valid, Math.random), commandId));
  };
  const stateArrived = (tableSeq: number, at: number): void => {
    arrivals.push({ seq: tableSeq, at });
    if (arrivals.length > 32) arrivals.shift();
    if (awaitingState && tableSeq >= awaitingState.atSeq) {
      stateMs.add(at - awaitingState.sentAt);
      awaitingState = undefined;
    }
  };

  ws.onopen = () => {
    join();
    later(finish, SESSION_SECONDS * 1000);
  };

  ws.onmessage = (event) => {
    msgsIn.add(1);
    const now = Date.now();
    const message = parse(event);
    const head = messageHead(message);
    if (!head) {
      error('bad_frame');
      return;
    }
    switch (head.type) {
      case ServerType.TABLE_STATE: {
        if (head.table_id !== room.sessionId) return;
        if (!joined) {
          joined = true;
          joinOk.add(true);
          if (joinTimer !== undefined) clearTimeout(joinTimer);
        }
        if (head.table_seq !== undefined) stateArrived(head.table_seq, now);
        const hero = heroView(message);
        if (!hero) return;
        currentTurnToken = hero.turn?.turnToken;
        if (hero.turn && hero.turn.turnToken !== answeredToken) {
          answeredToken = hero.turn.turnToken;
          const turn = hero.turn;
          const think = THINK_MIN_MS + Math.floor(Math.random() * (THINK_MAX_MS - THINK_MIN_MS + 1));
          later(() => act(turn.handId, turn.turnToken, turn.valid), think);
        } else if (hero.stack === 0 && !hero.inHand && now - rebuyAt > 5000) {
          rebuyAt = now;
          topUp(LOBBY, player, room, LOAD_BUY_IN);
        } else if (hero.status === 'sitting_out' && hero.stack > 0 && now - sitInAt > 2000) {
          sitInAt = now;
          send(sitInFrame(room.sessionId, `sit-${__VU}-${__ITER}-${seq++}`));
        }
        return;
      }
      case ServerType.ACK:
        if (pending && head.command_id === pending.commandId) {
          clearTimeout(pending.timer);
          ackMs.add(now - pending.sentAt);
          actionOk.add(true);
          actions.add(1);
          const atSeq = head.at_table_seq ?? 0;
          const seen = arrivals.find((a) => a.seq >= atSeq);
          if (seen) stateMs.add(seen.at - pending.sentAt);
          else awaitingState = { atSeq, sentAt: pending.sentAt };
          pending = undefined;
        }
        return;
      case ServerType.HAND_RESULT:
        if (countsHands && head.table_id === room.sessionId) hands.add(1);
        return;
      case ServerType.HAND_VOIDED:
        error('hand_voided');
        return;
      case ServerType.ERROR:
        if (!joined && head.command_id === joinCommand) {
          if (joinTimer !== undefined) clearTimeout(joinTimer);
          // "unavailable" means retry shortly (the table is starting or moving): once, as a client would.
          if (head.code === 'unavailable' && joinAttempt < 2) {
            later(join, 500);
            return;
          }
          joinOk.add(false);
          error(`join_${head.code ?? 'error'}`);
          finish();
        } else if (pending && head.command_id === pending.commandId) {
          clearTimeout(pending.timer);
          pending = undefined;
          actionOk.add(false);
          error(`action_${head.code ?? 'error'}`);
        } else if (head.code !== 'seed_refused' && !(head.command_id ?? '').startsWith('sit-')) {
          // A sit_in refused while the table still adds a rebuy's chips is a race, not a fault.
          error(`server_${head.code ?? 'error'}`);
        }
        return;
      default:
        return;
    }
  };

  ws.onerror = (event) => {
    error('ws_error');
    check(event, { 'websocket error': () => false });
  };

  ws.onclose = () => {
    if (!closing) {
      error('closed_by_server');
      finish();
    }
    check(joined, { 'joined the table': (j) => j });
    sessionOk.add(!failed);
  };
}

/** One session of join and ping, as before playing existed: the round trip through the gateway. */
function pingSession(player: Session, room: RoomRef, gateway: string): void {
  const ws = openSocket(player, gateway);
  let joined = false;
  let seq = 0;
  let pending: { nonce: string; sentAt: number } | undefined;
  let pingTimer: number | undefined;
  let joinTimer: number | undefined;
  let endTimer: number | undefined;
  let closing = false;

  const send = (frame: object): void => {
    ws.send(JSON.stringify(frame));
    msgsOut.add(1);
  };
  const finish = (): void => {
    closing = true;
    for (const t of [pingTimer, joinTimer, endTimer]) if (t !== undefined) clearTimeout(t);
    ws.close(1000, 'k6 session finished');
  };
  const ping = (): void => {
    const nonce = `${__VU}-${__ITER}-${seq++}`;
    pending = { nonce, sentAt: Date.now() };
    send(pingFrame(nonce));
    pingTimer = setTimeout(() => {
      wsErrors.add(1, { kind: 'ping_timeout' });
      finish();
    }, TIMEOUT_MS);
  };

  let joinAttempt = 0;
  let joinCommand = '';
  const join = (): void => {
    joinAttempt += 1;
    joinCommand = `join-${__VU}-${__ITER}-${joinAttempt}`;
    send(joinTableFrame(room.sessionId, joinCommand));
    joinTimer = setTimeout(() => {
      joinOk.add(false);
      wsErrors.add(1, { kind: 'join_timeout' });
      finish();
    }, TIMEOUT_MS);
  };

  ws.onopen = () => {
    join();
    endTimer = setTimeout(finish, SESSION_SECONDS * 1000);
  };

  ws.onmessage = (event) => {
    msgsIn.add(1);
    const head = messageHead(parse(event));
    if (!head) {
      wsErrors.add(1, { kind: 'bad_frame' });
      return;
    }
    if (head.type === ServerType.TABLE_STATE && !joined && head.table_id === room.sessionId) {
      joined = true;
      joinOk.add(true);
      if (joinTimer !== undefined) clearTimeout(joinTimer);
      ping();
    } else if (head.type === ServerType.PONG && pending && head.nonce === pending.nonce) {
      pingRtt.add(Date.now() - pending.sentAt);
      pending = undefined;
      if (pingTimer !== undefined) clearTimeout(pingTimer);
      if (!closing) pingTimer = setTimeout(ping, PING_INTERVAL_MS);
    } else if (head.type === ServerType.ERROR && !joined && head.command_id === joinCommand) {
      if (joinTimer !== undefined) clearTimeout(joinTimer);
      // "unavailable" means retry shortly (the table is starting or moving): once, as a client would.
      if (head.code === 'unavailable' && joinAttempt < 2) {
        joinTimer = setTimeout(join, 500);
        return;
      }
      joinOk.add(false);
      wsErrors.add(1, { kind: `join_${head.code ?? 'error'}` });
      finish();
    } else if (head.type === ServerType.ERROR) {
      wsErrors.add(1, { kind: `server_${head.code ?? 'error'}` });
    }
  };

  ws.onerror = (event) => {
    wsErrors.add(1, { kind: 'ws_error' });
    check(event, { 'websocket error': () => false });
  };

  ws.onclose = () => {
    if (!closing) {
      wsErrors.add(1, { kind: 'closed_by_server' });
      for (const t of [pingTimer, joinTimer, endTimer]) if (t !== undefined) clearTimeout(t);
    }
    check(joined, { 'joined the table': (j) => j });
  };
}
