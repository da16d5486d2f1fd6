import type { Hand } from '@felt/engine';
import { ErrorCode, tournamentLevelStakes } from '@felt/protocol';
import { TableError } from '../actor/table-error.js';
import type { TournamentInfo, TournamentOrder, TournamentOrderResult } from '../tournament/contracts.js';
import { ALL } from './emissions.js';
import type { Seating } from './seating.js';
import type { TableContext } from './table-context.js';
import type { TimeBanks } from './time-banks.js';

/** The answers to the director's orders a table keeps (the director sends at most a few at a time). */
const ORDERS_KEPT = 64;

/** The tournament part of a live table's checkpoint (LiveTableJSON.tournament). */
export interface TournamentTableJSON {
  readonly tournamentId: string;
  /** The director said `deal`, and the table has not dealt that hand yet. */
  readonly dealAllowed: boolean;
  /** What the director last told the table about the tournament. */
  readonly info: TournamentInfo | null;
  /** The answers to the director's latest orders, oldest first: a repeat gets its first answer. */
  readonly orders: readonly (readonly [string, TournamentOrderResult])[];
}

export function newTournamentTableJSON(tournamentId: string): TournamentTableJSON {
  return { tournamentId, dealAllowed: false, info: null, orders: [] };
}

/**
 * A tournament table's side of the director's protocol (docs/architecture.md, "Tournaments"): it
 * seats and removes players only when told, deals only when told and at the level it is told, and
 * reports every hand's end through its outbox. Its chips are tournament chips: nobody tops up, cashes
 * out or leaves (a player who goes away is folded by the clock until they are out).
 */
export class TournamentTable {
  readonly tournamentId: string;
  private allowed: boolean;
  private current: TournamentInfo | null;
  private readonly orders: Map<string, TournamentOrderResult>;

  constructor(
    private readonly ctx: TableContext,
    private readonly seating: Seating,
    private readonly banks: TimeBanks,
    json: TournamentTableJSON,
  ) {
    this.tournamentId = json.tournamentId;
    this.allowed = json.dealAllowed;
    this.current = json.info;
    this.orders = new Map(json.orders.map(([id, result]) => [id, result]));
  }

  toJSON(): TournamentTableJSON {
    return {
      tournamentId: this.tournamentId,
      dealAllowed: this.allowed,
      info: this.current,
      orders: [...this.orders],
    };
  }

  get info(): TournamentInfo | null {
    return this.current;
  }

  /** Whether the director allowed the next hand. */
  get dealAllowed(): boolean {
    return this.allowed;
  }

  /** The next hand is being dealt: the director's permission is used up. */
  dealing(): void {
    this.allowed = false;
  }

  /** The hand dealt on the director's word was voided: the word stands for the next one. */
  handVoided(): void {
    this.allowed = true;
  }

  /** The answer this order already got, if it was applied before. */
  answered(orderId: string): TournamentOrderResult | undefined {
    return this.orders.get(orderId);
  }

