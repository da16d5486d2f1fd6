import { CHAT_TEXT_MAX, type ChatMessage, type HandResult } from '@felt/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from '../i18n/i18n.js';
import {
  addDealerLines,
  chatCharsLeft,
  chatSenderText,
  chatTimeText,
  dealerLines,
  dealerLineText,
  hasChatText,
  mergeFeed,
  unreadCount,
} from './chat-feed.js';

afterEach(() => applyLocale('en'));

const TABLE = '6f9619ff-8b86-4011-b42d-00c04fc964ff';

function chat(tableSeq: number, over: Partial<ChatMessage> = {}): ChatMessage {
  return {
    type: 'chat_message',
    table_id: TABLE,
    table_seq: tableSeq,
    chat_id: `c${tableSeq}`,
    user_id: 'u1',
    name: 'Ann',
    role: 'player',
    seat: 1,
    text: 'gl',
    ts: 1_764_400_000_000 + tableSeq,
    ...over,
  };
}

type Result = Pick<HandResult, 'hand_id' | 'table_seq' | 'pots'>;

/** A main pot to seat 1 and a hi-lo side pot split between seats 1 and 3. */
function result(handId: string, tableSeq: number): Result {
  return {
    hand_id: handId,
    table_seq: tableSeq,
    pots: [
      { index: 0, amount: 120, rake: 0, eligible: [1, 2, 3], winners: [{ seat: 1, amount: 120, side: 'high' }] },
      {
        index: 1,
        amount: 1_500,
        rake: 0,
        eligible: [1, 3],
        winners: [
          { seat: 1, amount: 750, side: 'high' },
          { seat: 3, amount: 750, side: 'low' },
        ],
      },
    ],
  };
}

const NAMES = new Map([[1, 'Ann']]);

describe('dealer lines', () => {
  it('announces each winner of each pot, by name or by seat when the name is not known', () => {
    const lines = dealerLines(result('h1', 10), NAMES, 5_000);
    expect(lines.map(dealerLineText)).toEqual([
      'Ann wins 120 from the main pot',
      'Ann wins 750 from the side pot 1',
      'Seat 3 wins 750 (low) from the side pot 1',
    ]);
    expect(lines.map((l) => [l.tableSeq, l.order, l.ts])).toEqual([
      [10, 0, 5_000],
      [10, 1, 5_000],
      [10, 2, 5_000],
    ]);
    expect(new Set(lines.map((l) => l.key)).size).toBe(3);
  });

  it('in Chinese too', () => {
    applyLocale('zh-CN');
    expect(dealerLines(result('h1', 10), NAMES, 0).map(dealerLineText)).toEqual([
      'Ann 从主池赢得 120',
      'Ann 从边池 1赢得 750',
      '3 号座位 从边池 1赢得 750（低牌）',
    ]);
  });

  it('adds a hand’s lines once however often its result is seen, and keeps the newest', () => {
    const once = addDealerLines([], result('h1', 10), NAMES, 1);
    expect(once).toHaveLength(3);
    expect(addDealerLines(once, result('h1', 10), NAMES, 2)).toBe(once);
    const twice = addDealerLines(once, result('h2', 20), NAMES, 3);
    expect(twice.map((l) => l.handId)).toEqual(['h1', 'h1', 'h1', 'h2', 'h2', 'h2']);
    const kept = addDealerLines(twice, result('h3', 30), NAMES, 4, 4);
    expect(kept.map((l) => l.handId)).toEqual(['h2', 'h3', 'h3', 'h3']);
    // A result without winners (every pot returned) says nothing.
    expect(addDealerLines(once, { hand_id: 'h4', table_seq: 40, pots: [] }, NAMES, 5)).toBe(once);
  });
});

describe('the feed', () => {
  it('puts chat and dealer lines in table order whatever order they came in', () => {
    const dealer = dealerLines(result('h1', 10), NAMES, 0);
    const feed = mergeFeed([chat(12), chat(3), chat(11)], dealer);
    expect(
      feed.map((e) => (e.kind === 'chat' ? `chat ${e.tableSeq}` : `dealer ${e.tableSeq}.${e.line.order}`)),
    ).toEqual(['chat 3', 'dealer 10.0', 'dealer 10.1', 'dealer 10.2', 'chat 11', 'chat 12']);
    expect(new Set(feed.map((e) => e.key)).size).toBe(feed.length);
    expect(mergeFeed([], [])).toEqual([]);
  });

  it('counts what came after the last line seen', () => {
    const feed = mergeFeed([chat(1), chat(2), chat(3)], []);
    expect(unreadCount(feed, feed[2]!.key)).toBe(0);
    expect(unreadCount(feed, feed[0]!.key)).toBe(2);
    expect(unreadCount(feed, null)).toBe(3);
    // The line seen has scrolled out of the kept log: everything kept is new.
    expect(unreadCount(feed, 'chat-gone')).toBe(3);
  });
});

describe('a message’s details', () => {
  it('says where the sender sits: a seat, a spectator, or a member with no seat', () => {
    expect(chatSenderText({ role: 'player', seat: 4 })).toBe('Seat 4');
    expect(chatSenderText({ role: 'spectator', seat: null })).toBe('spectator');
    expect(chatSenderText({ role: 'player', seat: null })).toBe('no seat');
    applyLocale('zh-CN');
    expect(chatSenderText({ role: 'spectator', seat: null })).toBe('旁观者');
  });

  it('writes the time of day in the page’s language', () => {
    const ts = new Date(2026, 0, 1, 21, 5).getTime();
    expect(chatTimeText(ts)).toMatch(/^09:05\sPM$/);
    applyLocale('zh-CN');
    expect(chatTimeText(ts)).toBe('21:05');
  });

  it('counts characters as the server does: trimmed, an emoji as one', () => {
    expect(chatCharsLeft('')).toBe(CHAT_TEXT_MAX);
    expect(chatCharsLeft('  hi  ')).toBe(CHAT_TEXT_MAX - 2);
    expect(chatCharsLeft('🍀🍀')).toBe(CHAT_TEXT_MAX - 2);
    expect(chatCharsLeft('x'.repeat(CHAT_TEXT_MAX))).toBe(0);
    expect(chatCharsLeft('x'.repeat(CHAT_TEXT_MAX + 3))).toBe(-3);
    expect(hasChatText('   ')).toBe(false);
    expect(hasChatText(' a ')).toBe(true);
  });
});
