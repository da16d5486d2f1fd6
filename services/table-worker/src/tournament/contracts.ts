import { tournamentViewSchema, type TournamentView } from '@felt/protocol';
import { z } from 'zod';

// The contracts between a tournament's director and its tables (docs/dev/contracts.md, "Tournament
// orders"). Both live in table workers (this package is their only producer and consumer), often in
// different ones: the director's worker sends an order to
// the worker that owns the table by the ring, and a table's worker sends its hand report to the worker
// that owns the tournament, each over the worker link's `Tournament` RPC as one of these JSON payloads.
// The receiver parses it with these schemas; a payload that does not parse is refused as invalid.

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, {
  message: 'a lowercase uuid',
});
const chips = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/** Names one order for good: the table answers a repeat with its first answer and changes nothing. */
const orderId = z
  .string()
  .min(1)
  .max(160)
  .regex(/^[A-Za-z0-9_.:-]+$/, { message: 'letters, digits, _ . : or -' });

/** What players see of the tournament (`table_state.tournament`), as the director tells the table. */
export const tournamentInfoSchema = tournamentViewSchema;
export type TournamentInfo = TournamentView;

const orderBase = { order_id: orderId, tournament_id: uuid, table_id: uuid };

/**
 * The director's orders to one of its tables, each idempotent by `order_id`:
 * - `seat`: the player sits at `seat` with `stack` chips, dealt in from the table's next hand (the draw,
 *   or the second half of a move). Fine during a hand.
 * - `remove`: the player leaves the table, which answers with their stack (the first half of a move).
 *   Only between hands: the director removes players only from a table waiting for `deal`.
 * - `told_moved`: once the player is seated at `to_table_id`, the table they left tells them so
 *   (`table_moved`), so that they join a table that has them.
 * - `deal`: the table deals its next hand at `level` (it never deals without this order) and shows
 *   `info` to its players.
 * - `info`: the players' view of the tournament changed (a level, a bust elsewhere): shown at once.
 * - `add_chips`: the player's add-on: `chips` more on their stack, at `seat`. Only between hands (the
 *   director adds chips only at a table waiting for `deal`). A player the hand just ended left without
 *   chips (and so out of their seat) had bought the add-on before it: they sit at `seat` again with it.
 * - `close`: the table is broken or the tournament is over; it deals no more.
 */
export const tournamentOrderSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('seat'),
    ...orderBase,
    user_id: uuid,
    name: z.string().min(1).max(64),
    seat: z.number().int().min(1).max(10),
    stack: chips.min(1),
  }),
  z.strictObject({
    kind: z.literal('remove'),
    ...orderBase,
    user_id: uuid,
    to_table_id: uuid.nullable(),
  }),
  z.strictObject({
    kind: z.literal('told_moved'),
    ...orderBase,
    user_id: uuid,
    to_table_id: uuid,
  }),
  z.strictObject({
    kind: z.literal('add_chips'),
    ...orderBase,
    user_id: uuid,
    name: z.string().min(1).max(64),
    seat: z.number().int().min(1).max(10),
    chips: chips.min(1),
  }),
  z.strictObject({ kind: z.literal('deal'), ...orderBase, info: tournamentInfoSchema }),
  z.strictObject({ kind: z.literal('info'), ...orderBase, info: tournamentInfoSchema }),
  z.strictObject({
    kind: z.literal('close'),
    ...orderBase,
    reason: z.enum(['broken', 'finished']),
    info: tournamentInfoSchema.nullable(),
  }),
]);
export type TournamentOrder = z.infer<typeof tournamentOrderSchema>;

/** A table's answer to an order: `stack` for a `remove` (0 when the player was not at the table). */
export const tournamentOrderResultSchema = z.strictObject({ stack: chips.optional() });
export type TournamentOrderResult = z.infer<typeof tournamentOrderResultSchema>;

/**
 * A tournament table's report to its director: one hand ended. The table keeps it in its checkpoint
 * (its outbox) until the director has it, and the director ignores a `hand_no` it already heard.
 */
export const tournamentReportSchema = z.strictObject({
  kind: z.literal('hand_ended'),
  tournament_id: uuid,
  table_id: uuid,
  hand_no: z.number().int().min(1),
  /** The hand's button seat (null for a game without one). */
  button: z.number().int().min(1).max(10).nullable(),
  /** Every player dealt into the hand, with their chips at its start and at its end. */
  results: z
    .array(z.strictObject({ user_id: uuid, starting_stack: chips, final_stack: chips }))
    .min(1)
    .max(10),
});
export type TournamentReport = z.infer<typeof tournamentReportSchema>;

/** The `Tournament` RPC's payload: an order for a table, or a report for a director. */
export const tournamentMessageSchema = z.union([tournamentOrderSchema, tournamentReportSchema]);
export type TournamentMessage = z.infer<typeof tournamentMessageSchema>;

/** The ring key a message is routed by: the table an order is for, the tournament a report is for. */
export function tournamentMessageTarget(message: TournamentMessage): string {
  return message.kind === 'hand_ended' ? directorKey(message.tournament_id) : message.table_id;
}

/**
 * The director's name on the ring, in the lease and checkpoint keys (`lease:tournament:<id>`,
 * `{table:tournament:<id>}:checkpoint`), so that it never shares a key with a table.
 */
export function directorKey(tournamentId: string): string {
  return `tournament:${tournamentId}`;
}
