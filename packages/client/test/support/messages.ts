// Builders of schema-valid server messages for unit tests. Every builder's output is checked against
// @felt/protocol's schemas in the tests that use it, so the builders cannot drift from the protocol.
import {
  stateHash,
  type PlayerAction,
  type ResyncResponse,
  type SeatView,
  type TableEvent,
  type TableState,
  type ValidActionsView,
  type YourTurn,
} from '@felt/protocol';

export const TABLE = 'table-1';
export const HAND_A = '00000000-0000-4000-8000-00000000000a';
export const HAND_B = '00000000-0000-4000-8000-00000000000b';
export const TOKEN = 'tok_aaaaaaaaaaaaaaaa';

export function seat(n: number, overrides: Partial<SeatView> = {}): SeatView {
  return {
    seat: n,
    user_id: `u${n}`,
    name: `player ${n}`,
    stack: 1_000,
    status: 'active',
    in_hand: true,
    folded: false,
    all_in: false,
    bet: 0,
    cards: [null, null],
    up: [false, false],
    time_bank_ms: 60_000,
    ...overrides,
  };
}

export function emptySeat(n: number): SeatView {
  return { seat: n, user_id: null, name: null, stack: 0, status: 'empty', in_hand: false, bet: 0 };
}

export const VALID: ValidActionsView = {
  fold: true,
  check: false,
  call: 20,
  bet: null,
  raise: { min: 40, max: 1_000 },
  all_in: 1_000,
  bring_in: null,
  complete: null,
  discard: null,
  current_bet: 20,
  player_bet: 0,
  stack: 1_000,
  pot: 30,
};

type Unhashed = Omit<TableState, 'state_hash'>;

/** A table_state with a correct state_hash (recomputed after the overrides). */
export function tableState(tableSeq: number, overrides: Partial<Unhashed> = {}): TableState {
  const base: Unhashed = {
    type: 'table_state',
    table_id: TABLE,
    table_seq: tableSeq,
    hand_id: HAND_A,
    hand_seq: 3,
    ts: 1_764_400_000_000 + tableSeq,
    game: 'holdem',
    variant: {
      game: 'holdem',
      limit: 'nl',
      stakes: {
        small_blind: 10,
        big_blind: 20,
        ante: 0,
        big_blind_ante: 0,
        button_blind: 0,
        bring_in: 0,
        small_bet: 0,
        big_bet: 0,
      },
    },
    phase: 'betting',
    street: 'preflop',
    button: 1,
    small_blind: 2,
    big_blind: 3,
    seats: [seat(1), seat(2), seat(3), emptySeat(4)],
    board: [],
    pots: [],
    pot_total: 30,
    current_bet: 20,
    actor: 1,
    deadline: 1_764_400_030_000,
    time_bank_ms: 60_000,
    seed_commit: `sha256:${'ab'.repeat(32)}`,
    hero: { seat: 2, cards: ['As', 'Kd'] },
    ...overrides,
  };
  // Drop keys explicitly set to undefined, as JSON on the wire would.
  const clean = JSON.parse(JSON.stringify(base)) as Unhashed;
  return { ...clean, state_hash: stateHash(clean) };
}

export function playerAction(
  tableSeq: number,
  seatNo: number,
  action: PlayerAction['action'],
  handId = HAND_A,
): PlayerAction {
  return {
    type: 'player_action',
    table_id: TABLE,
    table_seq: tableSeq,
    hand_id: handId,
    hand_seq: tableSeq,
    seat: seatNo,
    action,
    amount: action === 'call' ? 20 : 0,
    all_in: false,
  };
}

export function yourTurn(tableSeq: number, overrides: Partial<YourTurn> = {}): YourTurn {
  return {
    type: 'your_turn',
    table_id: TABLE,
    table_seq: tableSeq,
    hand_id: HAND_A,
    hand_seq: tableSeq,
    seat: 2,
    turn_token: TOKEN,
    deadline: 1_764_400_030_000,
    time_bank_ms: 60_000,
    valid_actions: VALID,
    ...overrides,
  };
}

export function seedCommit(tableSeq: number, handId = HAND_A): TableEvent {
  return {
    type: 'seed_commit',
    table_id: TABLE,
    table_seq: tableSeq,
    hand_id: handId,
    hand_seq: 0,
    seed_commit: `sha256:${'ab'.repeat(32)}`,
    window_closes_at: 1_764_400_001_500,
    seats: [1, 2, 3],
  };
}

export function streetRevealed(tableSeq: number, board: string[], handId = HAND_A): TableEvent {
  return {
    type: 'street_revealed',
    table_id: TABLE,
    table_seq: tableSeq,
    hand_id: handId,
    hand_seq: tableSeq,
    street: 'flop',
    street_index: 1,
    board,
    up_cards: [],
  };
}

export function holeCards(tableSeq: number, cards: string[], handId = HAND_A): TableEvent {
  return {
    type: 'hole_cards_dealt',
    table_id: TABLE,
    table_seq: tableSeq,
    hand_id: handId,
    hand_seq: tableSeq,
    seat: 2,
    street: 'preflop',
    cards,
    up: cards.map(() => false),
  };
}

export function resync(
  toSeq: number,
  snapshot: TableState,
  replayed: TableEvent[],
  role: ResyncResponse['role'] = 'player',
  fromSeq = 0,
): ResyncResponse {
  return {
    type: 'resync_response',
    table_id: TABLE,
    table_seq: toSeq,
    role,
    from_table_seq: fromSeq,
    to_table_seq: toSeq,
    complete: true,
    replayed_events: replayed,
    snapshot,
  };
}

/** A snapshot as an older V2 server sent it: `folded` omitted for every seat. */
export function legacy(state: TableState): TableState {
  const seats = state.seats.map((s) => {
    const { folded: _folded, ...rest } = s;
    return rest;
  });
  const unhashed: Unhashed = { ...state, seats };
  delete (unhashed as Partial<TableState>).state_hash;
  return { ...unhashed, state_hash: stateHash(unhashed) };
}
