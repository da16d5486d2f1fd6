// A hand's operation log as the lobby's hand history serves it (`actions` of GET /api/hands/{id}):
// the engine's per-viewer view of each operation (@felt/engine `viewOperationLog`) in snake_case,
// with the deck indices and per-card visibility left out. toHandAction is the only mapping from the
// engine's operations to this shape; the web replay reads it.
import type { OperationView } from '@felt/engine';
import { z } from 'zod';

const seat = z.number().int().min(1);
const street = z.number().int().nonnegative();
const amount = z.number().int().nonnegative();
const card = z.string();
/** A card the viewer saw, or null. */
const seenCard = card.nullable();
const timeout = z.literal(true).optional();
const action = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ seq: z.number().int().nonnegative(), type: z.literal(type), ...shape });

export const FORCED_BET_KINDS = [
  'ante',
  'bb_ante',
  'small_blind',
  'big_blind',
  'button_blind',
  'live_post',
  'dead_blind',
] as const;
export const REVEAL_REASONS = [
  'all_in_runout',
  'last_aggressor',
  'first_to_show',
  'all_in_required',
  'winner_required',
  'show_all',
  'no_auto_muck',
  'voluntary',
  'auto_muck_loser',
  'blind_show',
  'blind_muck',
] as const;
export const AWARD_SIDES = ['high', 'low', 'uncontested'] as const;

export const handActionSchema = z.discriminatedUnion('type', [
  action('post', { seat, kind: z.enum(FORCED_BET_KINDS), amount, all_in: z.boolean() }),
  action('deal_hole', {
    seat,
    street,
    cards: z.array(seenCard),
    draw: z.literal(true).optional().describe('The cards replace a draw’s discards'),
  }),
  action('deal_board', { street, cards: z.array(card) }),
  action('street', { street, name: z.string(), actor: seat.nullable() }),
  action('draw_round', { street, name: z.string(), actor: seat }),
  action('bring_in', { seat, amount, all_in: z.boolean(), timeout }),
  action('discard', { seat, cards: z.array(seenCard), timeout }),
  action('reshuffle', {
    at_index: z.number().int().nonnegative(),
    discards: z.array(seenCard).describe('The dead cards put back in the stub: never shown to anyone'),
  }),
  action('fold', { seat, timeout }),
  action('check', { seat, timeout }),
  action('call', { seat, amount, all_in: z.boolean(), timeout }),
  action('bet', { seat, to: amount, amount, all_in: z.boolean(), timeout }),
  action('raise', { seat, to: amount, amount, all_in: z.boolean(), full: z.boolean(), timeout }),
  action('return', { seat, amount }),
  action('show', { seat, cards: z.array(card), reason: z.enum(REVEAL_REASONS) }),
  action('muck', { seat, reason: z.enum(REVEAL_REASONS), timeout }),
  action('award', {
    pot: z.number().int().nonnegative(),
    amount,
    rake: amount,
    winners: z.array(z.object({ seat, side: z.enum(AWARD_SIDES), amount })),
  }),
  action('hand_end', { rake: amount, stacks: z.array(z.object({ seat, stack: amount })) }),
]);
export type HandAction = z.infer<typeof handActionSchema>;
export type HandActionType = HandAction['type'];

const timedOut = (op: { readonly timeout?: true }): { timeout?: true } => (op.timeout ? { timeout: true } : {});

/**
 * One operation, already viewed for its viewer (@felt/engine `viewOperation`/`viewOperationLog`),
 * as the hand history's wire shape. `seq` is the operation's place in the log.
 */
export function toHandAction(seq: number, op: OperationView): HandAction {
  switch (op.type) {
    case 'post':
      return { seq, type: op.type, seat: op.seat, kind: op.kind, amount: op.amount, all_in: op.allIn };
    case 'deal_hole':
      return {
        seq,
        type: op.type,
        seat: op.seat,
        street: op.street,
        cards: [...op.cards],
        ...(op.draw ? { draw: true as const } : {}),
      };
    case 'deal_board':
      return { seq, type: op.type, street: op.street, cards: [...op.cards] };
    case 'street':
      return { seq, type: op.type, street: op.street, name: op.name, actor: op.actor };
    case 'draw_round':
      return { seq, type: op.type, street: op.street, name: op.name, actor: op.actor };
    case 'bring_in':
      return { seq, type: op.type, seat: op.seat, amount: op.amount, all_in: op.allIn, ...timedOut(op) };
    case 'discard':
      return { seq, type: op.type, seat: op.seat, cards: [...op.cards], ...timedOut(op) };
    case 'reshuffle':
      return { seq, type: op.type, at_index: op.atIndex, discards: [...op.discards] };
    case 'fold':
    case 'check':
      return { seq, type: op.type, seat: op.seat, ...timedOut(op) };
    case 'call':
      return { seq, type: op.type, seat: op.seat, amount: op.amount, all_in: op.allIn, ...timedOut(op) };
    case 'bet':
      return { seq, type: op.type, seat: op.seat, to: op.to, amount: op.amount, all_in: op.allIn, ...timedOut(op) };
    case 'raise':
      return {
        seq,
        type: op.type,
        seat: op.seat,
        to: op.to,
        amount: op.amount,
        all_in: op.allIn,
        full: op.full,
        ...timedOut(op),
      };
    case 'return':
      return { seq, type: op.type, seat: op.seat, amount: op.amount };
    case 'show':
      return { seq, type: op.type, seat: op.seat, cards: [...op.cards], reason: op.reason };
    case 'muck':
      return { seq, type: op.type, seat: op.seat, reason: op.reason, ...timedOut(op) };
    case 'award':
      return {
        seq,
        type: op.type,
        pot: op.pot,
        amount: op.amount,
        rake: op.rake,
        winners: op.winners.map((w) => ({ seat: w.seat, side: w.side, amount: w.amount })),
      };
    case 'hand_end':
      return { seq, type: op.type, rake: op.rake, stacks: op.stacks.map((s) => ({ seat: s.seat, stack: s.stack })) };
  }
}
