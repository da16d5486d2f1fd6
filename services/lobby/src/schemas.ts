// The lobby's request and response schemas are @felt/protocol's HTTP contract (lobby-api.ts). This
// module adds what only the OpenAPI document needs: component names, which component extends which,
// and examples.
//
// The metadata goes on the protocol's schema objects themselves, in @asteasolutions/zod-to-openapi's
// registry (what `.openapi()` writes to). `protocolSchema.openapi('Name')` would not do: zod 4
// copies methods onto each schema when it is built, so a schema built before @hono/zod-openapi
// loaded has no `.openapi()`; and it returns a named copy, while the protocol's composite schemas
// hold the originals, so every nested use (User in Session and Me, HandSummary in HistoryPage, …)
// would be written out inline instead of as a reference to its component.
import { zodToOpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import {
  clientConfigSchema,
  closedSchema,
  createdRoomSchema,
  createRoomSchema,
  credentialsSchema,
  handDetailSchema,
  handSummarySchema,
  historyPageSchema,
  joinByCodeSchema,
  joinedSchema,
  leftSchema,
  lobbyErrorSchema,
  lobbySeatSchema,
  lobbyUserSchema,
  loggedOutEverywhereSchema,
  meSchema,
  quickJoinSchema,
  revealResponseSchema,
  roomChatRequestSchema,
  roomConfigBodySchema,
  roomDetailSchema,
  roomListSchema,
  roomSummarySchema,
  sessionSchema,
  signedUpSchema,
  topUpRequestSchema,
  topUpSchema,
  tournamentAddOnSchema,
  tournamentDetailSchema,
  tournamentEntrySchema,
  tournamentListSchema,
  tournamentSummarySchema,
  tournamentUnregisteredSchema,
  updateMeSchema,
} from '@felt/protocol';
import type { z } from 'zod';
import { waitlistEntrySchema, waitlistsSchema, walletEntrySchema, walletHistoryPageSchema } from '@felt/protocol';

export {
  clientConfigSchema,
  closedSchema,
  createdRoomSchema,
  createRoomSchema,
  credentialsSchema,
  handDetailSchema,
  handIdParamSchema,
  historyPageSchema,
  historyQuerySchema,
  idempotencyHeaderSchema,
  joinByCodeSchema,
  joinedSchema,
  leftSchema,
  listQuerySchema,
  lobbyErrorSchema,
  loggedOutEverywhereSchema,
  meSchema,
  ohhResponseSchema,
  phhResponseSchema,
  quickJoinSchema,
  revealResponseSchema,
  roomChatRequestSchema,
  roomDetailSchema,
  roomIdParamSchema,
  roomListSchema,
  sessionSchema,
  signedUpSchema,
  topUpRequestSchema,
  topUpSchema,
  tournamentAddOnSchema,
  tournamentDetailSchema,
  tournamentEntrySchema,
  tournamentIdParamSchema,
  tournamentListQuerySchema,
  tournamentListSchema,
  tournamentUnregisteredSchema,
  updateMeSchema,
  waitlistEntrySchema,
  waitlistsSchema,
} from '@felt/protocol';

type Metadata = NonNullable<ReturnType<typeof zodToOpenAPIRegistry.get>>;

function annotate(schema: z.ZodType, metadata: Metadata): void {
  const current = zodToOpenAPIRegistry.get(schema);
  zodToOpenAPIRegistry.add(schema, {
    ...current,
    ...metadata,
    _internal: { ...current?._internal, ...metadata._internal },
  });
}

/**
 * The OpenAPI component name of each protocol schema, in the order the document lists them; a
 * schema that extends another is written as that component plus its own fields.
 */
const COMPONENTS: readonly (readonly [z.ZodType, string, extendsFrom?: z.ZodObject])[] = [
  [lobbyErrorSchema, 'Error'],
  [credentialsSchema, 'Credentials'],
  [lobbyUserSchema, 'User'],
  [sessionSchema, 'Session'],
  [signedUpSchema, 'SignedUp', sessionSchema],
  [loggedOutEverywhereSchema, 'LoggedOutEverywhere'],
  [lobbySeatSchema, 'Seat'],
  [meSchema, 'Me'],
  [updateMeSchema, 'UpdateMe'],
  [clientConfigSchema, 'ClientConfig'],
  [roomConfigBodySchema, 'RoomConfig'],
  // The creator's seat: SeatRequest with what it is for.
  [createRoomSchema.shape.sit.unwrap(), 'SeatRequest'],
  [createRoomSchema, 'CreateRoom'],
  [joinByCodeSchema, 'JoinByCode'],
  [quickJoinSchema, 'QuickJoin'],
  [joinedSchema, 'Joined', lobbySeatSchema],
  [roomSummarySchema, 'RoomSummary'],
  [roomListSchema, 'RoomList'],
  [roomDetailSchema, 'RoomDetail', roomSummarySchema],
  [createdRoomSchema, 'CreatedRoom'],
  [leftSchema, 'Left'],
  [closedSchema, 'Closed'],
  [topUpRequestSchema, 'TopUpRequest'],
  [roomChatRequestSchema, 'RoomChatRequest'],
  [topUpSchema, 'TopUp'],
  [handSummarySchema, 'HandSummary'],
  [historyPageSchema, 'HistoryPage'],
  [handDetailSchema, 'HandDetail'],
  [revealResponseSchema, 'Reveal'],
  [waitlistEntrySchema, 'WaitlistEntry'],
  [waitlistsSchema, 'Waitlists'],
  [walletEntrySchema, 'WalletEntry'],
  [walletHistoryPageSchema, 'WalletHistoryPage'],
  [tournamentSummarySchema, 'TournamentSummary'],
  [tournamentListSchema, 'TournamentList'],
  [tournamentDetailSchema, 'TournamentDetail', tournamentSummarySchema],
  [tournamentEntrySchema, 'TournamentEntry'],
  [tournamentUnregisteredSchema, 'TournamentUnregistered'],
  [tournamentAddOnSchema, 'TournamentAddOn'],
];

const names = new Map(COMPONENTS.map(([schema, name]) => [schema, name]));
for (const [schema, refId, parent] of COMPONENTS) {
  const parentRef = parent && names.get(parent);
  annotate(schema, {
    _internal: { refId, ...(parent && parentRef ? { extendedFrom: { refId: parentRef, schema: parent } } : {}) },
  });
}

/** The OpenAPI component name the document gives `schema`; undefined for one written inline. */
export function componentName(schema: z.ZodType): string | undefined {
  return names.get(schema);
}

const EXAMPLES: readonly (readonly [z.ZodType, unknown])[] = [
  [lobbyErrorSchema.shape.error.shape.code, 'seat_taken'],
  [lobbyErrorSchema.shape.error.shape.message, 'seat 3 is taken'],
  [credentialsSchema.shape.name, 'alice'],
  [credentialsSchema.shape.password, 'correct horse battery'],
  [lobbySeatSchema.shape.code, '042817'],
  [clientConfigSchema.shape.gateway_urls, ['ws://127.0.0.1:8081/ws']],
  [joinByCodeSchema.shape.code, '042817'],
  [roomSummarySchema.shape.stakes, '1/2'],
];
for (const [schema, example] of EXAMPLES) annotate(schema, { example });
