import {
  LobbyRoute,
  createRoomBody,
  gatewayUrls,
  joinByCodeBody,
  roomRef,
  sessionCookie,
  type Credentials,
  type RoomRef,
} from './wire.js';

export const LobbyErrorCode = {
  /** The lobby answered with a non-2xx status. */
  HTTP_STATUS: 'http_status',
  /** No answer within the timeout. */
  TIMEOUT: 'timeout',
  /** The request failed below HTTP (refused, reset, DNS). */
  NETWORK: 'network',
  /** A 2xx answer without the fields the scenario needs. */
  BAD_RESPONSE: 'bad_response',
} as const;
export type LobbyErrorCode = (typeof LobbyErrorCode)[keyof typeof LobbyErrorCode];

export class LobbyError extends Error {
  override readonly name = 'LobbyError';
  constructor(
    readonly code: LobbyErrorCode,
    /** Which scenario step failed: signup, login, create_room, join_room. */
    readonly step: string,
    readonly status: number | undefined,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** A short stable label for the error counters, e.g. `login_http_401`. */
  get kind(): string {
    return this.code === LobbyErrorCode.HTTP_STATUS ? `${this.step}_http_${this.status}` : `${this.step}_${this.code}`;
  }
}

/** The lobby calls one virtual user makes, over fetch. */
export class LobbyClient {
  constructor(
    private readonly base: URL,
    private readonly timeoutMs: number,
  ) {}

  /** Creates the account. (Sign-up also signs in; the scenario logs in again to exercise login.) */
  async signup(credentials: Credentials): Promise<void> {
    await this.post('signup', LobbyRoute.SIGNUP, credentials, undefined);
  }

  /** The gateway WebSocket URLs the lobby hands to clients (FELT_GATEWAY_URLS). */
  async gatewayUrls(): Promise<string[]> {
    let res: Response;
    try {
      res = await fetch(new URL(LobbyRoute.CONFIG, this.base), { signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw new LobbyError(LobbyErrorCode.NETWORK, 'config', undefined, `config: ${(err as Error).message}`, {
        cause: err,
      });
    }
    if (!res.ok) throw new LobbyError(LobbyErrorCode.HTTP_STATUS, 'config', res.status, `config: HTTP ${res.status}`);
    const urls = gatewayUrls(await this.json('config', res));
    if (!urls) throw new LobbyError(LobbyErrorCode.BAD_RESPONSE, 'config', res.status, 'config: no gateway_urls');
    return urls;
  }

  /** Logs in and returns the `felt_session=…` cookie pair. */
  async login(credentials: Credentials): Promise<string> {
    const res = await this.post('login', LobbyRoute.LOGIN, credentials, undefined);
    const cookie = sessionCookie(res.headers.getSetCookie());
    if (cookie === undefined) {
      throw new LobbyError(LobbyErrorCode.BAD_RESPONSE, 'login', res.status, 'login set no session cookie');
    }
    return cookie;
  }

  async createRoom(cookie: string, seats: number): Promise<RoomRef> {
    const res = await this.post('create_room', LobbyRoute.ROOMS, createRoomBody(seats), cookie);
    const ref = roomRef(await this.json('create_room', res));
    if (!ref) throw new LobbyError(LobbyErrorCode.BAD_RESPONSE, 'create_room', res.status, 'no session_id and code');
    return ref;
  }

  async joinRoom(cookie: string, code: string): Promise<RoomRef> {
    const res = await this.post('join_room', LobbyRoute.JOIN_BY_CODE, joinByCodeBody(code), cookie);
    const ref = roomRef(await this.json('join_room', res));
    if (!ref) throw new LobbyError(LobbyErrorCode.BAD_RESPONSE, 'join_room', res.status, 'no session_id and code');
    return ref;
  }

  /** Closes a room (host only); the lobby refunds every seat. */
  async closeRoom(cookie: string, sessionId: string): Promise<void> {
    await this.send('close_room', 'DELETE', `${LobbyRoute.ROOMS}/${encodeURIComponent(sessionId)}`, undefined, cookie);
  }

  private post(step: string, path: string, body: unknown, cookie: string | undefined): Promise<Response> {
    return this.send(step, 'POST', path, body, cookie);
  }

  private async send(
    step: string,
    method: 'POST' | 'DELETE',
    path: string,
    body: unknown,
    cookie: string | undefined,
  ): Promise<Response> {
    const headers: Record<string, string> = { origin: this.base.origin };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (cookie !== undefined) headers['cookie'] = cookie;
    let res: Response;
    try {
      res = await fetch(new URL(path, this.base), {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const timedOut = err instanceof DOMException && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new LobbyError(
        timedOut ? LobbyErrorCode.TIMEOUT : LobbyErrorCode.NETWORK,
        step,
        undefined,
        `${step}: ${(err as Error).message}`,
        { cause: err },
      );
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      throw new LobbyError(
        LobbyErrorCode.HTTP_STATUS,
        step,
        res.status,
        `${step}: HTTP ${res.status} ${text.slice(0, 200)}`,
      );
    }
    return res;
  }

  private async json(step: string, res: Response): Promise<unknown> {
    try {
      return await res.json();
    } catch (err) {
      throw new LobbyError(LobbyErrorCode.BAD_RESPONSE, step, res.status, `${step}: body is not JSON`, { cause: err });
    }
  }
}
