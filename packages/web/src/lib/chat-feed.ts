// The table's chat panel: players' messages and the dealer's lines (who won what, from each
// hand_result) in one list, ordered as the table sent them. Chat and results ride the same table
// stream, so table_seq orders them whatever order the page saw them in (a resync replays missed chat
// after the snapshot that carries a later result). Texts are written when shown, in the page's
// language, so a language switch rewrites every line.
import { CHAT_TEXT_MAX, type ChatMessage, type HandResult } from '@felt/protocol';
import { formatTime, t } from '../i18n/i18n.js';
import { chips } from './format.js';

/** One pot (or half a pot) a player won, as the dealer announces it. */
export interface DealerLine {
  readonly key: string;
  readonly handId: string;
  /** The hand_result's table_seq: where the line goes among the chat. */
  readonly tableSeq: number;
  /** Its order within the result (pot by pot, winner by winner). */
  readonly order: number;
  /** When the page learned the result, in server time (hand_result carries no time of its own). */
  readonly ts: number;
  readonly seat: number;
  /** The winner's name at the table; null when the page did not know it (the seat is named instead). */
  readonly name: string | null;
  readonly amount: number;
  readonly potIndex: number;
  readonly side: 'high' | 'low' | 'uncontested';
}

export type FeedEntry =
  | { readonly kind: 'chat'; readonly key: string; readonly tableSeq: number; readonly message: ChatMessage }
  | { readonly kind: 'dealer'; readonly key: string; readonly tableSeq: number; readonly line: DealerLine };

/** The dealer lines the panel keeps: about the last 20 hands' winners. */
export const DEALER_LINES_KEPT = 60;

/** The dealer's lines for one hand's result, one per winner of each pot. */
export function dealerLines(
  result: Pick<HandResult, 'hand_id' | 'table_seq' | 'pots'>,
  names: ReadonlyMap<number, string>,
  ts: number,
): DealerLine[] {
  const out: DealerLine[] = [];
  for (const pot of result.pots) {
    for (const w of pot.winners) {
      out.push({
        key: `${result.hand_id}-${pot.index}-${w.seat}-${w.side}`,
        handId: result.hand_id,
        tableSeq: result.table_seq,
        order: out.length,
        ts,
        seat: w.seat,
        name: names.get(w.seat) ?? null,
        amount: w.amount,
        potIndex: pot.index,
        side: w.side,
      });
    }
  }
  return out;
}

/**
 * The kept dealer lines with a result's added: once per hand (a view shows the same result again on
 * every update until the next hand), the oldest dropped past `keep`.
 */
export function addDealerLines(
  kept: readonly DealerLine[],
  result: Pick<HandResult, 'hand_id' | 'table_seq' | 'pots'>,
  names: ReadonlyMap<number, string>,
  ts: number,
  keep = DEALER_LINES_KEPT,
): readonly DealerLine[] {
  if (kept.some((l) => l.handId === result.hand_id)) return kept;
  const lines = dealerLines(result, names, ts);
  if (lines.length === 0) return kept;
  return [...kept, ...lines].slice(-keep);
}

/** Chat and dealer lines in table order (a result's lines in their own order), oldest first. */
export function mergeFeed(chat: readonly ChatMessage[], dealer: readonly DealerLine[]): FeedEntry[] {
  const entries: (FeedEntry & { readonly order: number })[] = [
    ...chat.map((message) => ({
      kind: 'chat' as const,
      key: `chat-${message.chat_id}`,
      tableSeq: message.table_seq,
      order: 0,
      message,
    })),
    ...dealer.map((line) => ({
      kind: 'dealer' as const,
      key: `dealer-${line.key}`,
      tableSeq: line.tableSeq,
      order: line.order,
      line,
    })),
  ];
  entries.sort((a, b) => a.tableSeq - b.tableSeq || a.order - b.order);
  return entries.map(({ order: _order, ...entry }) => entry);
}

/** Entries after the one last seen (all of them when it is gone from the feed or none was seen). */
export function unreadCount(feed: readonly FeedEntry[], lastSeenKey: string | null): number {
  if (lastSeenKey === null) return feed.length;
  const i = feed.findIndex((e) => e.key === lastSeenKey);
  return i < 0 ? feed.length : feed.length - 1 - i;
}

/** "Ann wins 120 from the main pot", "Bo wins 40 (low) from side pot 1". */
export function dealerLineText(line: DealerLine): string {
  const pot = line.potIndex === 0 ? t('log.mainPotLower') : t('log.sidePotLower', { n: line.potIndex });
  return t(line.side === 'low' ? 'chat.dealerWinsLow' : 'chat.dealerWins', {
    name: line.name ?? t('common.seat', { seat: line.seat }),
    amount: chips(line.amount),
    pot,
  });
}

/** Who the sender is at the table: their seat, a spectator, or a member who has no seat now. */
export function chatSenderText(message: Pick<ChatMessage, 'role' | 'seat'>): string {
  if (message.role === 'spectator') return t('chat.spectator');
  return message.seat !== null ? t('common.seat', { seat: message.seat }) : t('chat.unseated');
}

/** The time a message (or a dealer line) was said, as the page's language writes a time of day. */
export function chatTimeText(ts: number): string {
  return formatTime(new Date(ts));
}

/** Characters left before the limit (negative past it), counted as the server counts: trimmed, by code point. */
export function chatCharsLeft(text: string): number {
  return CHAT_TEXT_MAX - [...text.trim()].length;
}

/** Whether there is anything to send (the send button's state); a too-long text is sent to be refused. */
export function hasChatText(text: string): boolean {
  return text.trim().length > 0;
}
