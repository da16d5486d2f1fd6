import type { Card } from '../cards.js';
import type { Hand } from '../hand/hand.js';
import type { ForcedBetKind } from '../hand/setup.js';

/**
 * Open Hand History (hh-specs.handhistory.org) 1.4.x from a hand's operation log. Player ids are the
 * seats' positions in seat order (0..n-1). A Raise `amount` is only the chips that action adds, as the
 * spec asks; uncalled returns have no OHH action, so pots hold what was contested.
 */
export const OHH_SPEC_VERSION = '1.4.7';

export interface OhhOptions {
  readonly siteName?: string;
  /** ISO 4217 code; play chips are XPM (OHH 1.4.6). */
  readonly currency?: string;
  /** Seat whose view the history is written for; defaults to the first player. */
  readonly heroSeat?: number;
  readonly internalVersion?: string;
}

export interface OhhAction {
  action_number: number;
  player_id: number;
  action: string;
  amount?: number;
  is_allin?: boolean;
  cards?: Card[];
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

function streetName(name: string): string {
  return name === 'preflop' ? 'Preflop' : name.charAt(0).toUpperCase() + name.slice(1);
}

export function toOhh(hand: Hand, options: OhhOptions = {}): OhhHandHistory {
  const { setup, rules } = hand;
  const seats = setup.players.map((p) => p.seat).sort((a, b) => a - b);
  const id = new Map(seats.map((s, i) => [s, i]));
  const pid = (seat: number): number => id.get(seat)!;
  const rounds: OhhRound[] = [];
  let current: OhhRound = { id: 0, street: 'Preflop', cards: [], actions: [] };
  rounds.push(current);
  const showdown: OhhRound = { id: 0, street: 'Showdown', actions: [] };
  let n = 0;
  const push = (round: OhhRound, a: Omit<OhhAction, 'action_number'>): void => {
    round.actions.push({ action_number: ++n, ...a });
  };
  for (const op of hand.operations) {
    switch (op.type) {
      case 'post':
        push(current, { player_id: pid(op.seat), action: POST_ACTION[op.kind], amount: op.amount, is_allin: op.allIn });
        break;
      case 'deal_hole':
        push(current, { player_id: pid(op.seat), action: 'Dealt Cards', cards: [...op.cards] });
        break;
      case 'deal_board':
        if (op.street === 0) current.cards!.push(...op.cards);
        else {
          current = {
            id: rounds.length,
            street: streetName(rules.streets[op.street]!.name),
            cards: [...op.cards],
            actions: [],
          };
          rounds.push(current);
        }
        break;
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
        push(showdown, { player_id: pid(op.seat), action: 'Shows Cards', cards: [...op.cards] });
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