  /**
   * Applies one of the director's orders and returns its answer. Throws TableError, changing nothing,
   * for an order this table cannot carry out (it names another tournament, a seat is taken, a player
   * is to leave in the middle of a hand).
   */
  apply(order: TournamentOrder, handInProgress: boolean): TournamentOrderResult {
    const { engine, tableId } = this.ctx;
    if (order.tournament_id !== this.tournamentId || order.table_id !== tableId) {
      throw refused(tableId, 'the order is for another tournament or table');
    }
    if (this.ctx.lifecycle.closed) throw new TableError(ErrorCode.TABLE_CLOSED, 'this table is closed', tableId);
    let result: TournamentOrderResult = {};
    switch (order.kind) {
      case 'seat': {
        const seated = this.seating.seatOf(order.user_id);
        if (seated !== undefined) throw refused(tableId, `the player already sits here, in seat ${seated}`);
        if (order.seat > engine.config.maxSeats) throw refused(tableId, `seat ${order.seat} is not at this table`);
        if (engine.seat(order.seat) !== undefined) throw refused(tableId, `seat ${order.seat} is taken`);
        this.sitDown(order.user_id, order.name, order.seat, order.stack);
        break;
      }
      case 'remove': {
        const seat = this.seating.seatOf(order.user_id);
        if (seat === undefined) {
          // Not here: nothing to carry. The director only removes players it seated here, so this is
          // a repeat whose answer was forgotten (past ORDERS_KEPT) or a bug; it says which.
          result = { stack: 0 };
          break;
        }
        if (handInProgress) throw refused(tableId, 'a player leaves only between hands');
        const chips = engine.leave(seat);
        if (chips === null) throw refused(tableId, 'a player leaves only between hands');
        this.seating.dropMember(order.user_id);
        this.banks.forget(order.user_id);
        result = { stack: chips };
        break;
      }
      case 'add_chips': {
        if (handInProgress) throw refused(tableId, 'chips are added only between hands');
        const seat = this.seating.seatOf(order.user_id);
        if (seat !== undefined) {
          if (seat !== order.seat) throw refused(tableId, `the player sits in seat ${seat}, not ${order.seat}`);
          engine.addChips(seat, order.chips);
          break;
        }
        // Out of chips in the hand that just ended, after buying the add-on: back in their seat with it.
        if (order.seat > engine.config.maxSeats) throw refused(tableId, `seat ${order.seat} is not at this table`);
        if (engine.seat(order.seat) !== undefined) throw refused(tableId, `seat ${order.seat} is taken`);
        this.sitDown(order.user_id, order.name, order.seat, order.chips);
        break;
      }
      case 'told_moved':
        // Only a player who left this table (and is still here to hear it) is told.
        if (this.seating.seatOf(order.user_id) === undefined && this.seating.member(order.user_id) !== undefined) {
          this.ctx.events.emit(
            { kind: 'user', userId: order.user_id },
            {
              type: 'table_moved',
              table_id: tableId,
              tournament_id: this.tournamentId,
              to_table_id: order.to_table_id,
            },
          );
        }
        break;
      case 'deal':
        if (handInProgress) throw refused(tableId, 'a hand is in progress');
        engine.setStakes(
          tournamentLevelStakes(this.ctx.config.game, this.ctx.config.limit, {
            smallBlind: order.info.level.small_blind,
            bigBlind: order.info.level.big_blind,
            ante: order.info.level.ante,
            bigBlindAnte: order.info.level.big_blind_ante,
          }),
        );
        this.allowed = true;
        this.show(order.info);
        break;
      case 'info':
        this.show(order.info);
        break;
      case 'close':
        if (handInProgress) throw refused(tableId, 'a hand is in progress');
        this.allowed = false;
        if (order.info !== null) this.show(order.info);
        break;
    }
    this.remember(order.order_id, result);
    return result;
  }

  /**
   * The hand is over: its report goes into the outbox (the director gets it once the checkpoint holds
   * it), and the players it left without chips leave their seats; they may watch on as spectators.
   */
  handEnded(hand: Hand, handNo: number): void {
    const settlement = hand.settlement!;
    const finals = new Map(settlement.players.map((p) => [p.seat, p.finalStack]));
    const results = hand.setup.players.map((p) => ({
      user_id: p.id,
      starting_stack: p.stack,
      final_stack: finals.get(p.seat) ?? p.stack,
    }));
    this.ctx.outbox.push({
      kind: 'tournament_report',
      job: {
        kind: 'hand_ended',
        tournament_id: this.tournamentId,
        table_id: this.ctx.tableId,
        hand_no: handNo,
        button: this.ctx.engine.buttonSeat,
        results,
      },
    });
    for (const r of results) {
      if (r.final_stack > 0) continue;
      const seat = this.seating.seatOf(r.user_id);
      if (seat !== undefined) this.ctx.engine.leave(seat);
      this.seating.dropMember(r.user_id);
      this.banks.forget(r.user_id);
    }
    this.seating.pruneDeparted();
  }

  /** Seats a player the director placed here, dealt in from the next hand. */
  private sitDown(userId: string, name: string, seat: number, stack: number): void {
    this.ctx.engine.sit(seat, userId, stack, { name, dealIn: true });
    this.seating.addMember({ userId, name, seat, stack, bot: false });
    this.banks.fillIfNew(userId);
  }

  private show(info: TournamentInfo): void {
    if (this.current !== null && JSON.stringify(this.current) === JSON.stringify(info)) return;
    this.current = info;
    this.ctx.events.emit(ALL, { type: 'tournament_state', table_id: this.ctx.tableId, tournament: info });
  }

  private remember(orderId: string, result: TournamentOrderResult): void {
    this.orders.set(orderId, result);
    while (this.orders.size > ORDERS_KEPT) this.orders.delete(this.orders.keys().next().value!);
  }
}

function refused(tableId: string, message: string): TableError {
  return new TableError(ErrorCode.NOT_ALLOWED, message, tableId);
}
