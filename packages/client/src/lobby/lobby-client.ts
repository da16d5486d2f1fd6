import { CodedError } from '@felt/engine';
import {
  SESSION_COOKIE,
  type CreateRoomRequest,
  type HandDetail,
  type HistoryPage,
  type LobbyClientConfig,
  type LobbyClosed,
  type LobbyCreatedRoom,
  type LobbyJoined,
  type LobbyLeft,
  type LobbyMe,
  type LobbyRoomDetail,
  type LobbyRoomList,
  type LobbyRoomSummary,
  type LobbySession,
  type LobbySignedUp,
  type LobbyTopUp,
  type LobbyTournamentAddOn,
  type LobbyTournamentDetail,
  type LobbyTournamentEntry,
  type LobbyTournamentList,
  type LobbyTournamentSummary,
  type LobbyTournamentUnregistered,
  type LobbyWaitlistEntry,
  type LobbyWaitlists,
  type QuickJoinRequest,
  type RoomChatRequest,
  type RoomListQuery,
  type SeatRequest,
  type TournamentListQuery,
  type UpdateMeRequest,
} from '@felt/protocol';

// The lobby's request and response types are @felt/protocol's HTTP contract; these are re-exported
// so that an SDK user finds them beside the client.
export type {
  CreateRoomRequest,
  HandDetail,
  HandDetailPlayer,
  HandSummary,
  HistoryPage,
  LobbyClientConfig,
  LobbyClosed,
  LobbyCreatedRoom,
  LobbyJoined,
  LobbyLeft,
  LobbyMe,
  LobbyRoomDetail,
  LobbyRoomSummary,
  LobbySeat,
  LobbySession,
  LobbySignedUp,
  LobbyTopUp,
  LobbyTournamentAddOn,
  LobbyTournamentDetail,
  LobbyTournamentEntry,
  LobbyTournamentSummary,
  LobbyTournamentUnregistered,
  LobbyUser,
  LobbyWaitlistEntry,
  LobbyWaitlists,
  QuickJoinRequest,
  RoomChatRequest,
  SeatRequest,
  UpdateMeRequest,
} from '@felt/protocol';

/** A refused lobby request: `code` is the API's stable error code (services/lobby README). */
export class LobbyApiError extends CodedError {
  override readonly name = 'LobbyApiError';
  constructor(
    readonly status: number,
    code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(code, message);
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

  signup(name: string, password: string): Promise<LobbySignedUp> {
    return this.request<LobbySignedUp>('POST', '/api/auth/signup', { name, password });
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

  /** Changes the account's settings (its language); answers as {@link LobbyClient.me} does. */
  updateMe(changes: UpdateMeRequest): Promise<LobbyMe> {
    return this.request<LobbyMe>('PATCH', '/api/me', changes);
  }

  /** Gateway WebSocket URLs to connect to. */
  async gatewayUrls(): Promise<string[]> {
    const body = await this.request<LobbyClientConfig>('GET', '/api/config');
    return body.gateway_urls;
  }

  /** Creates a room (the caller is its host), seated at once with `sit`; an idempotency key makes a retry safe. */
  createRoom(request: CreateRoomRequest = {}, idempotencyKey?: string): Promise<LobbyCreatedRoom> {
    return this.request<LobbyCreatedRoom>('POST', '/api/rooms', request, idempotencyKey);
  }

  listRooms(filter: Pick<RoomListQuery, 'game' | 'limit' | 'stakes'> = {}): Promise<LobbyRoomSummary[]> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(filter)) if (typeof v === 'string') q.set(k, v);
    const qs = q.toString();
    return this.request<LobbyRoomList>('GET', `/api/rooms${qs ? `?${qs}` : ''}`).then((b) => b.rooms);
  }

  getRoom(roomId: string): Promise<LobbyRoomDetail> {
    return this.request<LobbyRoomDetail>('GET', `/api/rooms/${encodeURIComponent(roomId)}`);
  }

  /** Takes a seat by room code and buys in; an idempotency key makes a retry safe. */
  joinByCode(code: string, seat: SeatRequest, idempotencyKey?: string): Promise<LobbyJoined> {
    return this.request<LobbyJoined>('POST', '/api/rooms/join', { code, ...seat }, idempotencyKey);
  }

