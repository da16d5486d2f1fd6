import { describe, expect, it } from 'vitest';
import {
  CHAT_FRAME_TEXT_MAX,
  CHAT_TEXT_MAX,
  chatMessageSchema,
  chatSchema,
  checkChatText,
  ErrorCode,
  parseRoomConfig,
  roomConfigSchema,
  safeParseRoomConfig,
  serverMessageSchema,
  tableEventSchema,
} from './index.js';

const TABLE = 't-1';

describe('chat text', () => {
  it('is trimmed and kept as sent otherwise (any script, emoji)', () => {
    expect(checkChatText('  gl hf  ')).toEqual({ ok: true, text: 'gl hf' });
    expect(checkChatText('Zoë 中 🂡')).toEqual({ ok: true, text: 'Zoë 中 🂡' });
  });

  it(`counts characters, not UTF-16 units: ${CHAT_TEXT_MAX} emoji pass, one more does not`, () => {
    expect(checkChatText('🍀'.repeat(CHAT_TEXT_MAX)).ok).toBe(true);
    expect(checkChatText('🍀'.repeat(CHAT_TEXT_MAX + 1))).toMatchObject({
      ok: false,
      code: ErrorCode.MESSAGE_TOO_LONG,
    });
    expect(checkChatText(`  ${'a'.repeat(CHAT_TEXT_MAX)}  `).ok).toBe(true);
    expect(checkChatText('a'.repeat(CHAT_TEXT_MAX + 1))).toMatchObject({ ok: false, code: ErrorCode.MESSAGE_TOO_LONG });
  });

  it('refuses empty text and control characters, line breaks included', () => {
    for (const bad of ['', '   ', '\t', 'a\nb', 'a\r\nb', 'a\u0000b', 'a\u007fb', 'a\u009bb', 'a\u2028b']) {
      expect(checkChatText(bad), JSON.stringify(bad)).toMatchObject({ ok: false, code: ErrorCode.MESSAGE_INVALID });
    }
  });
});

describe('chat frame', () => {
  const frame = (text: string, extra: Record<string, unknown> = {}) => ({
    type: 'chat',
    table_id: TABLE,
    text,
    ...extra,
  });

  it('accepts a text the rules allow, with or without a command_id', () => {
    expect(chatSchema.safeParse(frame('hi')).success).toBe(true);
    expect(chatSchema.safeParse(frame('hi', { command_id: 'c1' })).success).toBe(true);
  });

  it('names the typed code of a refused text in its issue (parseClientFrame answers with it)', () => {
    const codeOf = (text: string): unknown[] => {
      const r = chatSchema.safeParse(frame(text));
      expect(r.success).toBe(false);
      return r.error!.issues.map((i): unknown => (i.code === 'custom' ? (i.params?.error_code as unknown) : i.code));
    };
    expect(codeOf('x'.repeat(CHAT_TEXT_MAX + 1))).toEqual([ErrorCode.MESSAGE_TOO_LONG]);
    expect(codeOf('  ')).toEqual([ErrorCode.MESSAGE_INVALID]);
    expect(codeOf('a\nb')).toEqual([ErrorCode.MESSAGE_INVALID]);
    // Over the raw bound, the frame is not even read.
    expect(codeOf('x'.repeat(CHAT_FRAME_TEXT_MAX + 1))[0]).toBe('too_big');
  });

  it('is strict: no sender fields, no smuggled extras', () => {
    expect(chatSchema.safeParse(frame('hi', { user_id: 'u' })).success).toBe(false);
    expect(chatSchema.safeParse(frame('hi', { seat: 1 })).success).toBe(false);
    expect(chatSchema.safeParse({ type: 'chat', table_id: TABLE }).success).toBe(false);
  });
});

describe('chat_message', () => {
  const message = {
    type: 'chat_message',
    table_id: TABLE,
    table_seq: 12,
    prev_table_seq: 11,
    chat_id: '0f6f3a53-8f1e-4b8e-9b7a-6d1c2e3f4a5b',
    user_id: 'u1',
    name: 'Ann',
    role: 'player',
    seat: 3,
    text: 'gl',
    ts: 1764400000000,
  };

  it('is a server message and a replayable table event', () => {
    expect(serverMessageSchema.safeParse(message).success).toBe(true);
    const { prev_table_seq: _prev, ...replayed } = message;
    expect(tableEventSchema.safeParse(replayed).success).toBe(true);
    expect(chatMessageSchema.safeParse({ ...message, role: 'spectator', seat: null }).success).toBe(true);
  });

  it('carries text only: no cards, actions or amounts', () => {
    for (const extra of [{ cards: ['As'] }, { action: 'fold' }, { amount: 5 }, { hand_id: 'h' }]) {
      expect(chatMessageSchema.safeParse({ ...message, ...extra }).success, JSON.stringify(extra)).toBe(false);
    }
    expect(chatMessageSchema.safeParse({ ...message, text: '' }).success).toBe(false);
  });
});

describe('room config chat', () => {
  it('defaults to chat on for players and off for spectators', () => {
    expect(parseRoomConfig({}).chat).toEqual({ enabled: true, spectators: false });
    expect(parseRoomConfig({ chat: { spectators: true } }).chat).toEqual({ enabled: true, spectators: true });
    expect(parseRoomConfig({ chat: { enabled: false } }).chat).toEqual({ enabled: false, spectators: false });
  });

  it('stores what it reads back, and an older stored config without chat gets the defaults', () => {
    const config = parseRoomConfig({ chat: { enabled: false, spectators: true } });
    expect(roomConfigSchema.parse(config)).toEqual(config);
    const { chat: _chat, ...older } = parseRoomConfig({});
    expect(parseRoomConfig(older).chat).toEqual({ enabled: true, spectators: false });
  });

  it('refuses unknown chat fields and non-boolean values', () => {
    for (const chat of [{ enabled: 'yes' }, { spectators: 1 }, { slowMode: true }]) {
      const r = safeParseRoomConfig({ chat });
      expect(r.success, JSON.stringify(chat)).toBe(false);
      if (!r.success) expect(r.error.issues[0]!.path).toMatch(/^chat/);
    }
  });
});
