// Message shapes and lobby routes the load scenario uses, shared by the Node runner and the k6 scripts
// (which bundle this file), so it must not import anything: k6 has no Node and no npm packages.
// The authoritative schemas are in @felt/protocol and the lobby's OpenAPI document; wire.test.ts
// checks these against them.

/** Client frames the scenario sends. */
export interface JoinTableFrame {
  readonly type: 'join_table';
  readonly table_id: string;
  readonly command_id?: string;
}
export interface PingFrame {
  readonly type: 'ping';
  readonly nonce?: string;
}

export function joinTableFrame(tableId: string, commandId: string): JoinTableFrame {
  return { type: 'join_table', table_id: tableId, command_id: commandId };
}

export function pingFrame(nonce: string): PingFrame {
  return { type: 'ping', nonce };
}

/** The server message types the scenario reacts to; anything else is counted and ignored. */
export const ServerType = {
  TABLE_STATE: 'table_state',
  PONG: 'pong',
  ERROR: 'error',
  TABLE_CLOSED: 'table_closed',
} as const;
export type ServerType = (typeof ServerType)[keyof typeof ServerType];

export interface ServerMessageHead {
  readonly type: string;
  readonly table_id?: string;
  readonly nonce?: string;
  readonly code?: string;
  readonly command_id?: string;
}

/** The `type`, and the few fields the scenario reads, of a parsed server message; undefined if it has none. */
export function messageHead(message: unknown): ServerMessageHead | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Record<string, unknown>;
  if (typeof m['type'] !== 'string') return undefined;
  const str = (k: string): string | undefined => (typeof m[k] === 'string' ? m[k] : undefined);
  const head: { type: string; table_id?: string; nonce?: string; code?: string; command_id?: string } = {
    type: m['type'],
  };
  const tableId = str('table_id');
  const nonce = str('nonce');
  const code = str('code');
  const commandId = str('command_id');
  if (tableId !== undefined) head.table_id = tableId;
  if (nonce !== undefined) head.nonce = nonce;
  if (code !== undefined) head.code = code;
  if (commandId !== undefined) head.command_id = commandId;
  return head;
}

/** Session cookie the lobby sets at login and the gateway reads at upgrade (docs/dev/contracts.md). */
export const SESSION_COOKIE = 'felt_session';

/** Lobby routes, relative to the lobby base URL (the lobby serves its OpenAPI document at /openapi.json). */
export const LobbyRoute = {
  /** `{gateway_urls: [...]}`: where clients connect for live play. */
  CONFIG: '/api/config',
  /** Creates the account and signs in (sets the cookie). */
  SIGNUP: '/api/auth/signup',
  LOGIN: '/api/auth/login',
  ROOMS: '/api/rooms',
  JOIN_BY_CODE: '/api/rooms/join',
} as const;
export type LobbyRoute = (typeof LobbyRoute)[keyof typeof LobbyRoute];

export interface Credentials {
  /** 3..24 of letters, digits, _ and -. */
  readonly name: string;
  /** 8..128 characters. */
  readonly password: string;
}

/** What every load player buys in with: inside the range of {@link createRoomBody}'s rooms, far below the sign-up grant. */
export const LOAD_BUY_IN = 100;

/**
 * An unlisted hold'em room at 1/2 with a fixed buy-in range, the creator seated: unlisted so that
 * quick join never seats real players at a load room.
 */
export function createRoomBody(seats: number): Record<string, unknown> {
  return {
    config: {
      game: 'holdem',
      limit: 'nl',
      stakes: { smallBlind: 1, bigBlind: 2 },
      seats,
      buyIn: { min: LOAD_BUY_IN, max: 2 * LOAD_BUY_IN },
      listed: false,
    },
    sit: { buy_in: LOAD_BUY_IN },
  };
}

export function joinByCodeBody(code: string): Record<string, unknown> {
  return { code, buy_in: LOAD_BUY_IN };
}

/** Reads `gateway_urls` out of the lobby's config response; undefined when absent or empty. */
export function gatewayUrls(body: unknown): string[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const urls = (body as Record<string, unknown>)['gateway_urls'];
  if (!Array.isArray(urls)) return undefined;
  const strings = urls.filter((u): u is string => typeof u === 'string' && /^wss?:\/\//.test(u));
  return strings.length > 0 ? strings : undefined;
}

export interface RoomRef {
  /** The room id, used as table_id on the WebSocket. */
  readonly sessionId: string;
  /** The 6-digit code others join with. */
  readonly code: string;
}

/** Reads `{session_id, code}` out of a create-room response; undefined when the shape is wrong. */
export function roomRef(body: unknown): RoomRef | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const sessionId = b['session_id'];
  const code = b['code'];
  return typeof sessionId === 'string' && typeof code === 'string' ? { sessionId, code } : undefined;
}

/** Extracts the session cookie's `name=value` pair from Set-Cookie header values. */
export function sessionCookie(setCookies: readonly string[]): string | undefined {
  for (const header of setCookies) {
    const pair = header.split(';')[0]?.trim() ?? '';
    if (pair.startsWith(`${SESSION_COOKIE}=`) && pair.length > SESSION_COOKIE.length + 1) return pair;
  }
  return undefined;
}
