// The SDK's table chat against a scripted server: sendChat, the `chat` event (each message once,
// live or replayed), the chat log, and muting, which is the client's choice only.
import { CHAT_TEXT_MAX, type ChatMessage } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { FakeTimers } from '../../test/support/fake-timers.js';
import { FakeSocketFactory } from '../../test/support/fake-socket.js';
import { resync, TABLE, tableState } from '../../test/support/messages.js';
import { CommandRefusedError } from './errors.js';
import { FeltClient } from './felt-client.js';

const ANN = 'u-ann';
const BOB = 'u-bob';

function chat(tableSeq: number, userId: string, text: string): ChatMessage {
  return {
    type: 'chat_message',
    table_id: TABLE,
    table_seq: tableSeq,
    chat_id: `chat-${tableSeq}`,
    user_id: userId,
    name: userId === ANN ? 'Ann' : 'Bob',
    role: 'player',
    seat: userId === ANN ? 1 : 2,
    text,
    ts: 1_764_400_000_000 + tableSeq,
  };
}

function joined() {
  const timers = new FakeTimers();
  const sockets = new FakeSocketFactory();
  const client = new FeltClient({
    gatewayUrls: ['ws://g1/ws'],
    socketFactory: sockets.create,
    timers,
    random: () => 0.5,
    randomBytes: (n) => new Uint8Array(n).fill(7),
    pingIntervalMs: 0,
    clientSeeds: false,
  });
  client.connect();
  sockets.last.acceptOpen();
  const table = client.join(TABLE);
  sockets.last.deliver(tableState(10));
  const heard: ChatMessage[] = [];
  table.on('chat', (m) => heard.push(m));
  return { socket: sockets.last, client, table, heard };
}

describe('TableSession chat', () => {
  it('sendChat sends the trimmed text with a command_id and resolves on the ack', async () => {
    const { socket, table } = joined();
    const acked = table.sendChat('  gl hf ');
    const [frame] = socket.framesOfType('chat');
    expect(frame).toEqual({ type: 'chat', table_id: TABLE, text: 'gl hf', command_id: expect.any(String) });
    socket.deliver({ type: 'ack', table_id: TABLE, command_id: frame!.command_id, at_table_seq: 11 });
    await expect(acked).resolves.toMatchObject({ command_id: frame!.command_id });
  });

  it('refuses a text the table would refuse without sending it, with the protocol code', async () => {
    const { socket, table } = joined();
    await expect(table.sendChat('x'.repeat(CHAT_TEXT_MAX + 1))).rejects.toMatchObject({
      serverCode: 'message_too_long',
    });
    const empty = table.sendChat('  ').catch((e: unknown) => e);
    expect(await empty).toBeInstanceOf(CommandRefusedError);
    expect(((await empty) as CommandRefusedError).serverCode).toBe('message_invalid');
    expect(socket.framesOfType('chat')).toHaveLength(0);
  });

  it('passes the table’s refusals on (rate limit, chat off)', async () => {
    const { socket, table } = joined();
    const sent = table.sendChat('hello');
    const [frame] = socket.framesOfType('chat');
    socket.deliver({
      type: 'error',
      code: 'chat_rate_limited',
      message: 'slow down',
      table_id: TABLE,
      command_id: frame!.command_id,
    });
    await expect(sent).rejects.toMatchObject({ serverCode: 'chat_rate_limited' });
  });

  it('emits each chat message once, live or replayed by a resync, and moves the watermark', () => {
    const { socket, table, heard } = joined();
    socket.deliver(chat(11, ANN, 'one'));
    socket.deliver(chat(11, ANN, 'one'));
    expect(table.view.lastTableSeq).toBe(11);
    // 12 was lost: 13 exposes the gap, and the resync replays 12 (and 13 again).
    socket.deliver({ ...chat(13, BOB, 'three'), prev_table_seq: 12 });
    socket.deliver(resync(13, tableState(13), [chat(12, BOB, 'two'), chat(13, BOB, 'three')], 'player', 11));
    expect(heard.map((m) => m.text)).toEqual(['one', 'three', 'two']);
    expect(table.chatLog().map((m) => m.text)).toEqual(['one', 'two', 'three']);
    // Chat is not a hand event: the hand's markers do not hold it.
    expect(table.view.hand?.events.some((e) => e.type === 'chat_message') ?? false).toBe(false);
  });

  it('mutes and unmutes a player for this session only', () => {
    const { socket, table, heard } = joined();
    table.mute(BOB);
    expect(table.isMuted(BOB)).toBe(true);
    socket.deliver(chat(11, BOB, 'spam'));
    socket.deliver(chat(12, ANN, 'hi'));
    expect(heard.map((m) => m.text)).toEqual(['hi']);
    expect(table.chatLog().map((m) => m.text)).toEqual(['hi']);
    table.unmute(BOB);
    expect([...table.muted]).toEqual([]);
    expect(table.chatLog().map((m) => m.text)).toEqual(['spam', 'hi']);
    socket.deliver(chat(13, BOB, 'back'));
    expect(heard.map((m) => m.text)).toEqual(['hi', 'back']);
  });
});