  quickJoin(filter: QuickJoinRequest = {}, idempotencyKey?: string): Promise<LobbyJoined> {
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

  /**
   * Joins the room's waitlist (it has no seat free for you); answers with your place. A seat that comes
   * free is held for the first in line until `offer_expires_at`: take it with {@link LobbyClient.joinByCode}.
   */
  joinWaitlist(roomId: string): Promise<LobbyWaitlistEntry> {
    return this.request<LobbyWaitlistEntry>('POST', `/api/rooms/${encodeURIComponent(roomId)}/waitlist`);
  }

  /** Leaves the room's waitlist (nothing when not in it); a seat held for you goes to the next. */
  async leaveWaitlist(roomId: string): Promise<void> {
    await this.request<null>('DELETE', `/api/rooms/${encodeURIComponent(roomId)}/waitlist`);
  }

  /** The rooms you wait at, with your place and any seat held for you. */
  waitlists(): Promise<LobbyWaitlistEntry[]> {
    return this.request<LobbyWaitlists>('GET', '/api/waitlists').then((b) => b.waitlists);
  }

  /** Host only: turns the room's chat on or off, and spectators' chat; answers with the room as it is now. */
  setRoomChat(roomId: string, changes: RoomChatRequest): Promise<LobbyRoomDetail> {
    return this.request<LobbyRoomDetail>('PATCH', `/api/rooms/${encodeURIComponent(roomId)}/chat`, changes);
  }

  /** Host only: refunds every seat and closes the room. */
  closeRoom(roomId: string): Promise<LobbyClosed> {
    return this.request<LobbyClosed>('DELETE', `/api/rooms/${encodeURIComponent(roomId)}`);
  }

  /** The signed-in player's finished hands, newest first; pass the previous page's `next` as `cursor`. */
  hands(options: { cursor?: string; pageSize?: number } = {}): Promise<HistoryPage> {
    const q = new URLSearchParams();
    if (options.pageSize !== undefined) q.set('page_size', String(options.pageSize));
    if (options.cursor !== undefined) q.set('cursor', options.cursor);
    const qs = q.toString();
    return this.request<HistoryPage>('GET', `/api/hands${qs ? `?${qs}` : ''}`);
  }

  /** One of the player's hands as they may see it: players, the operation log, pots, seeds. */
  hand(handId: string): Promise<HandDetail> {
    return this.request<HandDetail>('GET', `/api/hands/${encodeURIComponent(handId)}`);
  }

  /** Tournaments registering and running (or of one status), soonest start first. */
  listTournaments(filter: Pick<TournamentListQuery, 'status'> = {}): Promise<LobbyTournamentSummary[]> {
    const qs = filter.status ? `?status=${filter.status}` : '';
    return this.request<LobbyTournamentList>('GET', `/api/tournaments${qs}`).then((b) => b.tournaments);
  }

  /** One tournament: its structure, players, places and what each paid place wins. */
  getTournament(tournamentId: string): Promise<LobbyTournamentDetail> {
    return this.request<LobbyTournamentDetail>('GET', `/api/tournaments/${encodeURIComponent(tournamentId)}`);
  }

  /** Registers (buy-in and fee from the wallet); registering again charges nothing (`replayed`). */
  registerTournament(tournamentId: string): Promise<LobbyTournamentEntry> {
    return this.request<LobbyTournamentEntry>('POST', `/api/tournaments/${encodeURIComponent(tournamentId)}/register`);
  }

  /**
   * Buys the add-on for the entry you are playing while it is on sale (the detail's `can_add_on`, at
   * the first break): its cost from the wallet, its chips at your table. Again: `replayed`, nothing charged.
   */
  addOnTournament(tournamentId: string): Promise<LobbyTournamentAddOn> {
    return this.request<LobbyTournamentAddOn>('POST', `/api/tournaments/${encodeURIComponent(tournamentId)}/add-on`);
  }

  /** Unregisters before the start; buy-in and fee go back to the wallet. */
  unregisterTournament(tournamentId: string): Promise<LobbyTournamentUnregistered> {
    return this.request<LobbyTournamentUnregistered>(
      'DELETE',
      `/api/tournaments/${encodeURIComponent(tournamentId)}/register`,
    );
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
      if (!pair?.startsWith(`${SESSION_COOKIE}=`)) continue;
      // An expired/cleared cookie (logout) has an empty value.
      this.sessionCookie = pair.length > SESSION_COOKIE.length + 1 ? pair : undefined;
    }
  }
}
