// The table controller's chat against the SDK's real TableSession (only the connection is fake):
// messages in table order, the dealer's lines once per hand from hand_result, mutes that hide and
// show again, and a refused message's error kept for the panel.
import { CommandRefusedError, TableSession, type FeltClient, type SessionHost } from '@felt/client';
import type { Ack, ChatMessage, ErrorMessage, HandResult } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { dealerLineText, mergeFeed } from '../lib/chat-feed.js';
import { errorText } from '../lib/error-text.js';
import { HAND, seat, TABLE, tableState } from '../test-support/fixtures.js';
import { TableController } from './table-controller.js';
import { Toasts } from './toasts.js';

function harness(answer: (frame: Record<string, unknown>) => Promise<Ack>) {
  const frames: Record<string, unknown>[] = [];
  const host: SessionHost = {
    clientSeeds: false,
    isOpen: () => true,
    sendFrame: () => true,
    sendCommand: (_tableId, frame) => {
      frames.push(frame);
      return answer(frame);
    },
    newCommandId: () => `cmd-${frames.length}`,
    randomBytes: (n) => new Uint8Array(n),
    noteResync: () => undefined,
    noteAnomaly: () => undefined,
    noteLoss: () => undefined,
    noteFairness: () => undefined,
    noteClientSeed: () => undefined,
    later: () => () => undefined,
    now: () => 0,
    silenceMs: 0,
  };
  const session = new TableSession(TABLE, host, false);
  const client = {
    join: () => session,
    connection: { state: 'open' },
    on: () => () => undefined,
  } as unknown as FeltClient;
  const controller = new TableController(client, TABLE, false, new Toasts(), null);
  return { controller, session, frames };
}

const ack = (frame: Record<string, unknown>): Promise<Ack> =>
  Promise.resolve({ type: 'ack', command_id: frame.command_id as string, table_id: TABLE } as Ack);

function chat(tableSeq: number, userId: string, name: string, text: string): ChatMessage {
  return {
    type: 'chat_message',
    table_id: TABLE,
    table_seq: tableSeq,
    chat_id: `c${tableSeq}`,
    user_id: userId,
    name,
    role: 'player',
    seat: userId === 'u1' ? 1 : 2,
    text,
    ts: 1_764_400_000_000 + tableSeq,
  };
}

function handResult(tableSeq: number): HandResult {
  return {
    type: 'hand_result',
    table_id: TABLE,
    table_seq: tableSeq,
    hand_id: HAND,
    hand_seq: 5,
    pots: [{ index: 0, amount: 120, rake: 0, eligible: [1, 2], winners: [{ seat: 1, amount: 120, side: 'high' }] }],
    uncalled: [],
    rake: 0,
    players: [
      { seat: 1, net: 60, stack: 1_060 },
      { seat: 2, net: -60, stack: 940 },
    ],
    hands: [],
  } as unknown as HandResult;
}

/** A hand in progress at seats 1 and 2 (Player1, Player2), the hero at 2. */
function snapshot(tableSeq: number) {
  return tableState({
    table_seq: tableSeq,
    phase: 'betting',
    hand_id: HAND,
    hand_seq: 4,
    street: 'river',
    actor: 1,
    seats: [
      seat(1, { in_hand: true, folded: false, all_in: false }),
      seat(2, { in_hand: true, folded: false, all_in: false }),
    ],
    hero: { seat: 2, cards: ['Ah', 'Kd'] },
  });
}

describe('TableController chat', () => {
  it('keeps the chat and one set of dealer lines per hand, in table order', () => {
    const h = harness(ack);
    h.session.handle(snapshot(10), null);
    h.session.handle(chat(11, 'u1', 'Player1', 'gl'), null);
    h.session.handle(handResult(12), null);
    h.session.handle(chat(13, 'u2', 'Player2', 'nh'), null);
    // The same chat again (a resync's replay): shown once.
    h.session.handle(chat(13, 'u2', 'Player2', 'nh'), null);
    const st = h.controller.state;
    expect(st.chat.map((m) => m.text)).toEqual(['gl', 'nh']);
    expect(st.dealer.map(dealerLineText)).toEqual(['Player1 wins 120 from the main pot']);
    expect(mergeFeed(st.chat, st.dealer).map((e) => e.kind)).toEqual(['chat', 'dealer', 'chat']);
  });

  it('hides a muted player’s messages, remembers their name for unmuting, and shows them again', () => {
    const h = harness(ack);
    h.session.handle(snapshot(10), null);
    h.session.handle(chat(11, 'u1', 'Player1', 'one'), null);
    h.session.handle(chat(12, 'u2', 'Player2', 'two'), null);
    h.controller.toggleMute('u1', 'Player1');
    expect(h.controller.state.chat.map((m) => m.text)).toEqual(['two']);
    expect([...h.controller.state.muted]).toEqual([['u1', 'Player1']]);
    h.session.handle(chat(13, 'u1', 'Player1', 'three'), null);
    expect(h.controller.state.chat.map((m) => m.text)).toEqual(['two']);
    h.controller.toggleMute('u1', 'Player1');
    expect(h.controller.state.chat.map((m) => m.text)).toEqual(['one', 'two', 'three']);
    expect(h.controller.state.muted.size).toBe(0);
  });

  it('sends a message as typed and keeps no error when the table takes it', async () => {
    const h = harness(ack);
    h.session.handle(snapshot(10), null);
    await expect(h.controller.sendChat('  hello table  ')).resolves.toBe(true);
    expect(h.frames).toEqual([expect.objectContaining({ type: 'chat', text: 'hello table' })]);
    expect(h.controller.state.chatError).toBeNull();
    expect(h.controller.state.chatSending).toBe(false);
  });

  it('keeps the refusal, the table’s or the SDK’s own, until the message is edited', async () => {
    const refusal: ErrorMessage = { type: 'error', code: 'chat_rate_limited', message: 'slow down', table_id: TABLE };
    const h = harness((frame) => Promise.reject(new CommandRefusedError(frame.command_id as string, 'chat', refusal)));
    h.session.handle(snapshot(10), null);
    await expect(h.controller.sendChat('one more')).resolves.toBe(false);
    expect(errorText(h.controller.state.chatError)).toBe(
      'You are sending messages too fast. Wait a moment, then try again.',
    );
    h.controller.clearChatError();
    expect(h.controller.state.chatError).toBeNull();
    // Too long: the SDK refuses before anything is sent.
    await expect(h.controller.sendChat('x'.repeat(201))).resolves.toBe(false);
    expect(errorText(h.controller.state.chatError)).toBe('That message is too long. Shorten it and send it again.');
    expect(h.frames).toHaveLength(1);
  });
});
