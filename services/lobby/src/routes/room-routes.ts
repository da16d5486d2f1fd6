import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { stakesLabel, type RoomConfigInput } from '@felt/protocol';
import type { Context } from 'hono';
import { ApiErrorCode, LobbyError } from '../errors.js';
import type { RoomMember, RoomSummary, Rooms, SeatResult } from '../rooms.js';
import {
  closedSchema,
  createdRoomSchema,
  createRoomSchema,
  idempotencyHeaderSchema,
  joinByCodeSchema,
  joinedSchema,
  leftSchema,
  listQuerySchema,
  quickJoinSchema,
  roomChatRequestSchema,
  roomDetailSchema,
  roomIdParamSchema,
  roomListSchema,
  topUpRequestSchema,
  topUpSchema,
  waitlistEntrySchema,
  waitlistsSchema,
} from '../schemas.js';
import { chips, cookieAuth, errors, json, type Env } from './http.js';

export interface RoomRoutesDeps {
  readonly rooms: Rooms;
  /** The client address a join by code counts against. */
  readonly addressOf: (c: Context<Env>) => string;
}

export function summaryJson(r: RoomSummary) {
  return {
    session_id: r.id,
    code: r.code,
    status: r.status,
    game: r.config.game,
    limit: r.config.limit,
    stakes: stakesLabel(r.config),
    seats: r.config.seats,
    players: r.players,
    buy_in: { min: r.config.buyIn.min, max: r.config.buyIn.max },
    listed: r.config.listed,
    practice: r.config.practiceChips,
    host_id: r.hostId,
    created_at: r.createdAt.toISOString(),
    waitlist: r.waitlist,
  };
}

function detailJson(r: RoomSummary, members: readonly RoomMember[]) {
  return {
    ...summaryJson(r),
    // The resolved config is a valid input too (it parses back to itself); the API documents it so.
    config: r.config as RoomConfigInput,
    members: members.map((m) => ({ user_id: m.userId, name: m.name, seat: m.seat, stack: chips(m.stack) })),
  };
}

function joinedJson(s: SeatResult) {
  return {
    session_id: s.roomId,
    code: s.code,
    seat: s.seat,
    stack: chips(s.stack),
    wallet: chips(s.wallet),
    replayed: s.replayed,
  };
}

