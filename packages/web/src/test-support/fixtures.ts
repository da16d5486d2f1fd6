// Wire messages for unit tests, typed by @felt/protocol so a schema change breaks them loudly.
import type { SeatView, TableEvent, TableState, ValidActionsView } from '@felt/protocol';

export const TABLE = 'tbl-1';
export const HAND = '0b7f1c1e-2a8e-4d55-9b9a-1c2d3e4f5a6b';

export function seat(n: number, over: Partial<SeatView> = {}): SeatView {
  return {
    seat: n,
    user_id: `u${n}`,
    name: `Player${n}`,
    stack: 1000,
    status: 'active',
    in_hand: false,
    bet: 0,
    ...over,
  };
}

export function emptySeat(n: number): SeatView {
  return { seat: n, user_id: null, name: null, stack: 0, status: 'empty', in_hand: false, bet: 0 };
}

export function validActions(over: Partial<ValidActionsView> = {}): ValidActionsView {
  return {
    fold: true,
    check: false,
    call: 20,
    bet: null,
    raise: { min: 40, max: 1000 },
    all_in: 1000,
    bring_in: null,
    complete: null,
    discard: null,
    current_bet: 20,
    player_bet: 0,
    stack: 1000,
    pot: 30,
    ...over,
  };
}

export function tableState(over: Partial<TableState> = {}): TableState {
  return {
    type: 'table_state',
    table_id: TABLE,
    table_seq: 10,
    ts: 1_764_400_000_000,
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
        small_bet: 20,
        big_bet: 40,
      },
    },
    phase: 'waiting',
    street: null,
    button: null,
    small_blind: null,
    big_blind: null,
    seats: [seat(1), seat(2), emptySeat(3)],
    board: [],
    pots: [],
    pot_total: 0,
    current_bet: 0,
    actor: null,
    deadline: null,
    time_bank_ms: null,
    state_hash: `sha256:${'0'.repeat(64)}`,
    ...over,
  };
}

export function playerAction(
  seatNo: number,
  action: Extract<TableEvent, { type: 'player_action' }>['action'],
  tableSeq: number,
  over: Partial<Extract<TableEvent, { type: 'player_action' }>> = {},
): Extract<TableEvent, { type: 'player_action' }> {
  return {
    type: 'player_action',
    table_id: TABLE,
    table_seq: tableSeq,
    hand_id: HAND,
    hand_seq: tableSeq,
    seat: seatNo,
    action,
    amount: 0,
    all_in: false,
    ...over,
  };
}
