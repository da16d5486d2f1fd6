import type { BettingLimit, GameType, RoomConfigInput } from '@felt/protocol';

/** The lobby's session cookie (docs/dev/contracts.md). */
export const SESSION_COOKIE_NAME = 'felt_session';

export interface LobbyUser {
  readonly id: string;
  readonly name: string;
}

export interface LobbySession {
  readonly user: LobbyUser;
  readonly wallet: number;
  readonly expires_at: string;
}

export interface LobbySeat {
  /** The room id, which is also the table id to join over the WebSocket. */
  readonly session_id: string;
  readonly code: string;
  readonly seat: number;
  readonly stack: number;
}

export interface LobbyMe {
  readonly user: LobbyUser;
  readonly wallet: number;
  readonly seats: readonly LobbySeat[];
}

export interface LobbyJoined extends LobbySeat {
  readonly wallet: number;
  readonly replayed: boolean;
}

export interface LobbyRoomSummary {
  readonly session_id: string;
  readonly code: string;
  readonly status: 'open' | 'closing' | 'closed';
  readonly game: GameType;
  readonly limit: BettingLimit;
  readonly stakes: string;
  readonly seats: number;
  readonly players: number;
  readonly buy_in: { readonly min: number; readonly max: number };
  readonly listed: boolean;
  readonly host_id: string;
  readonly created_at: string;
}

export interface LobbyRoomDetail extends LobbyRoomSummary {
  readonly config: Record<string, unknown>;
  readonly members: readonly { user_id: string; name: string; seat: number; stack: number }[];
}

export interface LobbyCreatedRoom {
  readonly session_id: string;
  readonly code: string;
  readonly room: LobbyRoomDetail;
  readonly seat: LobbyJoined | null;
}

export interface LobbyLeft {
  readonly session_id: string;
  /** `left` at once; `leaving` (HTTP 202) when a hand in progress settles first. Older lobbies omit it. */
  readonly status?: string;
  readonly refunded: number;
  readonly wallet: number;
}

export interface LobbyTopUp {
  readonly session_id: string;
  readonly top_up_id: string;
  readonly amount: number;
  /** Whether the chips are on the table already or wait for the next hand boundary. */
  readonly status: string;
  readonly escrow: number;
  readonly wallet: number;
  readonly replayed: boolean;
}

export interface SeatRequest {
  /** 1-based seat; omitted: the first free one. */
  readonly seat?: number;
  readonly buy_in: number;
}

/** A refused lobby request: `code` is the API's stable error code (services/lobby README). */
export class LobbyApiError extends Error {
  override readonly name = 'LobbyApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export interface LobbyClientOptions {
  /** The lobby's base URL, e.g. `http://localhost:8080`; `''` for same-origin requests in a browser. */
  readonly baseUrl: string;
  /** Defaults to globalThis.fetch. */
  readonly fetch?: typeof fetch;
  /**
   * Node only: a `felt_session=<token>` cookie to send. Sign-up and login fill it in from Set-Cookie.
   * A browser ignores it: there the HttpOnly cookie travels by itself.
   */
  readonly cookie?: string;
}

/**
 * The lobby's HTTP API for players and bots: accounts, rooms and seats. In a browser the session
 * cookie is managed by the browser; in Node this client keeps it (see {@link LobbyClient.cookie})
 * so it can be handed to the WebSocket factory.
 */
export class LobbyClient {
  private readonly fetchImpl: typeof fetch;
  private sessionCookie: string | undefined;

  constructor(private readonly options: LobbyClientOptions) {
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.sessionCookie = options.cookie;
  }

  /** `felt_session=<token>` once signed up or logged in (Node); undefined in a browser. */
  get cookie(): string | undefined {
    return this.sessionCookie;
  }

  signup(name: string, password: string): Promise<LobbySession> {
    return this.request<LobbySession>('POST', '/api/auth/signup', { name, password });
  }

  login(name: string, password: string): Promise<LobbySession> {
    return this.request<LobbySession>('POST', '/api/auth/login', { name, password });
  }

  async logout(): Promise<void> {
    await this.request<null>('POST', '/api/auth/logout');
    this.sessionCookie = undefined;
  }

