// Hand history from the lobby (`GET /api/hands`, `GET /api/hands/{id}`) and its replay: the stored
// operation log stepped through one operation at a time, each step a whole picture of the table. The
// shapes are the lobby's HTTP contract (@felt/protocol): `actions` is the engine's per-viewer view of
// the log, so a card the viewer did not see arrives as null.
import { FORCED_BET_KINDS, HandVoidReason, type HandDetail, type HandSummary } from '@felt/protocol';
import { t } from '../i18n/i18n.js';
import { cardsText, chips, streetName } from './format.js';

function isVoidReason(reason: string): reason is HandVoidReason {
  return (Object.values(HandVoidReason) as string[]).includes(reason);
}

/** Why a hand was voided, in words; an unknown reason (a newer lobby) reads as its code. */
export function voidedReasonText(reason: string): string {
  return isVoidReason(reason) ? t(`history.voidedReason.${reason}`) : reason.replace(/_/g, ' ');
}

/** The sentence for a voided hand (`voided_reason` set): it has no result, only stacks given back. */
export function voidedText(hand: Pick<HandSummary | HandDetail, 'voided_reason'>): string | null {
  return hand.voided_reason === undefined
    ? null
    : t('history.voidedText', { reason: voidedReasonText(hand.voided_reason) });
}

export interface ReplaySeat {
  readonly seat: number;
  readonly name: string;
  readonly stack: number;
  /** Chips in front of the seat in the current betting round. */
  readonly bet: number;
  /** Cards dealt so far: a string where the viewer saw it, null where it went face down. */
  readonly cards: readonly (string | null)[];
  readonly folded: boolean;
  readonly lastAction: string | null;
  readonly won: number;
}

export interface ReplayFrame {
  /** What this step did, in words ("Alice raises to 60"). */
  readonly caption: string;
  readonly street: string;
  readonly board: readonly string[];
  /** Chips gathered from earlier rounds (the current round's bets are on the seats). */
  readonly pot: number;
  readonly seats: readonly ReplaySeat[];
}

interface MutableSeat {
  seat: number;
  name: string;
  stack: number;
  bet: number;
  cards: (string | null)[];
  folded: boolean;
  lastAction: string | null;
  won: number;
}

type ForcedKind = (typeof FORCED_BET_KINDS)[number];

/** The forced bet's kind, or 'other' for one this client does not know (a newer server's). */
function forcedKind(kind: string): ForcedKind | 'other' {
  return (FORCED_BET_KINDS as readonly string[]).includes(kind) ? (kind as ForcedKind) : 'other';
}

/**
 * Builds the replay: frame 0 is the table before anything happened, then one frame per operation.
 * Unknown operation types still get a frame (with their type as the caption), so a newer log never
 * breaks an older client.
 */
