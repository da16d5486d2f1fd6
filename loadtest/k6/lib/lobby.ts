import { check } from 'k6';
import http from 'k6/http';
import {
  LobbyRoute,
  SESSION_COOKIE,
  createRoomBody,
  gatewayUrls,
  joinByCodeBody,
  roomRef,
  topUpPath,
  type Credentials,
  type RoomRef,
} from '../../src/wire.js';

/** A logged-in user: requests carry this cookie explicitly, whatever the VU's jar holds. */
export interface Session {
  readonly name: string;
  readonly cookie: string;
}

function post(lobby: string, path: string, body: unknown, step: string, cookie?: string): http.RefinedResponse<'text'> {
  const params: http.RefinedParams<'text'> = {
    headers: { 'Content-Type': 'application/json', Origin: lobby },
    tags: { name: step },
  };
  // Request-scoped cookie, replacing the jar's: one VU plays several users in turn.
  if (cookie !== undefined) params.cookies = { [SESSION_COOKIE]: { value: cookie, replace: true } };
  return http.post(`${lobby}${path}`, JSON.stringify(body), params);
}

/**
 * A user name unique across VUs and iterations (VU and iteration numbers) and across runs (clock and
 * random tail), within the lobby's 24 characters: 3 + 5 + 2 + at most 4 + 1 + at most 6.
 */
export function uniqueName(prefix: string): string {
  const clock = Date.now().toString(36).slice(-5);
  const random = Math.floor(Math.random() * 1296)
    .toString(36)
    .padStart(2, '0');
  return `${prefix.slice(0, 3)}${clock}${random}${__VU.toString(36)}x${__ITER.toString(36)}`;
}

/** The lobby's gateway URLs (GET /api/config), or undefined when it gives none. */
export function lobbyGateways(lobby: string): string[] | undefined {
  const res = http.get(`${lobby}${LobbyRoute.CONFIG}`, { tags: { name: 'config' } });
  try {
    return gatewayUrls(JSON.parse(res.body as string));
  } catch {
    return undefined;
  }
}

export function signupAndLogin(lobby: string, credentials: Credentials): Session | undefined {
  const signup = post(lobby, LobbyRoute.SIGNUP, credentials, 'signup');
  if (!check(signup, { 'signup 2xx': (r) => r.status >= 200 && r.status < 300 })) return undefined;
  return login(lobby, credentials);
}

/** Logs in to an existing account (e.g. one `npm run accounts` made). */
export function login(lobby: string, credentials: Credentials): Session | undefined {
  const res = post(lobby, LobbyRoute.LOGIN, credentials, 'login');
  const cookie = res.cookies[SESSION_COOKIE]?.[0]?.value;
  const ok = check(res, {
    'login 2xx': (r) => r.status >= 200 && r.status < 300,
    'login sets the session cookie': () => cookie !== undefined && cookie !== '',
  });
  return ok && cookie !== undefined ? { name: credentials.name, cookie } : undefined;
}

function parseRoom(res: http.RefinedResponse<'text'>): RoomRef | undefined {
  try {
    return roomRef(JSON.parse(res.body));
  } catch {
    return undefined;
  }
}

/** Creates a load room; the creator takes a seat only when `sit` (default). */
export function createRoom(lobby: string, session: Session, seats: number, sit = true): RoomRef | undefined {
  const res = post(lobby, LobbyRoute.ROOMS, createRoomBody(seats, sit), 'create_room', session.cookie);
  const room = parseRoom(res);
  check(res, {
    'create room 2xx': (r) => r.status >= 200 && r.status < 300,
    'create room returns session_id and code': () => room !== undefined,
  });
  return room;
}

export function joinRoom(lobby: string, session: Session, code: string): RoomRef | undefined {
  const res = post(lobby, LobbyRoute.JOIN_BY_CODE, joinByCodeBody(code), 'join_room', session.cookie);
  const room = parseRoom(res);
  check(res, {
    'join by code 2xx': (r) => r.status >= 200 && r.status < 300,
    'join by code returns the room': () => room !== undefined,
  });
  return room;
}

/** Closes a room (host only): every seat is refunded, so a load run leaves no chips at tables. */
export function closeRoom(lobby: string, host: Session, room: RoomRef): boolean {
  const res = http.del(`${lobby}${LobbyRoute.ROOMS}/${room.sessionId}`, null, {
    headers: { Origin: lobby },
    cookies: { [SESSION_COOKIE]: { value: host.cookie, replace: true } },
    tags: { name: 'close_room' },
  });
  return check(res, { 'close room 2xx': (r) => r.status >= 200 && r.status < 300 });
}

/** Rebuys a busted seat from the wallet; the table adds the chips at its next hand boundary. */
export function topUp(lobby: string, session: Session, room: RoomRef, amount: number): boolean {
  // Not a check: the lobby refuses while its escrow still shows the chips of the hand that busted the
  // seat (until that hand is persisted), and the caller simply tries again a little later.
  const res = post(lobby, topUpPath(room.sessionId), { amount }, 'top_up', session.cookie);
  return res.status >= 200 && res.status < 300;
}

export function randomPassword(): string {
  let s = '';
  for (let i = 0; i < 4; i++)
    s += Math.floor(Math.random() * 0xffffffff)
      .toString(16)
      .padStart(8, '0');
  return s;
}
