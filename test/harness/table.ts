import type { TestSocket } from './ws-client.js';

export interface SeatView {
  seat: number;
  user_id: string | null;
  name: string | null;
  stack: number;
  status: string;
}

export interface TableStateMsg {
  type: 'table_state';
  table_id: string;
  table_seq: number;
  seats: SeatView[];
  state_hash: string;
}

export function isTableState(
  m: Record<string, unknown>,
  tableId?: string,
): m is Record<string, unknown> & TableStateMsg {
  return m.type === 'table_state' && (tableId === undefined || m.table_id === tableId);
}

export function seatOf(state: TableStateMsg, userId: string): SeatView | undefined {
  return state.seats.find((s) => s.user_id === userId);
}

/** Waits for a table_state in which `userId`'s seat has `status`. */
export async function waitForSeat(
  socket: TestSocket,
  tableId: string,
  userId: string,
  status: string,
  timeoutMs = 10_000,
  from = 0,
): Promise<TableStateMsg> {
  const m = await socket.next((x) => isTableState(x, tableId) && seatOf(x, userId)?.status === status, timeoutMs, from);
  return m as unknown as TableStateMsg;
}
