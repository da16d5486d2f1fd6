// The lobby calls of both scenarios, made with the @felt/client SDK's LobbyClient. This module adds
// what a load tool needs on top: a timeout on every request, and failures turned into one error type
// with a short stable kind per scenario step (`login_http_401`, `create_room_timeout`).
import { LobbyApiError, LobbyClient } from '@felt/client';
import {
  LobbyRoute,
  createRoomBody,
  gatewayUrls,
  joinByCodeBody,
  roomRef,
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
    /** Which scenario step failed: signup, login, create_room, join_room, top_up, close_room, config. */
    readonly step: string,
    readonly status: number | undefined,
    message: string,
    options?: ErrorOptions & {
      /** The lobby API's own error code (`busy`, `invalid_credentials`), when it gave one. */
      readonly apiCode?: string;
      /** Seconds the lobby asked us to wait before retrying (503 busy, 429 rate_limited). */
      readonly retryAfterSeconds?: number;
    },
  ) {
    super(message, options);
    this.apiCode = options?.apiCode;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  readonly apiCode: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  /** A short stable label for the error counters, e.g. `login_http_401`. */
  get kind(): string {
    return this.code === LobbyErrorCode.HTTP_STATUS ? `${this.step}_http_${this.status}` : `${this.step}_${this.code}`;
  }

  /** The lobby is shedding password hashes for now (503 busy): the same request later will do. */
  get busy(): boolean {
    return this.status === 503 && this.apiCode === 'busy';
  }
}

/**
 * An SDK lobby client for `base` whose every request gives up after `timeoutMs`. `cookie`
 * (`felt_session=…`) makes it a logged-in client without a login of its own.
 */
export function lobbyClient(base: URL, timeoutMs: number, cookie?: string): LobbyClient {
  const timed: typeof fetch = (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  return new LobbyClient({ baseUrl: base.origin, fetch: timed, ...(cookie !== undefined ? { cookie } : {}) });
}

function retryAfter(details: unknown): number | undefined {
  const s = (details as { retry_after_seconds?: unknown } | null | undefined)?.retry_after_seconds;
  return typeof s === 'number' && Number.isFinite(s) && s >= 0 ? s : undefined;
}

/** Runs one lobby call as scenario step `step`; any failure comes out as a {@link LobbyError}. */
export async function lobbyStep<T>(step: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof LobbyError) throw err;
    if (err instanceof LobbyApiError) {
      if (err.code === 'bad_response') {
        throw new LobbyError(LobbyErrorCode.BAD_RESPONSE, step, err.status, `${step}: ${err.message}`, { cause: err });
      }
      const after = retryAfter(err.details);
      throw new LobbyError(
        LobbyErrorCode.HTTP_STATUS,
        step,
        err.status,
        `${step}: HTTP ${err.status} ${err.code}: ${err.message}`,
        {
          cause: err,
          apiCode: err.code,
          ...(after !== undefined ? { retryAfterSeconds: after } : {}),
        },
      );
    }
    const timedOut = err instanceof DOMException && (err.name === 'TimeoutError' || err.name === 'AbortError');
    throw new LobbyError(
      timedOut ? LobbyErrorCode.TIMEOUT : LobbyErrorCode.NETWORK,
      step,
      undefined,
      `${step}: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
}

/** The gateway WebSocket URLs the lobby hands to clients (FELT_GATEWAY_URLS, `GET /api/config`). */
export async function lobbyGatewayUrls(base: URL, timeoutMs: number): Promise<string[]> {
  const body = await lobbyStep('config', () => lobbyClient(base, timeoutMs).request<unknown>('GET', LobbyRoute.CONFIG));
  const urls = gatewayUrls(body);
  if (!urls) throw new LobbyError(LobbyErrorCode.BAD_RESPONSE, 'config', 200, 'config: no gateway_urls');
  return urls;
}

/** Creates the room of {@link createRoomBody} (the caller takes a seat if `sit`); the caller must be logged in. */
export async function createLoadRoom(lobby: LobbyClient, seats: number, sit = true): Promise<RoomRef> {
  const body = await lobbyStep('create_room', () =>
    lobby.request<unknown>('POST', LobbyRoute.ROOMS, createRoomBody(seats, sit)),
  );
  const ref = roomRef(body);
  if (!ref)
    throw new LobbyError(LobbyErrorCode.BAD_RESPONSE, 'create_room', 201, 'create_room: no session_id and code');
  return ref;
}

/** Takes a seat by room code with the load buy-in. */
export async function joinLoadRoom(lobby: LobbyClient, code: string): Promise<RoomRef> {
  const body = await lobbyStep('join_room', () =>
    lobby.request<unknown>('POST', LobbyRoute.JOIN_BY_CODE, joinByCodeBody(code)),
  );
  const ref = roomRef(body);
  if (!ref) throw new LobbyError(LobbyErrorCode.BAD_RESPONSE, 'join_room', 200, 'join_room: no session_id and code');
  return ref;
}

/** The lobby calls of the ping scenario (runner.ts), one SDK client per call so each carries its own cookie. */
export class SdkLobbyApi {
  constructor(
    private readonly base: URL,
    private readonly timeoutMs: number,
  ) {}

  async signup(credentials: Credentials): Promise<void> {
    await lobbyStep('signup', () => this.client().signup(credentials.name, credentials.password));
  }

  /** Logs in and returns the `felt_session=…` cookie pair. */
  async login(credentials: Credentials): Promise<string> {
    const client = this.client();
    await lobbyStep('login', () => client.login(credentials.name, credentials.password));
    if (client.cookie === undefined) {
      throw new LobbyError(LobbyErrorCode.BAD_RESPONSE, 'login', 200, 'login set no session cookie');
    }
    return client.cookie;
  }

  createRoom(cookie: string, seats: number): Promise<RoomRef> {
    return createLoadRoom(this.client(cookie), seats);
  }

  joinRoom(cookie: string, code: string): Promise<RoomRef> {
    return joinLoadRoom(this.client(cookie), code);
  }

  /** Closes a room (host only); the lobby refunds every seat. */
  async closeRoom(cookie: string, sessionId: string): Promise<void> {
    await lobbyStep('close_room', () => this.client(cookie).closeRoom(sessionId));
  }

  private client(cookie?: string): LobbyClient {
    return lobbyClient(this.base, this.timeoutMs, cookie);
  }
}
