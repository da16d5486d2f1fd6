// Wire messages for unit tests, typed by @felt/protocol so a schema change breaks them loudly.
import {
  parseTournamentConfig,
  type BlindHandView,
  type DealingView,
  type HandSummary,
  type LobbyTournamentDetail,
  type LobbyTournamentSummary,
  type SeatView,
  type TableEvent,
  type TableState,
  type TournamentConfigInput,
  type TournamentView,
  type ValidActionsView,
} from '@felt/protocol';

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

/** A 32-byte value as the blind views carry it (64 hex digits), distinct per `n`. */
export const hex32 = (n: number): string => n.toString(16).padStart(64, '0');

/** An engine-blind hand of seats 1 and 2 (hero 2), as `table_state.dealing.blind`: keys owed by default. */
export function blindHand(over: Partial<BlindHandView> = {}): BlindHandView {
  return {
    hand_id: HAND,
    seats: [1, 2],
    lambda: 40,
    phase: 'keys',
    keys: {},
    joint_key: null,
    encrypted: [],
    shuffled: 0,
    shuffler: null,
    deadline: 1_764_400_002_000,
    positions: [],
    owed: { key: true, shuffle: true, positions: [] },
    failure: null,
    ...over,
  };
}

/** `table_state.dealing` of an engine-blind room. */
export function dealingView(over: Partial<DealingView> = {}): DealingView {
  return { mode: 'engine_blind', downgraded: null, blind: null, ...over };
}

/** Seven-card Stud, fixed limit 2/4 with a 1 ante and a 1 bring-in: a snapshot's `variant`. */
export const STUD_VARIANT: TableState['variant'] = {
  game: 'stud',
  limit: 'fl',
  stakes: {
    small_blind: 0,
    big_blind: 0,
    ante: 1,
    big_blind_ante: 0,
    button_blind: 0,
    bring_in: 1,
    small_bet: 2,
    big_bet: 4,
  },
};

/** A hand the viewer played and won (the hand history's row). */
export const PLAYED_HAND: HandSummary = {
  hand_id: HAND,
  session_id: '6f9619ff-8b86-4011-b42d-00c04fc964ff',
  hand_no: 12,
  game: 'holdem',
  limit: 'nl',
  blinds: { smallBlind: 1, bigBlind: 2 },
  started_at: '2026-01-01T00:00:00.000Z',
  ended_at: '2026-01-01T00:01:00.000Z',
  seat: 2,
  cards: ['As', 'Kd'],
  board: ['2c', '7d', 'Jh'],
  starting_stack: 200,
  final_stack: 240,
  net: 40,
  won: 80,
  folded: false,
  pot_total: 80,
  rake: 0,
};

export const TOURNAMENT = '5a1e0c3b-2f4d-4e6a-8b7c-9d0e1f2a3b4c';
export const ALICE = '00000000-0000-4000-8000-000000000001';

/** A scheduled No-Limit Hold'em tournament taking registrations: 100 + 10, three of 2 to 100 in. */
export function tournamentSummary(over: Partial<LobbyTournamentSummary> = {}): LobbyTournamentSummary {
  return {
    id: TOURNAMENT,
    name: 'Sunday 100',
    format: 'scheduled',
    status: 'registering',
    game: 'holdem',
    limit: 'nl',
    seats: 9,
    buy_in: 100,
    fee: 10,
    starting_stack: 10_000,
    entrants: 3,
    min_entrants: 2,
    max_entrants: 100,
    starts_at: '2026-12-06T18:00:00.000Z',
    prize_pool: 300,
    created_at: '2026-12-01T10:00:00.000Z',
    late_registration_open: false,
    re_entry_open: false,
    ...over,
  };
}

/** Its config: four levels of 10 minutes (an ante from the second, a big-blind ante at the third), a 5-minute break every 2. */
export const TOURNAMENT_CONFIG: TournamentConfigInput = {
  name: 'Sunday 100',
  format: 'scheduled',
  startsAt: '2026-12-06T18:00:00.000Z',
  buyIn: 100,
  fee: 10,
  startingStack: 10_000,
  structure: {
    levels: [{ bigBlind: 50 }, { bigBlind: 100, ante: 10 }, { bigBlind: 200, bigBlindAnte: 200 }, { bigBlind: 400 }],
    levelLength: { unit: 'minutes', value: 10 },
    breaks: { everyLevels: 2, minutes: 5 },
  },
};

/** The same with an add-on: 5,000 chips for 100 at the first break (after level 2). */
export const ADD_ON_CONFIG: TournamentConfigInput = { ...TOURNAMENT_CONFIG, addOn: { chips: 5_000, cost: 100 } };

/** The tournament as GET /api/tournaments/{id} answers it: the resolved config, three players, one paid place. */
export function tournamentDetail(
  over: Partial<LobbyTournamentDetail> = {},
  config: TournamentConfigInput = TOURNAMENT_CONFIG,
): LobbyTournamentDetail {
  return {
    ...tournamentSummary(),
    // The lobby sends the resolved config, which is a valid input too (it parses back to itself).
    config: parseTournamentConfig(config) as LobbyTournamentDetail['config'],
    players: [
      { user_id: ALICE, name: 'alice', entry_no: 1, status: 'registered', place: null, prize: 0, table_id: null },
      {
        user_id: '00000000-0000-4000-8000-000000000002',
        name: 'bob',
        entry_no: 1,
        status: 'registered',
        place: null,
        prize: 0,
        table_id: null,
      },
      {
        user_id: '00000000-0000-4000-8000-000000000003',
        name: 'carol',
        entry_no: 1,
        status: 'registered',
        place: null,
        prize: 0,
        table_id: null,
      },
    ],
    payouts: [{ place: 1, amount: 300 }],
    registered: true,
    can_re_enter: false,
    your_table_id: null,
    add_on_open: false,
    add_on_until: null,
    can_add_on: false,
    ...over,
  };
}

/**
 * A tournament table's view of its tournament (table_state.tournament): level 3 of "Sunday 100" (100/200,
 * ante 25) with 9:30 to play at the fixtures' server time, 5 of 9 left, bob (the latest) and gus out.
 */
export function tournamentView(over: Partial<TournamentView> = {}): TournamentView {
  return {
    tournament_id: TOURNAMENT,
    name: 'Sunday 100',
    level: { number: 3, small_blind: 100, big_blind: 200, ante: 25, big_blind_ante: 0 },
    next_level: { number: 4, small_blind: 200, big_blind: 400, ante: 50, big_blind_ante: 0 },
    level_ends_at: 1_764_400_570_000,
    break_ends_at: null,
    players_left: 5,
    entrants: 9,
    average_stack: 18_000,
    stacks: [40_000, 25_000, 12_000, 8_000, 5_000],
    prizes: [500, 300, 100],
    hand_for_hand: false,
    placed: [
      { user_id: '00000000-0000-4000-8000-000000000002', name: 'bob', place: 6, prize: 0, entry_no: 1 },
      { user_id: '00000000-0000-4000-8000-000000000007', name: 'gus', place: 7, prize: 0, entry_no: 1 },
    ],
    ...over,
  };
}
