import type { Table } from '@felt/engine';
import type { RoomConfig } from '@felt/protocol';
import type { BotOptions } from '../bots/bot-brain.js';
import type { MoneySeed } from '../money/ports.js';
import type { TableMoney } from '../money/table-money.js';
import type { RandomSource } from '../ports.js';
import type { EmissionQueue } from './emissions.js';
import type { Outbox } from './outbox.js';
import type { TableTiming, TimingOverrides } from './timing.js';

export interface LiveTableDeps {
  readonly random: RandomSource;
  readonly timing: TimingOverrides;
  readonly bot: BotOptions;
  /** Seeds the bots' decisions (tests fix it); production draws one per table. */
  readonly botSeed?: string | undefined;
  /** Hand-level observations for logs and metrics (never cards, seeds or tokens). */
  readonly onHandEvent?: (event: HandLifecycleEvent) => void;
  /**
   * Bots are funded users (@felt/db `seatBot`): the table asks for each bot (`nextBotRequest`) and
   * seats it once the actor has funded it. Off: bots sit at once with chips no ledger knows.
   */
  readonly fundedBots?: boolean;
  /** Engine-blind shuffle proofs' lambda (tests lower it to run fast; production keeps 40). */
  readonly blindLambda?: number | undefined;
}

export type HandLifecycleEvent =
  | { readonly kind: 'started'; readonly handId: string; readonly handNo: number; readonly players: number }
  | { readonly kind: 'completed'; readonly handId: string; readonly handNo: number; readonly durationMs: number }
  | { readonly kind: 'aborted'; readonly handId: string; readonly reason: string }
  | { readonly kind: 'voided'; readonly handId: string; readonly reason: string }
  | { readonly kind: 'timeout'; readonly handId: string; readonly seat: number };

/**
 * Open, closing or closed (docs/dev/money-flows.md §4). Closing: the room was closed while a hand
 * was played; that hand finishes and counts, no other is dealt, then the table closes.
 */
export class TableLifecycle {
  private isClosed: boolean;
  private isClosing: boolean;
  /** The room rows as the close was asked, for the refunds once the hand is over (not checkpointed). */
  private seed: MoneySeed | null | undefined = undefined;

  constructor(closed: boolean, closing: boolean) {
    this.isClosed = closed;
    this.isClosing = closing;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get closing(): boolean {
    return this.isClosing;
  }

  /** The rows the close waits to refund from (undefined: no close asked of this table object). */
  get closingSeed(): MoneySeed | null | undefined {
    return this.seed;
  }

  beginClosing(seed: MoneySeed | null): void {
    this.isClosing = true;
    this.seed = seed;
  }

  markClosed(): void {
    this.isClosed = true;
    this.isClosing = false;
    this.seed = undefined;
  }
}

/** What every part of one live table shares: its facts, its event queue and its money books. */
export interface TableContext {
  readonly tableId: string;
  readonly engine: Table;
  readonly config: RoomConfig;
  readonly timing: TableTiming;
  readonly deps: LiveTableDeps;
  readonly lifecycle: TableLifecycle;
  readonly events: EmissionQueue;
  /** Jobs for the hands queue, kept in the checkpoint until they are in it. */
  readonly outbox: Outbox;
  /** Top-ups added and not yet reported, memberships let go. */
  readonly money: TableMoney;
  /** A tournament's table: the director seats players and deals; nobody sits out, leaves or freezes it. */
  readonly tournament: boolean;
}