export function buildReplay(detail: HandDetail): ReplayFrame[] {
  const seats = new Map<number, MutableSeat>(
    [...detail.players]
      .sort((a, b) => a.seat - b.seat)
      .map((p) => [
        p.seat,
        {
          seat: p.seat,
          name: p.name,
          stack: p.starting_stack,
          bet: 0,
          cards: [],
          folded: false,
          lastAction: null,
          won: 0,
        },
      ]),
  );
  let board: string[] = [];
  let pot = 0;
  let street = '';
  const frames: ReplayFrame[] = [];
  const snap = (caption: string): void => {
    frames.push({
      caption,
      street,
      board: [...board],
      pot,
      seats: [...seats.values()].map((s) => ({ ...s, cards: [...s.cards] })),
    });
  };
  const gather = (): void => {
    for (const s of seats.values()) {
      pot += s.bet;
      s.bet = 0;
      s.lastAction = null;
    }
  };
  const nameOf = (seat: number | undefined): string =>
    seat === undefined ? t('replay.theTable') : (seats.get(seat)?.name ?? t('common.seat', { seat }));

  let streetsOpened = 0;
  snap(t('replay.before'));
  for (const a of detail.actions) {
    const seatNo = 'seat' in a ? a.seat : undefined;
    const s = seatNo !== undefined ? seats.get(seatNo) : undefined;
    const who = nameOf(seatNo);
    let caption: string;
    switch (a.type) {
      case 'post':
        if (s) {
          s.stack -= a.amount;
          // Antes are dead money straight into the pot; blinds play as the first bets of the round.
          if (a.kind === 'ante' || a.kind === 'bb_ante') pot += a.amount;
          else s.bet += a.amount;
          s.lastAction = t('action.post', { amount: chips(a.amount) });
        }
        caption = t(`replay.forced.${forcedKind(a.kind)}`, { name: who, amount: chips(a.amount) });
        break;
      case 'deal_hole': {
        const cards = a.cards;
        // A draw's replacements join what the discard left.
        if (s) s.cards.push(...cards);
        caption = cards.every((c) => c === null)
          ? t('replay.dealtHidden', { name: who, count: cards.length })
          : t('replay.dealt', { name: who, cards: cardsText(cards) });
        break;
      }
      case 'deal_board':
        board = [...board, ...a.cards];
        caption = t('replay.board', { cards: cardsText(board) });
        break;
      case 'street':
      case 'draw_round':
        // The first round opens with the blinds still in front of the seats.
        if (streetsOpened++ > 0) gather();
        street = streetName(a.name);
        caption = street;
        break;
      case 'bring_in':
        if (s) {
          s.stack -= a.amount;
          s.bet += a.amount;
          s.lastAction = t('action.bringIn', { amount: chips(a.amount) });
        }
        caption = t('replay.bringsIn', { name: who, amount: chips(a.amount) });
        break;
      case 'discard': {
        const n = a.cards.length;
        if (s) {
          // The discarded cards leave the hand; their replacements arrive in the next deal_hole.
          const thrown = new Set(a.cards.filter((c): c is string => c !== null));
          let hidden = a.cards.filter((c) => c === null).length;
          s.cards = s.cards.filter((c) => {
            if (c !== null && thrown.has(c)) return false;
            if (c === null && hidden > 0) {
              hidden--;
              return false;
            }
            return true;
          });
          s.lastAction = n === 0 ? t('action.standPat') : t('action.draw', { count: n });
        }
        caption = n === 0 ? t('replay.standsPat', { name: who }) : t('replay.discards', { name: who, count: n });
        break;
      }
      case 'fold':
        if (s) {
          s.folded = true;
          s.lastAction = t('action.fold');
        }
        caption = `${t('replay.folds', { name: who })}${a.timeout === true ? t('replay.timedOut') : ''}`;
        break;
      case 'check':
        if (s) s.lastAction = t('action.check');
        caption = `${t('replay.checks', { name: who })}${a.timeout === true ? t('replay.timedOut') : ''}`;
        break;
      case 'call':
        if (s) {
          s.stack -= a.amount;
          s.bet += a.amount;
          s.lastAction = t('action.call', { amount: chips(a.amount) });
        }
        caption = `${t('replay.calls', { name: who, amount: chips(a.amount) })}${a.all_in ? t('replay.andAllIn') : ''}`;
        break;
      case 'bet':
      case 'raise': {
        const to = a.to;
        if (s) {
          s.stack -= a.amount;
          s.bet = to;
          s.lastAction = t(a.type === 'bet' ? 'action.bet' : 'action.raise', { amount: chips(to) });
        }
        caption = `${t(a.type === 'bet' ? 'replay.bets' : 'replay.raises', { name: who, amount: chips(to) })}${a.all_in ? t('replay.andAllIn') : ''}`;
        break;
      }
      case 'return':
        if (s) {
          s.stack += a.amount;
          s.bet = Math.max(0, s.bet - a.amount);
        }
        caption = t('replay.returned', { amount: chips(a.amount), name: who });
        break;
      case 'show': {
        const cards = a.cards;
        if (s && cards.length > 0) s.cards = [...cards];
        caption = t('replay.shows', { name: who, cards: cardsText(cards) });
        break;
      }
      case 'muck':
        caption = t('replay.mucks', { name: who });
        break;
      case 'award': {
        gather();
        const winners = a.winners;
        pot = Math.max(0, pot - a.amount);
        for (const w of winners) {
          const ws = seats.get(w.seat);
          if (ws) {
            ws.stack += w.amount;
            ws.won += w.amount;
          }
        }
        const label = a.pot === 0 ? t('replay.mainPot') : t('replay.sidePot', { n: a.pot });
        const split = winners.some((x) => x.side === 'low');
        caption =
          winners.length === 0
            ? t('replay.noWinner', { pot: label })
            : t('replay.awards', {
                pot: label,
                winners: winners
                  .map((w) =>
                    t(
                      w.side === 'low'
                        ? 'replay.winnerLow'
                        : w.side === 'high' && split
                          ? 'replay.winnerHigh'
                          : 'replay.winner',
                      { name: nameOf(w.seat), amount: chips(w.amount) },
                    ),
                  )
                  .join(t('common.listSeparator')),
              });
        break;
      }
      case 'hand_end':
        for (const st of a.stacks) {
          const ss = seats.get(st.seat);
          if (ss) ss.stack = st.stack;
        }
        caption = t('replay.handOver');
        break;
      case 'reshuffle':
        caption = t('replay.reshuffle');
        break;
      default:
        // An operation type from a newer lobby: still a step, captioned with its type.
        caption = (a as { readonly type: string }).type.replace(/_/g, ' ');
    }
    snap(caption);
  }
  return frames;
}
