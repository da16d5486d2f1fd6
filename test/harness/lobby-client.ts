import { randomBytes } from 'node:crypto';
import { SESSION_COOKIE } from '@felt/platform';

export interface SignedUpUser {
  readonly userId: string;
  readonly name: string;
  /** `felt_session=<token>`, ready for a Cookie header. */
  readonly cookie: string;
}

export interface CreatedRoom {
  /** The room id: the table id clients join. */
  readonly sessionId: string;
  readonly code: string;
  readonly buyIn: { readonly min: number; readonly max: number };
}

export class LobbyError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} failed with HTTP ${status}: ${JSON.stringify(body)}`);
    this.name = 'LobbyError';
  }
}

/** The lobby's HTTP API as a player uses it (services/lobby, /openapi.json). */
export class LobbyClient {
  private readonly rooms = new Map<string, CreatedRoom>();

  constructor(readonly url: string) {}

  private async call(what: string, path: string, init: { method: string; cookie?: string; body?: unknown }) {
    const res = await fetch(`${this.url}${path}`, {
      method: init.method,
      headers: {
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(init.cookie ? { cookie: init.cookie } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const text = await res.text();
    const body: unknown = text ? JSON.parse(text) : null;
    if (!res.ok) throw new LobbyError(res.status, body, what);
    return { res, body: body as Record<string, unknown> };
  }

  /** Signs up a guest account and keeps its session cookie. */
  async signUp(name: string, password = `pw-${randomBytes(8).toString('hex')}`): Promise<SignedUpUser> {
    const { res, body } = await this.call('sign-up', '/api/auth/signup', { method: 'POST', body: { name, password } });
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    if (!cookie) throw new Error('sign-up set no session cookie');
    const user = body.user as { id: string; name: string };
    return { userId: user.id, name: user.name, cookie };
  }

  /**
   * Creates a room and seats its host at the minimum buy-in. `config` is a RoomConfig input
   * (@felt/protocol); `seatHost: false` leaves the host out of the seats.
   */
  async createRoom(
    host: SignedUpUser,
    config?: Record<string, unknown>,
    options: { seatHost?: boolean } = {},
  ): Promise<CreatedRoom> {
    const { body } = await this.call('create room', '/api/rooms', {
      method: 'POST',
      cookie: host.cookie,
      body: config ? { config } : {},
    });
    const room = body.room as { buy_in: { min: number; max: number } };
    const created: CreatedRoom = {
      sessionId: body.session_id as string,
      code: body.code as string,
      buyIn: room.buy_in,
    };
    this.rooms.set(created.code, created);
    if (options.seatHost ?? true) await this.joinByCode(host, created.code);
    return created;
  }

  /** Gives up the seat (the lobby's room leave). */
  async leaveRoom(user: SignedUpUser, roomId: string): Promise<void> {
    await this.call('leave room', `/api/rooms/${roomId}/leave`, { method: 'POST', cookie: user.cookie });
  }

  /** A rebuy or top-up: wallet → escrow now, added by the table at its next hand boundary. */
  async topUp(user: SignedUpUser, roomId: string, amount: number): Promise<{ topUpId: string; status: string }> {
    const { body } = await this.call('top up', `/api/rooms/${roomId}/top-up`, {
      method: 'POST',
      cookie: user.cookie,
      body: { amount },
    });
    return { topUpId: body.top_up_id as string, status: body.status as string };
  }

  /** Deletes the room (host only); answers the room's status (`closing` where workers refund it). */
  async closeRoom(host: SignedUpUser, roomId: string): Promise<string> {
    const { body } = await this.call('close room', `/api/rooms/${roomId}`, { method: 'DELETE', cookie: host.cookie });
    return body.status as string;
  }

  async joinByCode(user: SignedUpUser, code: string, buyIn?: number): Promise<void> {
    buyIn ??= this.rooms.get(code)?.buyIn.min;
    if (buyIn === undefined) throw new Error(`unknown room code ${code}`);
    await this.call('join by code', '/api/rooms/join', {
      method: 'POST',
      cookie: user.cookie,
      body: { code, buy_in: buyIn },
    });
  }

  async logout(user: SignedUpUser): Promise<void> {
    await this.call('logout', '/api/auth/logout', { method: 'POST', cookie: user.cookie });
  }
}
