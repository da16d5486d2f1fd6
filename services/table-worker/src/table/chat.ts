import { CHAT_RATE, ChatDisabledReason, ErrorCode, Role, checkChatText, type RoomChat } from '@felt/protocol';
import { TableError } from '../actor/table-error.js';
import { ALL } from './emissions.js';
import type { Seating } from './seating.js';
import type { TableContext } from './table-context.js';

/** A user's chat allowance: tokens left at `at` (ms). */
interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept before the full ones (nothing to remember) are dropped. */
const BUCKETS_KEPT = 64;

/**
 * Table chat (docs/protocol.md, "Table chat"): who may speak, how often, and the `chat_message` that
 * goes to everyone at the table. It reads the seating and never changes it, the hand or anything
 * else in the checkpoint: a message is one event on the table's stream, nothing more.
 *
 * The per-user token buckets live in memory only. A new owner of the table (or a rollback to the
 * last checkpoint) starts every user with a full bucket: at worst one extra burst, never a lost or
 * duplicated message.
 */
export class TableChat {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly ctx: TableContext,
    private readonly seating: Seating,
    /** The room's chat setting now (the host may change it while the table runs). */
    private readonly settings: () => RoomChat,
    private readonly rate: { readonly burst: number; readonly refillMs: number } = CHAT_RATE,
  ) {}

  /** Sends `text` from `userId` to the table, or throws TableError and sends nothing. */
  send(userId: string, text: string, now: number): void {
    const chat = this.settings();
    if (!chat.enabled) this.refuse(ErrorCode.CHAT_DISABLED, 'chat is off at this table', ChatDisabledReason.ROOM);
    const member = this.seating.member(userId);
    // Only members attach without spectating, so a non-member here is a spectator.
    const spectator = member === undefined;
    if (spectator && !chat.spectators) {
      this.refuse(ErrorCode.CHAT_DISABLED, 'only players may chat at this table', ChatDisabledReason.SPECTATORS);
    }
    // The gateway checked the frame; the table holds the same rule, and sends the trimmed text.
    const checked = checkChatText(text);
    if (!checked.ok) this.refuse(checked.code, checked.message);
    if (!this.take(userId, now)) {
      this.refuse(ErrorCode.CHAT_RATE_LIMITED, 'you are sending messages too fast; wait a moment');
    }
    const name = member?.name ?? this.spectatorName(userId);
    this.ctx.events.emit(ALL, {
      type: 'chat_message',
      table_id: this.ctx.tableId,
      chat_id: this.ctx.deps.random.uuid(),
      user_id: userId,
      name,
      role: spectator ? Role.SPECTATOR : Role.PLAYER,
      seat: spectator ? null : (this.seating.seatOf(userId) ?? null),
      text: checked.text,
      ts: now,
    });
  }

  private spectatorName(userId: string): string {
    for (const c of this.seating.connectionList()) if (c.userId === userId && c.name) return c.name;
    return 'spectator';
  }

  /** Takes one token from the user's bucket if there is one. */
  private take(userId: string, now: number): boolean {
    const { burst, refillMs } = this.rate;
    const bucket = this.buckets.get(userId);
    const tokens = bucket ? Math.min(burst, bucket.tokens + Math.max(0, now - bucket.at) / refillMs) : burst;
    if (tokens < 1) {
      if (bucket) Object.assign(bucket, { tokens, at: now });
      return false;
    }
    if (bucket) Object.assign(bucket, { tokens: tokens - 1, at: now });
    else this.buckets.set(userId, { tokens: tokens - 1, at: now });
    if (this.buckets.size > BUCKETS_KEPT) this.forgetFull(now);
    return true;
  }

  /** Drops the buckets that have refilled: they hold nothing a new bucket would not. */
  private forgetFull(now: number): void {
    const { burst, refillMs } = this.rate;
    for (const [userId, b] of this.buckets) {
      if (b.tokens + (now - b.at) / refillMs >= burst) this.buckets.delete(userId);
    }
  }

  private refuse(code: ErrorCode, message: string, reason?: string): never {
    throw new TableError(code, message, this.ctx.tableId, reason !== undefined ? { reason } : {});
  }
}
