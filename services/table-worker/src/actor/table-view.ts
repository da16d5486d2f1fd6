import { SeatStatus, stateHash, type SeatView, type TableState } from '@felt/protocol';

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
          }
        : { seat, user_id: null, name: null, stack: 0, status: SeatStatus.EMPTY },
    );
  }
  return seats;
}

/**
 * The snapshot for one recipient: `viewer` is a member's user id, or null for the spectator view.
 * The skeleton's views carry no private fields yet, but every caller already asks per viewer, so
 * hole cards slot in here without touching the fan-out.
 */
export function tableStateFor(state: TableStateData, _viewer: string | null, ts: number): TableState {
  const body = {
    type: 'table_state' as const,
    table_id: state.tableId,
    table_seq: state.tableSeq,
    ts,
    seats: seatViews(state),
  };
  return { ...body, state_hash: stateHash(body) };
}
