import type { Hand, Operation } from '@felt/engine';
import { RevealTiming, type TableEvent } from '@felt/protocol';
import type { BufferAudience } from './event-buffer.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event before the actor gives it its table_seq (and each recipient stream its prev_table_seq). */
export type EventBody = DistributiveOmit<TableEvent, 'table_seq' | 'prev_table_seq'>;

/** One event and who may see it. */
export interface Emission {
  readonly audience: BufferAudience;
  readonly body: EventBody;
}

export const ALL: BufferAudience = { kind: 'all' };

/** The events a table produced since the actor last took them, in the order they happened. */
export class EmissionQueue {
  private queued: Emission[] = [];

  emit(audience: Emission['audience'], body: Emission['body']): void {
    this.queued.push({ audience, body });
  }

  push(emissions: readonly Emission[]): void {
    for (const e of emissions) this.queued.push(e);
  }

  /** How many are queued. */
  get size(): number {
    return this.queued.length;
  }

  /** Everything queued, in order; the queue is then empty. */
  drain(): Emission[] {
    const out = this.queued;
    this.queued = [];
    return out;
  }
}

/**
 * Turns a slice of a hand's operation log into wire events: hole cards only to their owner, the
 * public rest to everyone. The caller emits hand_started, your_turn, hand_result and seed_reveal,
 * which need table state the log does not hold.
 *
 * @param ownerOf user id of a seat's human player (undefined for bots: nobody to send cards to)
 */
export function operationEmissions(
  hand: Hand,
  from: number,
  tableId: string,
  ownerOf: (seat: number) => string | undefined,
): Emission[] {
  const ops = hand.operations;
  const out: Emission[] = [];
  const handId = hand.handId;
  const streets = hand.rules.streets;
  const base = (seq: number) => ({ table_id: tableId, hand_id: handId, hand_seq: seq });

  // Cards dealt at a street are announced with that street's opening (its `street`/`draw_round`).
  let board: string[] = [];
  const up = new Map<number, string[]>();
  let shown: { seat: number; cards: string[]; reason: string }[] = [];
  let mucked: number[] = [];
  let timing: RevealTiming = RevealTiming.SHOWDOWN;

  const flushShowdown = (seq: number): void => {
    if (shown.length === 0 && mucked.length === 0) return;
    out.push({
      audience: ALL,
      body: { type: 'showdown', ...base(seq), reveal_timing: timing, shown, mucked },
    });
    shown = [];
    mucked = [];
  };

  for (let i = from; i < ops.length; i++) {
    const op: Operation = ops[i]!;
    const seq = i + 1;
    if (op.type !== 'show' && op.type !== 'muck') flushShowdown(seq - 1);
    switch (op.type) {
      case 'deal_hole': {
        // Engine-blind: nobody here knows the cards; their owner reads them from the players' shares.
        if (op.unknown === true) break;
        const owner = ownerOf(op.seat);
        const streetName = streets[op.street]?.name ?? String(op.street);
        if (owner !== undefined) {
          out.push({
            audience: { kind: 'user', userId: owner },
            body: {
              type: 'hole_cards_dealt',
              ...base(seq),
              seat: op.seat,
              street: streetName,
              cards: [...op.cards],
              up: op.visibility.map((v) => v === 'up'),
              ...(op.draw ? { draw: true } : {}),
            },
          });
        }
        const ups = op.cards.filter((_, k) => op.visibility[k] === 'up');
        if (ups.length > 0) up.set(op.seat, [...(up.get(op.seat) ?? []), ...ups]);
        break;
      }
      case 'deal_board':
        board.push(...op.cards);
        break;
      case 'street':
      case 'draw_round':
        out.push({
          audience: ALL,
          body: {
            type: 'street_revealed',
            ...base(seq),
            street: op.name,
            street_index: op.street,
            board,
            up_cards: [...up].sort(([a], [b]) => a - b).map(([seat, cards]) => ({ seat, cards })),
          },
        });
        board = [];
        up.clear();
        break;
      case 'fold':
      case 'check':
        out.push({
          audience: ALL,
          body: {
            type: 'player_action',
            ...base(seq),
            seat: op.seat,
            action: op.type,
            amount: 0,
            all_in: false,
            ...(op.timeout ? { timeout: true } : {}),
          },
        });
        break;
      case 'call':
        out.push({
          audience: ALL,
          body: {
            type: 'player_action',
            ...base(seq),
            seat: op.seat,
            action: 'call',
            amount: op.amount,
            all_in: op.allIn,
          },
        });
        break;
      case 'bet':
      case 'raise':
        out.push({
          audience: ALL,
          body: {
            type: 'player_action',
            ...base(seq),
            seat: op.seat,
            action: op.type,
            amount: op.amount,
            to: op.to,
            all_in: op.allIn,
          },
        });
        break;
      case 'bring_in':
        out.push({
          audience: ALL,
          body: {
            type: 'player_action',
            ...base(seq),
            seat: op.seat,
            action: 'bring_in',
            amount: op.amount,
            all_in: op.allIn,
            ...(op.timeout ? { timeout: true } : {}),
          },
        });
        break;
      case 'discard':
        // How many, never which: the discards stay hidden until the seed is revealed.
        out.push({
          audience: ALL,
          body: {
            type: 'player_action',
            ...base(seq),
            seat: op.seat,
            action: 'discard',
            amount: 0,
            all_in: false,
            discarded: op.cards.length,
            ...(op.timeout ? { timeout: true } : {}),
          },
        });
        break;
      case 'show':
        if (op.reason === 'voluntary') {
          out.push({
            audience: ALL,
            body: { type: 'cards_shown', ...base(seq), seat: op.seat, cards: [...op.cards] },
          });
        } else {
          timing = op.reason === 'all_in_runout' ? RevealTiming.ALL_IN_RUNOUT : RevealTiming.SHOWDOWN;
          shown.push({ seat: op.seat, cards: [...op.cards], reason: op.reason });
        }
        break;
      case 'muck':
        mucked.push(op.seat);
        break;
      // Posts are announced in hand_started; returns, awards and the end in hand_result; a
      // reshuffle of the discards changes nothing anyone can see.
      case 'post':
      case 'return':
      case 'award':
      case 'hand_end':
      case 'reshuffle':
        break;
    }
  }
  flushShowdown(ops.length);
  return out;
}

/** Seats whose cards were turned up in the hand so far (for judging only what everyone has seen). */
export function shownSeats(hand: Hand): Set<number> {
  const seats = new Set<number>();
  for (const op of hand.operations) if (op.type === 'show') seats.add(op.seat);
  return seats;
}
