// Message shapes and lobby routes the load scenario uses, shared by the Node runner and the k6 scripts
// (which bundle this file), so it must not import anything: k6 has no Node and no npm packages.
// The authoritative schemas are in @felt/protocol: the WebSocket messages, and the lobby's HTTP
// contract (lobby-api.ts: routes, bodies, answers, the session cookie); wire.test.ts checks these
// copies against them.

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

/** The actions a load player takes (a subset of the protocol's ActionType). */
export type LoadAction = 'fold' | 'check' | 'call' | 'bet' | 'raise' | 'all_in' | 'bring_in' | 'complete' | 'discard';

/** One decision for the turn named by `hand_id` and `turn_token` (hero.turn_token of a table_state). */
export interface ActionFrame {
  readonly type: 'action';
  readonly table_id: string;
  readonly hand_id: string;
  readonly turn_token: string;
  readonly command_id: string;
  readonly action: LoadAction;
  readonly amount?: number;
  readonly cards?: readonly string[];
}

export function actionFrame(
  turn: { readonly tableId: string; readonly handId: string; readonly turnToken: string },
  decision: LoadDecision,
  commandId: string,
): ActionFrame {
  return {
    type: 'action',
    table_id: turn.tableId,
    hand_id: turn.handId,
    turn_token: turn.turnToken,
    command_id: commandId,
    action: decision.action,
    ...(decision.amount !== undefined ? { amount: decision.amount } : {}),
    ...(decision.cards !== undefined ? { cards: decision.cards } : {}),
  };
}

export interface SitInFrame {
  readonly type: 'sit_in';
  readonly table_id: string;
  readonly command_id: string;
  readonly post: boolean;
}

/** Back into the game after being sat out (busted and rebought, or timed out), posting at once. */
export function sitInFrame(tableId: string, commandId: string): SitInFrame {
  return { type: 'sit_in', table_id: tableId, command_id: commandId, post: true };
}

/** The server message types the scenario reacts to; anything else is counted and ignored. */
export const ServerType = {
  TABLE_STATE: 'table_state',
  PONG: 'pong',
  ERROR: 'error',
  TABLE_CLOSED: 'table_closed',
  ACK: 'ack',
  HAND_RESULT: 'hand_result',
  HAND_VOIDED: 'hand_voided',
} as const;
export type ServerType = (typeof ServerType)[keyof typeof ServerType];

export interface ServerMessageHead {
  readonly type: string;
  readonly table_id?: string;
  readonly nonce?: string;
  readonly code?: string;
  readonly command_id?: string;
  readonly hand_id?: string;
  /** Stream messages: the table-wide watermark. */
  readonly table_seq?: number;
  /** ack: the table_seq of the command's last message (its batch's table_state carries it). */
  readonly at_table_seq?: number;
}

type MutableHead = { -readonly [K in keyof ServerMessageHead]: ServerMessageHead[K] };

/** The `type`, and the few fields the scenario reads, of a parsed server message; undefined if it has none. */
export function messageHead(message: unknown): ServerMessageHead | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Record<string, unknown>;
  if (typeof m['type'] !== 'string') return undefined;
  const head: MutableHead = { type: m['type'] };
  for (const k of ['table_id', 'nonce', 'code', 'command_id', 'hand_id'] as const) {
    const v = m[k];
    if (typeof v === 'string') head[k] = v;
  }
  for (const k of ['table_seq', 'at_table_seq'] as const) {
    const v = m[k];
    if (typeof v === 'number') head[k] = v;
  }
  return head;
}

/** A bet, raise or completion range; fixed-limit games list the only amounts allowed. */
export interface WagerRange {
  readonly min: number;
  readonly max: number;
  readonly choices?: readonly number[] | undefined;
}

/** What the hero may do (table_state.hero.valid_actions); the fields a load decision reads. */
export interface LoadValidActions {
  readonly fold: boolean;
  readonly check: boolean;
  readonly call: number | null;
  readonly bet: WagerRange | null;
  readonly raise: WagerRange | null;
  readonly all_in: number | null;
  readonly bring_in: number | null;
  readonly complete: WagerRange | null;
  readonly discard: { readonly max: number } | null;
}