/** Rooms: create, list, join (by code, quick), one room, leave, top up, chat setting, close. */
export function registerRoomRoutes(app: OpenAPIHono<Env>, deps: RoomRoutesDeps): void {
  const { rooms, addressOf } = deps;
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/rooms',
      summary: 'Create a room; the creator is its host and may take a seat at once',
      security: cookieAuth,
      request: {
        headers: idempotencyHeaderSchema,
        body: { content: { 'application/json': { schema: createRoomSchema } }, required: true },
      },
      responses: { 201: json(createdRoomSchema, 'Created'), ...errors(400, 401, 403, 409) },
    }),
    async (c) => {
      const auth = c.get('auth');
      const body = c.req.valid('json');
      const key = c.req.valid('header')['idempotency-key'];
      const { room, seat } = await rooms.create(
        auth.userId,
        body.config ?? {},
        body.sit ? { seat: body.sit.seat, buyIn: body.sit.buy_in, idempotencyKey: key } : undefined,
      );
      const members = seat ? [{ userId: auth.userId, name: auth.name, seat: seat.seat, stack: seat.stack }] : [];
      return c.json(
        {
          session_id: room.id,
          code: room.code,
          room: detailJson(room, members),
          seat: seat ? joinedJson(seat) : null,
        },
        201,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/rooms',
      summary: 'Open listed rooms, oldest first',
      security: cookieAuth,
      request: { query: listQuerySchema },
      responses: { 200: json(roomListSchema, 'Rooms'), ...errors(400, 401) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const list = await rooms.list({ game: q.game, limit: q.limit, stakes: q.stakes }, q.page_size);
      return c.json({ rooms: list.map(summaryJson) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/rooms/join',
      summary: 'Take a seat in the room with this code, buying in from the wallet',
      description:
        'A code that no open room has, and a room that cannot seat you (full, closing, no such seat, another ' +
        'buy-in range), get the same 404 room_not_found, so codes cannot be probed without buying in. Such ' +
        'misses are limited per user and per client address (429 with Retry-After).',
      security: cookieAuth,
      request: {
        headers: idempotencyHeaderSchema,
        body: { content: { 'application/json': { schema: joinByCodeSchema } }, required: true },
      },
      responses: { 200: json(joinedSchema, 'Seated'), ...errors(400, 401, 403, 404, 409, 429) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const result = await rooms.joinByCode(
        c.get('auth').userId,
        body.code,
        { seat: body.seat, buyIn: body.buy_in, idempotencyKey: c.req.valid('header')['idempotency-key'] },
        addressOf(c),
      );
      return c.json(joinedJson(result), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/rooms/quick-join',
      summary: 'Take a seat in the first open listed room that matches',
      security: cookieAuth,
      request: { body: { content: { 'application/json': { schema: quickJoinSchema } }, required: true } },
      responses: { 200: json(joinedSchema, 'Seated'), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const result = await rooms.quickJoin(
        c.get('auth').userId,
        { game: body.game, limit: body.limit, stakes: body.stakes, practice: body.practice },
        body.buy_in,
      );
      return c.json(joinedJson(result), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/rooms/{id}',
      summary: 'One room with its members and their stacks',
      security: cookieAuth,
      request: { params: roomIdParamSchema },
      responses: { 200: json(roomDetailSchema, 'The room'), ...errors(400, 401, 404) },
    }),
    async (c) => {
      const found = await rooms.get(c.req.valid('param').id);
      if (!found) throw new LobbyError(ApiErrorCode.ROOM_NOT_FOUND, 'no such room');
      return c.json(detailJson(found.room, found.members), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/rooms/{id}/leave',
      summary: 'Give up your seat; your stack goes back to the wallet',
      description:
        'In a hand, you are folded when your turn comes and leave when it ends; the stack the table ' +
        'reports is paid once every earlier hand at the table is persisted (status leaving, 202). ' +
        'Where no table worker moves chips, the escrow is paid at once (status left, 200).',
      security: cookieAuth,
      request: { params: roomIdParamSchema },
      responses: {
        200: json(leftSchema, 'Left'),
        202: json(leftSchema, 'Leaving at the next hand boundary'),
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      const { status, refunded, wallet } = await rooms.leave(c.get('auth').userId, id);
      const body = { session_id: id, status, refunded: chips(refunded), wallet: chips(wallet) };
      return status === 'left' ? c.json(body, 200) : c.json(body, 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/rooms/{id}/waitlist',
      summary: "Join the room's waitlist: the next free seat is offered to the first in line for 30 s",
      description:
        'For a room with no seat free for you. When a seat comes free it is held for the first player in line ' +
        'for 30 s (offer_expires_at; a `waitlist` message on the live lobby says so): take it with POST ' +
        '/api/rooms/join and the code before then, or it goes to the next and you leave the line. At a room ' +
        'filled by bots, a bot gives up its seat at the next hand boundary. Asking again answers with your ' +
        'place. Refused: seat_available (a seat is free for you now: join), already_seated, waitlist_full, ' +
        'waitlist_limit (you wait at too many rooms).',
      security: cookieAuth,
      request: { params: roomIdParamSchema },
      responses: { 200: json(waitlistEntrySchema, 'In line'), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const entry = await rooms.joinWaitlist(c.get('auth').userId, c.req.valid('param').id);
      return c.json(entry, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/rooms/{id}/waitlist',
      summary: "Leave the room's waitlist (nothing happens when you are not in it)",
      description: 'A seat held for you goes to the next in line.',
      security: cookieAuth,
      request: { params: roomIdParamSchema },
      responses: { 204: { description: 'Not in the line (any more)' }, ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      await rooms.leaveWaitlist(c.get('auth').userId, c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/waitlists',
      summary: 'The rooms you wait for a seat at, with your place and any seat held for you',
      security: cookieAuth,
      responses: { 200: json(waitlistsSchema, 'Your waitlists'), ...errors(401) },
    }),
    async (c) => c.json({ waitlists: await rooms.waitlistsOf(c.get('auth').userId) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/rooms/{id}/top-up',
      summary: 'Rebuy or top up between hands, from the wallet',
      description:
        "The stack after it (counting chips already waiting) must lie in the room's buy-in range. The table adds " +
        'the chips at its next hand boundary and never above the maximum; any excess goes back to the wallet.',
      security: cookieAuth,
      request: {
        params: roomIdParamSchema,
        headers: idempotencyHeaderSchema,
        body: { content: { 'application/json': { schema: topUpRequestSchema } }, required: true },
      },
      responses: { 200: json(topUpSchema, 'Paid in'), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      const r = await rooms.topUp(
        c.get('auth').userId,
        id,
        c.req.valid('json').amount,
        c.req.valid('header')['idempotency-key'],
      );
      return c.json(
        {
          session_id: id,
          top_up_id: r.topUpId,
          amount: chips(r.amount),
          status: r.status,
          escrow: chips(r.escrow),
          wallet: chips(r.wallet),
          replayed: r.replayed,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/api/rooms/{id}/chat',
      summary: "Turn the room's chat on or off, and spectators' chat (host only)",
      description:
        "Changes rooms.config's `chat` (a field left out keeps its value) and tells the room's table, which " +
        'applies it at once, mid-hand too: a chat it refuses after that gets chat_disabled. Answers with the room.',
      security: cookieAuth,
      request: {
        params: roomIdParamSchema,
        body: { content: { 'application/json': { schema: roomChatRequestSchema } }, required: true },
      },
      responses: { 200: json(roomDetailSchema, 'The room with its new setting'), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const found = await rooms.setChat(c.get('auth').userId, c.req.valid('param').id, {
        enabled: body.enabled,
        spectators: body.spectators,
      });
      return c.json(detailJson(found.room, found.members), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/rooms/{id}',
      summary: 'Close the room (host only): refund every seat, then close it',
      description:
        'A hand in progress is cancelled and every seat gets back its stack and the chips it had committed. ' +
        'Where table workers run, they report the stacks and the room closes after the last refund (202).',
      security: cookieAuth,
      request: { params: roomIdParamSchema },
      responses: {
        200: json(closedSchema, 'Closed'),
        202: json(closedSchema, 'Closing'),
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      const { status, refunds } = await rooms.close(c.get('auth').userId, id);
      const body = {
        session_id: id,
        status,
        refunds: refunds.map((r) => ({ user_id: r.userId, amount: chips(r.amount) })),
      };
      return status === 'closed' ? c.json(body, 200) : c.json(body, 202);
    },
  );
}
