import { randomBytes } from 'node:crypto';
import {
  SESSION_COOKIE,
  closedSchema,
  createdRoomSchema,
  joinedSchema,
  leftSchema,
  signedUpSchema,
  topUpSchema,
  waitlistEntrySchema,
  waitlistsSchema,
  type LobbyClosed,
  type LobbyTopUp,
  type LobbyWaitlistEntry,
  type RoomConfigInput,
} from '@felt/protocol';
import { z } from 'zod';

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

/** A success answer that is not what the lobby's contract (@felt/protocol lobby-api.ts) says. */
export class LobbyContractError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
    options: { cause: z.ZodError },
  ) {
    super(`${what} answered HTTP ${status} off the contract: ${options.cause.message}`, options);
    this.name = 'LobbyContractError';
  }
}

/**
 * The lobby's HTTP API as a player uses it (services/lobby, /openapi.json). Every answer is checked
 * against the contract's schema, so an end-to-end test also tests the lobby's side of it.
 */
export class LobbyClient {
  private readonly rooms = new Map<string, CreatedRoom>();

  constructor(readonly url: string) {}

  private async call<S extends z.ZodType>(
    what: string,
    path: string,
    schema: S,
    init: { method: string; cookie?: string; body?: unknown },
  ): Promise<{ res: Response; body: z.output<S> }> {
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
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new LobbyContractError(res.status, body, what, { cause: parsed.error });
    return { res, body: parsed.data };
  }

  /** Signs up a guest account and keeps its session cookie. */
  async signUp(name: string, password = `pw-${randomBytes(8).toString('hex')}`): Promise<SignedUpUser> {
    const { res, body } = await this.call('sign-up', '/api/auth/signup', signedUpSchema, {
      method: 'POST',
      body: { name, password },
    });
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    if (!cookie) throw new Error('sign-up set no session cookie');
    return { userId: body.user.id, name: body.user.name, cookie };
  }

  /**
   * Creates a room and seats its host at the minimum buy-in. `config` is a RoomConfig input
   * (@felt/protocol), loosely typed so that a test may build one from parts (the lobby validates it);
   * `seatHost: false` leaves the host out of the seats.
   */
  async createRoom(
    host: SignedUpUser,
    config?: RoomConfigInput | Readonly<Record<string, unknown>>,
    options: { seatHost?: boolean } = {},
  ): Promise<CreatedRoom> {
    const { body } = await this.call('create room', '/api/rooms', createdRoomSchema, {
      method: 'POST',
      cookie: host.cookie,
      body: config ? { config } : {},
    });
    const created: CreatedRoom = { sessionId: body.session_id, code: body.code, buyIn: body.room.buy_in };
    this.rooms.set(created.code, created);
    if (options.seatHost ?? true) await this.joinByCode(host, created.code);
    return created;
  }

  /** Gives up the seat (the lobby's room leave). */
  async leaveRoom(user: SignedUpUser, roomId: string): Promise<void> {
    await this.call('leave room', `/api/rooms/${roomId}/leave`, leftSchema, { method: 'POST', cookie: user.cookie });
  }

  /** A rebuy or top-up: wallet → escrow now, added by the table at its next hand boundary. */
  async topUp(
    user: SignedUpUser,
    roomId: string,
    amount: number,
  ): Promise<{ topUpId: string; status: LobbyTopUp['status'] }> {
    const { body } = await this.call('top up', `/api/rooms/${roomId}/top-up`, topUpSchema, {
      method: 'POST',
      cookie: user.cookie,
      body: { amount },
    });
    return { topUpId: body.top_up_id, status: body.status };
  }

  /** Deletes the room (host only); answers the room's status (`closing` where workers refund it). */
  async closeRoom(host: SignedUpUser, roomId: string): Promise<LobbyClosed['status']> {
    const { body } = await this.call('close room', `/api/rooms/${roomId}`, closedSchema, {
      method: 'DELETE',
      cookie: host.cookie,
    });
    return body.status;
  }

  async joinByCode(user: SignedUpUser, code: string, buyIn?: number): Promise<void> {
    buyIn ??= this.rooms.get(code)?.buyIn.min;
    if (buyIn === undefined) throw new Error(`unknown room code ${code}`);
    await this.call('join by code', '/api/rooms/join', joinedSchema, {
      method: 'POST',
      cookie: user.cookie,
      body: { code, buy_in: buyIn },
    });
  }

  /** Joins the room's waitlist; answers with the place in line. */
  async joinWaitlist(user: SignedUpUser, roomId: string): Promise<LobbyWaitlistEntry> {
    const { body } = await this.call('join waitlist', `/api/rooms/${roomId}/waitlist`, waitlistEntrySchema, {
      method: 'POST',
      cookie: user.cookie,
    });
    return body;
  }

  /** The rooms the user waits at. */
  async waitlists(user: SignedUpUser): Promise<LobbyWaitlistEntry[]> {
    const { body } = await this.call('waitlists', '/api/waitlists', waitlistsSchema, {
      method: 'GET',
      cookie: user.cookie,
    });
    return body.waitlists;
  }

  async logout(user: SignedUpUser): Promise<void> {
    // 204: no body.
    await this.call('logout', '/api/auth/logout', z.null(), { method: 'POST', cookie: user.cookie });
  }
}