/** The recipient's own seat in a table_state, and its turn when it is the actor. */
export interface HeroView {
  readonly seat: number;
  readonly stack: number;
  /** Seat status: active, away, sitting_out, disconnected. */
  readonly status: string;
  readonly inHand: boolean;
  readonly turn?: { readonly handId: string; readonly turnToken: string; readonly valid: LoadValidActions };
}

/** The hero's seat (and turn) in a parsed table_state; undefined for a spectator or another message. */
export function heroView(message: unknown): HeroView | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Record<string, unknown>;
  if (m['type'] !== ServerType.TABLE_STATE) return undefined;
  const hero = m['hero'] as Record<string, unknown> | undefined;
  const seatNo = hero?.['seat'];
  if (typeof seatNo !== 'number' || !Array.isArray(m['seats'])) return undefined;
  const seat = (m['seats'] as Record<string, unknown>[]).find((s) => s['seat'] === seatNo);
  if (!seat) return undefined;
  const token = hero?.['turn_token'];
  const valid = hero?.['valid_actions'];
  const handId = m['hand_id'];
  return {
    seat: seatNo,
    stack: typeof seat['stack'] === 'number' ? seat['stack'] : 0,
    status: typeof seat['status'] === 'string' ? seat['status'] : '',
    inHand: seat['in_hand'] === true,
    ...(typeof token === 'string' && typeof handId === 'string' && typeof valid === 'object' && valid !== null
      ? { turn: { handId, turnToken: token, valid: valid as LoadValidActions } }
      : {}),
  };
}

/** A decision of the k6 players (the Node runner uses @felt/client's chooseDecision instead). */
export interface LoadDecision {
  readonly action: LoadAction;
  readonly amount?: number;
  readonly cards?: readonly string[];
}

/**
 * A legal decision picked at random from valid_actions, the way a passive player plays: check or call
 * mostly, fold facing a bet sometimes, open or raise the minimum now and then. Short hands, every street
 * exercised; not a strategy.
 */
export function loadDecision(valid: LoadValidActions, random: () => number): LoadDecision {
  if (valid.discard !== null) return { action: 'discard', cards: [] };
  if (valid.bring_in !== null) return { action: 'bring_in' };
  const r = random();
  if (valid.call !== null && valid.fold && r < 0.2) return { action: 'fold' };
  if (r > 0.85) {
    const range = valid.raise ?? valid.bet;
    if (range !== null)
      return { action: valid.raise !== null ? 'raise' : 'bet', amount: range.choices?.[0] ?? range.min };
  }
  if (valid.check) return { action: 'check' };
  if (valid.call !== null) return { action: 'call' };
  if (valid.all_in !== null) return { action: 'all_in' };
  return { action: 'fold' };
}

/** Session cookie the lobby sets at login and the gateway reads at upgrade (@felt/protocol SESSION_COOKIE). */
export const SESSION_COOKIE = 'felt_session';

/** Lobby routes, relative to the lobby base URL (@felt/protocol LOBBY_ROUTES; the lobby serves /openapi.json). */
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

/** `POST` here with `{amount}`: a rebuy or top-up from the wallet, added at the table's next hand boundary. */
export function topUpPath(roomId: string): string {
  return `${LobbyRoute.ROOMS}/${encodeURIComponent(roomId)}/top-up`;
}

export interface Credentials {
  /** 3..24 of letters, digits, _ and -. */
  readonly name: string;
  /** 8..128 characters. */
  readonly password: string;
}

/** What every load player buys in with: inside the range of {@link createRoomBody}'s rooms, far below the sign-up grant. */
export const LOAD_BUY_IN = 100;

/**
 * An unlisted hold'em room at 1/2 with a fixed buy-in range, the creator seated unless `sit` is
 * false: unlisted so that quick join never seats real players at a load room.
 */
export function createRoomBody(seats: number, sit = true): Record<string, unknown> {
  return {
    config: {
      game: 'holdem',
      limit: 'nl',
      stakes: { smallBlind: 1, bigBlind: 2 },
      seats,
      buyIn: { min: LOAD_BUY_IN, max: 2 * LOAD_BUY_IN },
      listed: false,
    },
    ...(sit ? { sit: { buy_in: LOAD_BUY_IN } } : {}),
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