  me(): Promise<LobbyMe> {
    return this.request<LobbyMe>('GET', '/api/me');
  }

  /** Gateway WebSocket URLs to connect to. */
  async gatewayUrls(): Promise<string[]> {
    const body = await this.request<{ gateway_urls: string[] }>('GET', '/api/config');
    return body.gateway_urls;
  }

  createRoom(request: { config?: RoomConfigInput; sit?: SeatRequest } = {}): Promise<LobbyCreatedRoom> {
    return this.request<LobbyCreatedRoom>('POST', '/api/rooms', request);
  }

  listRooms(filter: { game?: GameType; limit?: BettingLimit; stakes?: string } = {}): Promise<LobbyRoomSummary[]> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(filter)) if (typeof v === 'string') q.set(k, v);
    const qs = q.toString();
    return this.request<{ rooms: LobbyRoomSummary[] }>('GET', `/api/rooms${qs ? `?${qs}` : ''}`).then((b) => b.rooms);
  }

  getRoom(roomId: string): Promise<LobbyRoomDetail> {
    return this.request<LobbyRoomDetail>('GET', `/api/rooms/${encodeURIComponent(roomId)}`);
  }

  /** Takes a seat by room code and buys in; an idempotency key makes a retry safe. */
  joinByCode(code: string, seat: SeatRequest, idempotencyKey?: string): Promise<LobbyJoined> {
    return this.request<LobbyJoined>('POST', '/api/rooms/join', { code, ...seat }, idempotencyKey);
  }

  quickJoin(
    filter: { game?: GameType; limit?: BettingLimit; stakes?: string; buy_in?: number } = {},
    idempotencyKey?: string,
  ): Promise<LobbyJoined> {
    return this.request<LobbyJoined>('POST', '/api/rooms/quick-join', filter, idempotencyKey);
  }

  /** Frees the seat; the stack goes back to the wallet (at the hand's end if one is in progress). */
  leaveRoom(roomId: string): Promise<LobbyLeft> {
    return this.request<LobbyLeft>('POST', `/api/rooms/${encodeURIComponent(roomId)}/leave`);
  }

  /** Rebuy or top up from the wallet; the table adds the chips at its next hand boundary. */
  topUp(roomId: string, amount: number, idempotencyKey?: string): Promise<LobbyTopUp> {
    return this.request<LobbyTopUp>(
      'POST',
      `/api/rooms/${encodeURIComponent(roomId)}/top-up`,
      { amount },
      idempotencyKey,
    );
  }

  /** Host only: refunds every seat and closes the room. */
  closeRoom(roomId: string): Promise<unknown> {
    return this.request<unknown>('DELETE', `/api/rooms/${encodeURIComponent(roomId)}`);
  }

  /** Any other lobby route, with the same cookie and error handling. */
  async request<T>(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.sessionCookie !== undefined) headers.cookie = this.sessionCookie;
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    const res = await this.fetchImpl(`${this.options.baseUrl}${path}`, {
      method,
      headers,
      credentials: 'include',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    this.captureCookie(res);
    const text = await res.text();
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new LobbyApiError(res.status, 'bad_response', `lobby answered ${method} ${path} with non-JSON`);
      }
    }
    if (!res.ok) {
      const err = (parsed as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
      throw new LobbyApiError(
        res.status,
        typeof err?.code === 'string' ? err.code : `http_${res.status}`,
        typeof err?.message === 'string' ? err.message : `${method} ${path} failed with HTTP ${res.status}`,
        err?.details,
      );
    }
    return parsed as T;
  }

  private captureCookie(res: Response): void {
    // getSetCookie exists in Node's fetch; browsers hide Set-Cookie from scripts (and keep the cookie).
    const headers = res.headers as Headers & { getSetCookie?: () => string[] };
    const all = typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : [];
    for (const line of all) {
      const pair = line.split(';')[0]?.trim();
      if (!pair?.startsWith(`${SESSION_COOKIE_NAME}=`)) continue;
      // An expired/cleared cookie (logout) has an empty value.
      this.sessionCookie = pair.length > SESSION_COOKIE_NAME.length + 1 ? pair : undefined;
    }
  }
}
