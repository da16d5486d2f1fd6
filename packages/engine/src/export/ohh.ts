import type { Card } from '../cards.js';
import type { CardVisibility } from '../games/types.js';
import type { Hand } from '../hand/hand.js';
import { viewOperationLog, type OperationView } from '../hand/operations.js';
import type { ForcedBetKind } from '../hand/setup.js';

/**
 * Open Hand History (hh-specs.handhistory.org) 1.4.x from a hand's operation log. Player ids are the
 * seats' positions in seat order (0..n-1). A Raise `amount` is only the chips that action adds, as the
 * spec asks; uncalled returns have no OHH action, so pots hold what was contested.
 *
 * OHH's game types (Holdem, Omaha, OmahaHiLo, Stud, StudHiLo, Draw) do not name every game (Razz, Short
 * Deck, PLO5) nor hold a bring-in, so the object also carries PHH-style user fields (a leading
 * underscore, which readers ignore): `_felt_game`, `_variant` (the PHH code when PHH has one),
 * `_bring_in`, `_small_bet`, `_big_bet`, `_button_blind`; Stud's per-card visibility rides on its
 * "Dealt Cards" actions as `_visibility`. Draws are "Discard" (with the cards) or "Stands Pat". A hand
 * shown after the hand ended is not an action of the hand: it is listed in `_shown_after_hand`.
 */
export const OHH_SPEC_VERSION = '1.4.7';

export interface OhhOptions {
  readonly siteName?: string;
  /** ISO 4217 code; play chips are XPM (OHH 1.4.6). */
  readonly currency?: string;
  /** Seat whose view the history is written for; defaults to the first player. */
  readonly heroSeat?: number;
  /**
   * Writes only what this viewer (a seat, or null for a spectator) saw, as {@link viewOperationLog}
   * says: unseen dealt cards are left out, and so are another seat's discards. Omitted: every card.
   */
  readonly viewer?: number | null;
  readonly internalVersion?: string;
}

export interface OhhAction {
  action_number: number;
  player_id: number;
  action: string;
  amount?: number;
  is_allin?: boolean;
  cards?: Card[];
  /** Stud: per dealt card, `up` or `down`. */
  _visibility?: CardVisibility[];
}

export interface OhhRound {
  id: number;
  street: string;
  cards?: Card[];
  actions: OhhAction[];
}

export interface OhhHandHistory {
  ohh: {
    spec_version: string;
    site_name: string;
    network_name: string;
    internal_version: string;
    tournament: boolean;
    game_number: string;
    start_date_utc: string;
    table_name: string;
    game_type: string;
    bet_limit: { bet_type: 'NL' | 'PL' | 'FL'; bet_cap: number };
    table_size: number;
    currency: string;
    dealer_seat: number;
    small_blind_amount: number;
    big_blind_amount: number;
    ante_amount: number;
    hero_player_id: number;
    flags: string[];
    players: { id: number; seat: number; name: string; display: string; starting_stack: number }[];
    rounds: OhhRound[];
    pots: {
      number: number;
      amount: number;
      rake: number;
      jackpot: number;
      player_wins: { player_id: number; win_amount: number }[];
    }[];
    /** The engine's game id: holdem, omaha, omaha5, omaha8, shortdeck, stud, stud8, razz, 27td. */
    _felt_game: string;
    /** PHH's variant code for the game and limit, when PHH has one. */
    _variant?: string;
    _bring_in?: number;
    _small_bet?: number;
    _big_bet?: number;
    _button_blind?: number;
    /** Hands shown after the hand ended (no action of the hand, so not in `rounds`). */
    _shown_after_hand?: { player_id: number; cards: Card[] }[];
  };
}

const POST_ACTION: Record<ForcedBetKind, string> = {
  ante: 'Post Ante',
  bb_ante: 'Post Ante',
  small_blind: 'Post SB',
  big_blind: 'Post BB',
  button_blind: 'Post Extra Blind',
  live_post: 'Post Extra Blind',
  dead_blind: 'Post Dead',
};

