import {
  parseRoomConfig,
  SeatStatus,
  stateHash,
  type RoomConfig,
  type SeatView,
  type TableState,
} from '@felt/protocol';

export interface MemberState {
  readonly userId: string;
  readonly name: string;
  readonly seat: number;
  readonly stack: number;
}

export interface ConnectionState {
  readonly connectionId: string;
  readonly userId: string;
  /** The gateway stream it arrived on; when that stream ends, the connection is gone. */
  readonly streamId: string;
}

/** Everything a table actor knows, as plain data: it must survive JSON and a move to another worker. */
export interface TableStateData {
  readonly tableId: string;
  readonly tableSeq: number;
  readonly closed: boolean;
  readonly seatCount: number;
  /** The room's configuration (defaults when the room row carries none that parses). */
  readonly config?: RoomConfig;
  readonly members: readonly MemberState[];
  readonly connections: readonly ConnectionState[];
}

export function seatViews(state: TableStateData): SeatView[] {
  const connected = new Set(state.connections.map((c) => c.userId));
  const bySeat = new Map(state.members.map((m) => [m.seat, m]));
  const maxSeat = Math.max(state.seatCount, ...state.members.map((m) => m.seat));
  const seats: SeatView[] = [];
  for (let seat = 1; seat <= maxSeat; seat++) {
    const m = bySeat.get(seat);
    seats.push(
      m
        ? {
            seat,
            user_id: m.userId,
            name: m.name,
            stack: m.stack,
            status: connected.has(m.userId) ? SeatStatus.ACTIVE : SeatStatus.DISCONNECTED,
            in_hand: false,
            bet: 0,
          }
        : { seat, user_id: null, name: null, stack: 0, status: SeatStatus.EMPTY, in_hand: false, bet: 0 },
    );
  }
  return seats;
}

/**
 * The snapshot for one recipient: `viewer` is a member's user id, or null for the spectator view.
 * The skeleton's views carry no private fields yet, but every caller already asks per viewer, so
 * hole cards slot in here without touching the fan-out.
 */
export function tableStateFor(state: TableStateData, viewer: string | null, ts: number): TableState {
  const config: RoomConfig = state.config ?? parseRoomConfig({});
  const first = config.rotation?.order[0];
  const s = first?.stakes ?? config.stakes;
  const hero = viewer === null ? undefined : state.members.find((m) => m.userId === viewer);
  const body = {
    type: 'table_state' as const,
    table_id: state.tableId,
    table_seq: state.tableSeq,
    ts,
    game: config.game,
    variant: {
      game: first?.game ?? config.game,
      limit: first?.limit ?? config.limit,
      stakes: {
        small_blind: s.smallBlind,
        big_blind: s.bigBlind,
        ante: s.ante,
        big_blind_ante: s.bigBlindAnte,
        button_blind: s.buttonBlind,
        bring_in: s.bringIn,
        small_bet: s.smallBet,
        big_bet: s.bigBet,
      },
    },
    phase: 'waiting' as const,
    street: null,
    button: null,
    small_blind: null,
    big_blind: null,
    seats: seatViews(state),
    board: [],
    pots: [],
    pot_total: 0,
    current_bet: 0,
    actor: null,
    deadline: null,
    time_bank_ms: null,
    ...(hero ? { hero: { seat: hero.seat, cards: [] } } : {}),
  };
  return { ...body, state_hash: stateHash(body) };
}
