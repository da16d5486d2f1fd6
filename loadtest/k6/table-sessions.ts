// WebSocket sessions through the gateways: each VU iteration is one player who signs up, logs in, joins
// a room by code, connects to a gateway with the session cookie, joins the table, and pings for
// SESSION_SECONDS. setup() creates the rooms, ROOM_SIZE players per room.
//
//   k6 run -e LOBBY_URL=https://felt.example.com [-e GATEWAY_URL=wss://felt.example.com/ws] \
//          [-e VUS=200] [-e DURATION=5m] [-e ROOM_SIZE=6] dist/table-sessions.js
import { check, fail } from 'k6';
import http from 'k6/http';
import { Counter, Rate, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { clearTimeout, setTimeout } from 'k6/timers';
import { WebSocket } from 'k6/websockets';
import { SESSION_COOKIE, ServerType, joinTableFrame, messageHead, pingFrame, type RoomRef } from '../src/wire.js';
import { checkUrl, envInt, envString, envUrl, originOf } from './lib/env.js';
import {
  closeRoom,
  createRoom,
  joinRoom,
  lobbyGateways,
  randomPassword,
  signupAndLogin,
  uniqueName,
  type Session,
} from './lib/lobby.js';

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
// Players per room; the room's creator (made in setup) holds one more seat, so at most 9.
const ROOM_SIZE = envInt('ROOM_SIZE', 5, 1, 9);
const SESSION_SECONDS = envInt('SESSION_SECONDS', 60, 1, 86_400);
const PING_INTERVAL_MS = envInt('PING_INTERVAL_MS', 1000, 100, 60_000);
const TIMEOUT_MS = envInt('TIMEOUT_MS', 10_000, 100, 600_000);

const pingRtt = new Trend('felt_ping_rtt', true);
const joinOk = new Rate('felt_join_ok');
const msgsIn = new Counter('felt_msgs_in');
const msgsOut = new Counter('felt_msgs_out');
const wsErrors = new Counter('felt_ws_errors');

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
  // setup() makes one room per ROOM_SIZE VUs, three lobby calls each; teardown() closes them.
  setupTimeout: `${Math.max(60, Math.ceil(VUS / ROOM_SIZE) * 3)}s`,
  teardownTimeout: `${Math.max(60, Math.ceil(VUS / ROOM_SIZE))}s`,
  thresholds: {
    felt_ping_rtt: ['p(50)<50', 'p(99)<250'],
    felt_join_ok: ['rate>0.99'],
    felt_ws_errors: ['count<10'],
    ws_connecting: ['p(95)<1000'],
    checks: ['rate>0.99'],
  },
};

interface SetupData {
  readonly rooms: RoomRef[];
  /** The host of each room, to close it in teardown(). */
  readonly hosts: Session[];
  readonly gateways: string[];
}

// Per VU (module state is per VU in k6): the player signs up and takes a seat once, then every
// iteration is one more WebSocket session on that seat. A new player per iteration would overfill
// the room.
let seated: { player: Session; room: RoomRef } | undefined;

export function setup(): SetupData {
  const gateways =
    GATEWAY_OVERRIDE.length > 0 ? GATEWAY_OVERRIDE : (lobbyGateways(LOBBY) ?? [`${LOBBY.replace(/^http/, 'ws')}/ws`]);
  const rooms: RoomRef[] = [];
  const hosts: Session[] = [];
  const count = Math.ceil(VUS / ROOM_SIZE);
  for (let i = 0; i < count; i++) {
    const creator = signupAndLogin(LOBBY, { name: uniqueName('k6r'), password: randomPassword() });
    const room = creator ? createRoom(LOBBY, creator, ROOM_SIZE + 1) : undefined;
    if (!creator || !room) fail(`setup: could not create room ${i + 1} of ${count}`);
    rooms.push(room);
    hosts.push(creator);
  }
  return { rooms, hosts, gateways };
}

export default function (data: SetupData): void {
  if (!seated) {
    const room = data.rooms[Math.floor((__VU - 1) / ROOM_SIZE) % data.rooms.length];
    if (!room) fail('no room for this VU');
    const player = signupAndLogin(LOBBY, { name: uniqueName('k6s'), password: randomPassword() });
    if (!player || !joinRoom(LOBBY, player, room.code)) return;
    seated = { player, room };
  }
  tableSession(seated.player, seated.room, data.gateways[(__VU - 1) % data.gateways.length] ?? '');
}

/** Closes every room setup() made, refunding the seats, so a run leaves no chips at tables. */
export function teardown(data: SetupData): void {
  data.rooms.forEach((room, i) => {
    const host = data.hosts[i];
    if (host) closeRoom(LOBBY, host, room);
  });
}

function tableSession(player: Session, room: RoomRef, gateway: string): void {
  // An empty jar: the cookie header below is the only session the upgrade carries.
  const ws = new WebSocket(gateway, null, {
    headers: { Cookie: `${SESSION_COOKIE}=${player.cookie}`, Origin: ORIGIN },
    jar: new http.CookieJar(),
  });
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
    let head;
    try {
      head = messageHead(JSON.parse(typeof event?.data === 'string' ? event.data : ''));
    } catch {
      head = undefined;
    }
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
