import type { ErrorCode } from '@felt/protocol';

/** What a command ended in, kept so that the same command_id sent again gets the same answer. */
export type CommandResult =
  | { readonly ok: true; readonly atTableSeq: number }
  | {
      readonly ok: false;
      readonly code: ErrorCode;
      readonly message: string;
      readonly reason?: string;
      readonly min?: number;
      readonly max?: number;
    };

export interface CommandRecord {
  readonly id: string;
  readonly result: CommandResult;
  /**
   * For a command about one hand (a frame with a hand_id: action, client_seed, show_cards, blind_key,
   * blind_shuffle, blind_shares), the number of the table's last completed hand when it was answered.
   * Absent for the other commands (and in checkpoints written before hands bounded the history).
   */
  readonly hand?: number;
}

/**
 * The table's other commands (sit_in, sit_out, leave, start_hand) are remembered per player, the
 * last this-many (docs/protocol.md, `command_id`).
 */
const COMMAND_HISTORY_SIZE = 128;

/**
 * A bound on one player's hand commands between two completed hands, so that a player who floods
 * the table with refused frames grows no checkpoint. Dropping one early is safe: see `CommandHistory`.
 */
const HAND_COMMANDS_MAX = 64;

/**
 * The per-player command_id history: plain data, so it goes into every checkpoint and a retried
 * command is answered the same after a failover as before it.
 *
 * A command about a hand (its frame names the hand_id) is kept for the current and the previous
 * hand only: it is dropped once two more hands have completed. By then the hand it names can take no
 * command any more (an action needs the hand in progress and the current turn token, a client seed
 * the hand being dealt, show_cards the hand still on the table; a hand announced after it has
 * completed), so the same command sent again is refused with a typed error (stale_hand,
 * stale_turn_token, seed_refused or cannot_show) and never applied twice. The same holds for one
 * dropped early by `HAND_COMMANDS_MAX`: the turn token, the seed or the show it used is spent.
 * Without this bound the actions of the last 128 commands were most of every checkpoint (about
 * 10 KB per seated player; docs/architecture.md, "Where a hand's CPU goes").
 */
export class CommandHistory {
  private readonly byUser: Map<string, CommandRecord[]>;

  constructor(
    data: Readonly<Record<string, readonly CommandRecord[]>> = {},
    private readonly size = COMMAND_HISTORY_SIZE,
    private readonly handMax = HAND_COMMANDS_MAX,
  ) {
    this.byUser = new Map(Object.entries(data).map(([u, list]) => [u, [...list]]));
  }

  lookup(userId: string, commandId: string): CommandResult | undefined {
    return this.byUser.get(userId)?.find((r) => r.id === commandId)?.result;
  }

  /**
   * Remembers a command's answer. `hand`: for a command about a hand, the number of the table's last
   * completed hand now (see the class).
   */
  record(userId: string, commandId: string, result: CommandResult, hand?: number): void {
    let list = this.byUser.get(userId);
    if (!list) {
      list = [];
      this.byUser.set(userId, list);
    }
    list.push(hand === undefined ? { id: commandId, result } : { id: commandId, result, hand });
    const scoped = hand !== undefined;
    const max = scoped ? this.handMax : this.size;
    let count = 0;
    for (const r of list) if ((r.hand !== undefined) === scoped) count++;
    for (let i = 0; count > max && i < list.length;) {
      if ((list[i]!.hand !== undefined) === scoped) {
        list.splice(i, 1);
        count--;
      } else i++;
    }
  }

  /**
   * Drops the history of users who are no longer at the table and, once `lastHandNo` is the number
   * of the last completed hand, the hand commands answered before the previous hand.
   */
  retain(userIds: ReadonlySet<string>, lastHandNo?: number): void {
    for (const [u, list] of [...this.byUser]) {
      if (!userIds.has(u)) {
        this.byUser.delete(u);
        continue;
      }
      if (lastHandNo === undefined) continue;
      const floor = lastHandNo - 1;
      if (list.some((r) => r.hand !== undefined && r.hand < floor)) {
        this.byUser.set(
          u,
          list.filter((r) => r.hand === undefined || r.hand >= floor),
        );
      }
    }
  }

  toJSON(): Record<string, CommandRecord[]> {
    return Object.fromEntries([...this.byUser].map(([u, list]) => [u, [...list]]));
  }
}