const STREET_NAMES: Readonly<Record<string, string>> = {
  preflop: 'Preflop',
  third: 'Third Street',
  fourth: 'Fourth Street',
  fifth: 'Fifth Street',
  sixth: 'Sixth Street',
  seventh: 'Seventh Street',
  predraw: 'Pre-Draw',
};

function streetName(name: string): string {
  return (
    STREET_NAMES[name] ??
    name
      .split('_')
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(' ')
  );
}

export function toOhh(hand: Hand, options: OhhOptions = {}): OhhHandHistory {
  const { setup, rules } = hand;
  const seats = setup.players.map((p) => p.seat).sort((a, b) => a - b);
  const id = new Map(seats.map((s, i) => [s, i]));
  const pid = (seat: number): number => id.get(seat)!;
  const rounds: OhhRound[] = [];
  let current: OhhRound = { id: 0, street: streetName(rules.streets[0]!.name), cards: [], actions: [] };
  let currentStreet = 0;
  rounds.push(current);
  const showdown: OhhRound = { id: 0, street: 'Showdown', actions: [] };
  const shownAfter: { player_id: number; cards: Card[] }[] = [];
  let n = 0;
  const push = (round: OhhRound, a: Omit<OhhAction, 'action_number'>): void => {
    round.actions.push({ action_number: ++n, ...a });
  };
  /** Every street is a round of its own; its first operation opens it. */
  const streetOf = (street: number): OhhRound => {
    if (street !== currentStreet) {
      currentStreet = street;
      current = { id: rounds.length, street: streetName(rules.streets[street]!.name), cards: [], actions: [] };
      rounds.push(current);
    }
    return current;
  };
  const ops: readonly OperationView[] =
    options.viewer === undefined ? hand.operations : viewOperationLog(hand.operations, options.viewer);
  for (const op of ops) {
    switch (op.type) {
      case 'post':
        push(current, { player_id: pid(op.seat), action: POST_ACTION[op.kind], amount: op.amount, is_allin: op.allIn });
        break;
      case 'deal_hole': {
        const seen = op.cards.flatMap((c, i) => (c === null ? [] : [i]));
        const up = op.visibility.includes('up');
        push(streetOf(op.street), {
          player_id: pid(op.seat),
          action: 'Dealt Cards',
          ...(seen.length > 0
            ? {
                cards: seen.map((i) => op.cards[i]!),
                ...(up ? { _visibility: seen.map((i) => op.visibility[i]!) } : {}),
              }
            : {}),
        });
        break;
      }
      case 'deal_board':
        streetOf(op.street).cards!.push(...op.cards);
        break;
      case 'street':
      case 'draw_round':
        streetOf(op.street);
        break;
      case 'bring_in':
        push(current, { player_id: pid(op.seat), action: 'Post Bring In', amount: op.amount, is_allin: op.allIn });
        break;
      case 'discard': {
        const seen = op.cards.filter((c): c is Card => c !== null);
        push(
          current,
          op.cards.length === 0
            ? { player_id: pid(op.seat), action: 'Stands Pat' }
            : { player_id: pid(op.seat), action: 'Discard', ...(seen.length > 0 ? { cards: seen } : {}) },
        );
        break;
      }
      case 'fold':
        push(current, { player_id: pid(op.seat), action: 'Fold' });
        break;
      case 'check':
        push(current, { player_id: pid(op.seat), action: 'Check' });
        break;
      case 'call':
        push(current, { player_id: pid(op.seat), action: 'Call', amount: op.amount, is_allin: op.allIn });
        break;
      case 'bet':
        push(current, { player_id: pid(op.seat), action: 'Bet', amount: op.amount, is_allin: op.allIn });
        break;
      case 'raise':
        push(current, { player_id: pid(op.seat), action: 'Raise', amount: op.amount, is_allin: op.allIn });
        break;
      case 'show':
        // A show after the hand is no action of the hand: it goes in `_shown_after_hand`.
        if (op.reason === 'voluntary') shownAfter.push({ player_id: pid(op.seat), cards: [...op.cards] });
        else push(showdown, { player_id: pid(op.seat), action: 'Shows Cards', cards: [...op.cards] });
        break;
      case 'muck':
        push(showdown, { player_id: pid(op.seat), action: 'Mucks Cards' });
        break;
      default:
        break;
    }
  }
  if (showdown.actions.length > 0) {
    showdown.id = rounds.length;
    rounds.push(showdown);
  }
  for (const r of rounds) if (r.cards !== undefined && r.cards.length === 0) delete r.cards;
  const settlement = hand.settlement;
  const pots =
    settlement?.pots.map((p) => ({
      number: p.index,
      amount: p.amount,
      rake: p.rake,
      jackpot: 0,
      player_wins: mergeWins(p.winners.map((w) => ({ player_id: pid(w.seat), win_amount: w.net }))),
    })) ?? [];
  const stakes = setup.stakes;
  const ante = (stakes.ante ?? 0) > 0 ? stakes.ante! : (stakes.bigBlindAnte ?? 0);
  const phh = rules.phhVariant[setup.limit];
  return {
    ohh: {
      spec_version: OHH_SPEC_VERSION,
      site_name: options.siteName ?? 'Felt',
      network_name: options.siteName ?? 'Felt',
      internal_version: options.internalVersion ?? '0.1.0',
      tournament: false,
      game_number: setup.handId,
      start_date_utc: setup.startedAt ?? '1970-01-01T00:00:00Z',
      table_name: setup.tableName ?? 'Felt',
      game_type: rules.ohhGameType,
      bet_limit: { bet_type: setup.limit === 'nl' ? 'NL' : setup.limit === 'pl' ? 'PL' : 'FL', bet_cap: 0 },
      table_size: setup.tableSize ?? rules.maxSeats,
      currency: options.currency ?? 'XPM',
      dealer_seat: setup.button,
      small_blind_amount: stakes.smallBlind,
      big_blind_amount: stakes.bigBlind,
      ante_amount: ante,
      hero_player_id: pid(options.heroSeat ?? seats[0]!),
      flags: [],
      players: setup.players
        .slice()
        .sort((a, b) => a.seat - b.seat)
        .map((p) => ({
          id: pid(p.seat),
          seat: p.seat,
          name: p.name ?? p.id,
          display: p.name ?? p.id,
          starting_stack: p.stack,
        })),
      rounds,
      pots,
      _felt_game: rules.id,
      ...(phh !== undefined ? { _variant: phh } : {}),
      ...(rules.forcedBets === 'bring_in' ? { _bring_in: hand.structure.bringIn } : {}),
      ...(setup.limit === 'fl' ? { _small_bet: hand.structure.smallBet, _big_bet: hand.structure.bigBet } : {}),
      ...(rules.forcedBets === 'button_blind' ? { _button_blind: stakes.buttonBlind ?? stakes.bigBlind } : {}),
      ...(shownAfter.length > 0 ? { _shown_after_hand: shownAfter } : {}),
    },
  };
}

function mergeWins(wins: { player_id: number; win_amount: number }[]): { player_id: number; win_amount: number }[] {
  const m = new Map<number, number>();
  for (const w of wins) m.set(w.player_id, (m.get(w.player_id) ?? 0) + w.win_amount);
  return [...m].map(([player_id, win_amount]) => ({ player_id, win_amount }));
}

/** OHH storage format: one `{"ohh": …}` object per hand, separated by a blank line. */
export function ohhFile(hands: readonly OhhHandHistory[]): string {
  return hands.map((h) => JSON.stringify(h, null, 2)).join('\n\n') + '\n';
}
