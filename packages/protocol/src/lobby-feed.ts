import { z } from 'zod';
import { roomSummarySchema, waitlistEntrySchema } from './lobby-api.js';
import { chipsSchema } from './wire.js';

// The live lobby over the WebSocket: a socket that sends `lobby_subscribe` gets the open listed
// rooms at once (`lobby_rooms`), then each change of that list (`lobby_delta`), and its own wallet's
// balance whenever it changes (`wallet`), instead of polling GET /api/rooms and GET /api/me. The
// lobby service computes the list once for the whole cluster (one replica at a time) and publishes
// changes on Redis; gateways fan them out (docs/dev/contracts.md, `P lobby-feed`).

/** The `reason` of an error that refused `lobby_subscribe` (`unavailable`, `rate_limited`). */
export const LIVE_LOBBY = 'live_lobby';

/** The most rooms the feed lists (oldest first, as GET /api/rooms). */
export const LOBBY_FEED_MAX_ROOMS = 200;

export const lobbySubscribeSchema = z
  .strictObject({ type: z.literal('lobby_subscribe') })
  .describe(
    'Start (or restart) the live lobby on this socket: answered with lobby_rooms, then lobby_delta and wallet ' +
      'messages as things change. Sending it again gets a fresh lobby_rooms (after a gap in versions).',
  );
export type LobbySubscribeFrame = z.infer<typeof lobbySubscribeSchema>;

export const lobbyUnsubscribeSchema = z
  .strictObject({ type: z.literal('lobby_unsubscribe') })
  .describe('Stop the live lobby on this socket.');
export type LobbyUnsubscribeFrame = z.infer<typeof lobbyUnsubscribeSchema>;

const versionSchema = z.number().int().nonnegative();

export const lobbyRoomsSchema = z
  .strictObject({
    type: z.literal('lobby_rooms'),
    version: versionSchema.describe('The version of this list; each lobby_delta moves it on by one.'),
    rooms: z.array(roomSummarySchema).max(LOBBY_FEED_MAX_ROOMS),
  })
  .describe(
    'The open listed rooms, oldest first (as GET /api/rooms without filters): the answer to lobby_subscribe. ' +
      'Replace your list with it.',
  );
export type LobbyRooms = z.infer<typeof lobbyRoomsSchema>;

export const lobbyDeltaSchema = z
  .strictObject({
    type: z.literal('lobby_delta'),
    version: versionSchema,
    prev_version: versionSchema.describe(
      'Apply only when this is the version you hold; otherwise send lobby_subscribe for a fresh list.',
    ),
    upserts: z.array(roomSummarySchema).describe('Rooms new to the list, or changed (seats taken, status).'),
    removed: z.array(z.uuid()).describe('Session ids of rooms that left the list (closed or no longer listed).'),
  })
  .describe('A change of the lobby list.');
export type LobbyDelta = z.infer<typeof lobbyDeltaSchema>;

export const walletMessageSchema = z
  .strictObject({
    type: z.literal('wallet'),
    balance: chipsSchema.describe('Chips in your wallet now'),
  })
  .describe('Your wallet, sent while the live lobby is on: once at its start, then whenever it changes.');
export type WalletMessage = z.infer<typeof walletMessageSchema>;

/** What became of your place in a room's waitlist. */
export const WaitlistStatus = {
  /** In line (joined, or moved up); `entry` says where. */
  WAITING: 'waiting',
  /** A seat is held for you until `entry.offer_expires_at`. */
  OFFERED: 'offered',
  /** You took a seat at the room: the entry is gone. */
  SEATED: 'seated',
  /** You left the line. */
  LEFT: 'left',
  /** The seat offered to you was not taken in time: you left the line and it went to the next. */
  LAPSED: 'lapsed',
  /** The room closed: every waitlist entry is gone. */
  CLOSED: 'closed',
} as const;
export type WaitlistStatus = (typeof WaitlistStatus)[keyof typeof WaitlistStatus];
export const WAITLIST_STATUSES = Object.values(WaitlistStatus) as [WaitlistStatus, ...WaitlistStatus[]];

export const waitlistMessageSchema = z
  .strictObject({
    type: z.literal('waitlist'),
    session_id: z.uuid(),
    code: z.string(),
    status: z.enum(WAITLIST_STATUSES),
    entry: waitlistEntrySchema
      .nullable()
      .describe('Your place now (as GET /api/waitlists lists it); null once you are out of the line'),
  })
  .describe(
    "A change of your place in a room's waitlist (sent while the live lobby is on): you moved up, were offered " +
      'a seat, took it, left, let the offer lapse, or the room closed. GET /api/waitlists has the whole list.',
  );
export type WaitlistMessage = z.infer<typeof waitlistMessageSchema>;

/** A lobby feed message as the lobby publishes it on `P lobby-feed` (the gateways send it on as is). */
export const lobbyFeedPublicationSchema = z.discriminatedUnion('type', [lobbyRoomsSchema, lobbyDeltaSchema]);
