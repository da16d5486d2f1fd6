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
}

/** Per player, the last this-many command ids are remembered (docs/protocol.md: 128). */
const COMMAND_HISTORY_SIZE = 128;

/**
 * The per-player command_id history: plain data, so it goes into every checkpoint and a retried
 * command is answered the same after a failover as before it.
 */
export class CommandHistory {
  private readonly byUser: Map<string, CommandRecord[]>;

  constructor(
    data: Readonly<Record<string, readonly CommandRecord[]>> = {},
    private readonly size = COMMAND_HISTORY_SIZE,
  ) {
    this.byUser = new Map(Object.entries(data).map(([u, list]) => [u, [...list]]));
  }

  lookup(userId: string, commandId: string): CommandResult | undefined {
    return this.byUser.get(userId)?.find((r) => r.id === commandId)?.result;
  }

  record(userId: string, commandId: string, result: CommandResult): void {
    let list = this.byUser.get(userId);
    if (!list) {
      list = [];
      this.byUser.set(userId, list);
    }
    list.push({ id: commandId, result });
    if (list.length > this.size) list.splice(0, list.length - this.size);
  }

  /** Drops the history of users who are no longer at the table. */
  retain(userIds: ReadonlySet<string>): void {
    for (const u of [...this.byUser.keys()]) if (!userIds.has(u)) this.byUser.delete(u);
  }

  toJSON(): Record<string, CommandRecord[]> {
    return Object.fromEntries([...this.byUser].map(([u, list]) => [u, [...list]]));
  }
}
