// Table chat through the actor: who may speak, the per-user rate limit, the length and character
// rules, and that a message is one event on the table's stream that changes nothing else.
import { describe, expect, it } from 'vitest';
import {
  CHAT_RATE,
  CHAT_TEXT_MAX,
  parseRoomConfig,
  serverMessageSchema,
  type ChatMessage,
  type ResyncResponse,
  type TableMessage,
} from '@felt/protocol';
import type { TableActor } from './table-actor.js';
import type { LiveTableJSON } from '../table/live-table-json.js';
import { harness, restoreFromCheckpoint, TABLE, uid, type Harness } from '../../test/support/fakes.js';
import { A, actorState, B, C, dealFirstHand, twoPlayers } from '../../test/support/actor.js';

const CONN: Record<string, string> = { [A]: 'ca', [B]: 'cb', [C]: 'cs' };

function say(actor: TableActor, userId: string, text: string, commandId?: string) {
  return actor.submit({
    kind: 'client',
    connectionId: CONN[userId]!,
    userId,
    frame: { type: 'chat', table_id: TABLE, text, ...(commandId !== undefined ? { command_id: commandId } : {}) },
  });
}

function chats(msgs: readonly TableMessage[]): ChatMessage[] {
  return msgs.filter((m): m is ChatMessage => m.type === 'chat_message');
}

async function withSpectator(h: Harness, config = {}) {
  const actor = await twoPlayers(h, config);
  await actor.submit({ kind: 'attach', connectionId: 'cs', streamId: 's2', userId: C, spectate: true, userName: 'Cy' });
  return actor;
}

/** The game's part of a checkpoint: everything but the stream bookkeeping chat moves. */
function gameState(json: LiveTableJSON) {
  const { tableSeq: _seq, streams: _streams, commands: _commands, ...rest } = json;
  return rest;
}

describe('table chat', () => {
  it('sends a player’s trimmed message to everyone at the table, spectators included, with who said it', async () => {
    const h = harness();
    const actor = await withSpectator(h);
    const before = actor.tableSeq;
    const out = await say(actor, A, '  good luck all 🍀  ', 'c1');
    expect(out.result).toEqual({ ok: true, atTableSeq: before + 1 });
    for (const stream of [h.publisher.toUser(A), h.publisher.toUser(B), h.publisher.toSpectators()]) {
      const [m] = chats(stream);
      expect(m).toMatchObject({
        type: 'chat_message',
        table_id: TABLE,
        table_seq: before + 1,
        user_id: A,
        name: 'Ann',
        role: 'player',
        seat: 1,
        text: 'good luck all 🍀',
        ts: h.time.now(),
      });
      expect(m!.chat_id).toMatch(/./);
      expect(serverMessageSchema.safeParse(m).success).toBe(true);
      // One event of the stream: chained to the stream's last message, and no snapshot after it.
      expect(stream.at(-1)).toBe(m);
      expect(m!.prev_table_seq).toBe(stream.at(-2)!.table_seq);
    }
    await actor.stop();
  });

  it('changes nothing of the game, mid-hand: the same checkpointed state and the same snapshot hash', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    await dealFirstHand(h);
    const state = gameState(actor.snapshot());
    const hash = actorState(h, A).state_hash;
    const turn = actorState(h, A).hero?.turn_token;
    await say(actor, A, 'nice hand');
    await say(actor, B, 'thanks');
    expect(gameState(actor.snapshot())).toEqual(state);
    expect(h.checkpoints.saved.get(TABLE)!.tableSeq).toBe(actor.tableSeq);
    const r = await actor.submit({ kind: 'resync', connectionId: 'ca', userId: A });
    const snapshot = (r.replies[0]!.message as ResyncResponse).snapshot;
    expect(snapshot.state_hash).toBe(hash);
    expect(snapshot.hero?.turn_token).toBe(turn);
    await actor.stop();
  });

  it('is replayed by resync like any event of the stream, in table_seq order', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    const from = actor.tableSeq;
    await say(actor, A, 'one');
    await say(actor, B, 'two');
    const r = await actor.submit({ kind: 'resync', connectionId: 'cb', userId: B, fromTableSeq: from });
    const resync = r.replies[0]!.message as ResyncResponse;
    expect(resync.replayed_events.map((e) => (e.type === 'chat_message' ? e.text : e.type))).toEqual(['one', 'two']);
    expect(serverMessageSchema.safeParse(resync).success).toBe(true);
    await actor.stop();
  });

  it(`allows a burst of ${CHAT_RATE.burst}, then refuses with chat_rate_limited until the bucket refills`, async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    for (let i = 0; i < CHAT_RATE.burst; i++) expect((await say(actor, A, `m${i}`)).result?.ok).toBe(true);
    const seq = actor.tableSeq;
    const refused = await say(actor, A, 'one too many', 'r1');
    expect(refused.result).toMatchObject({ ok: false, code: 'chat_rate_limited' });
    // Refused: no table_seq taken, nothing sent.
    expect(actor.tableSeq).toBe(seq);
    expect(chats(h.publisher.toUser(B))).toHaveLength(CHAT_RATE.burst);
    // Another user's allowance is their own.
    expect((await say(actor, B, 'me too')).result?.ok).toBe(true);
    h.time.advance(CHAT_RATE.refillMs);
    expect((await say(actor, A, 'again')).result?.ok).toBe(true);
    expect((await say(actor, A, 'and again')).result).toMatchObject({ ok: false, code: 'chat_rate_limited' });
    await actor.stop();
  });

  it('refuses everyone with chat_disabled when the host turned chat off', async () => {
    const h = harness();
    const actor = await withSpectator(h, { chat: { enabled: false, spectators: true } });
    const seq = actor.tableSeq;
    for (const user of [A, C]) {
      expect((await say(actor, user, 'hello')).result).toMatchObject({
        ok: false,
        code: 'chat_disabled',
        reason: 'chat_off',
      });
    }
    expect(actor.tableSeq).toBe(seq);
    expect(chats(h.publisher.toSpectators())).toHaveLength(0);
    await actor.stop();
  });

  it('lets spectators chat only where the room allows it', async () => {
    const h = harness();
    const closed = await withSpectator(h);
    expect((await say(closed, C, 'hi')).result).toMatchObject({
      ok: false,
      code: 'chat_disabled',
      reason: 'spectators_muted',
    });
    await closed.stop();

    const h2 = harness();
    const open = await withSpectator(h2, { chat: { spectators: true } });
    expect((await say(open, C, 'hi')).result?.ok).toBe(true);
    expect(chats(h2.publisher.toUser(A))[0]).toMatchObject({
      user_id: C,
      name: 'Cy',
      role: 'spectator',
      seat: null,
      text: 'hi',
    });
    await open.stop();
  });

  it('a spectator’s chat sent again under its command id is answered as the first time and said once', async () => {
    const h = harness();
    const actor = await withSpectator(h, { chat: { spectators: true } });
    const first = await say(actor, C, 'hello all', 'chat-1');
    expect(first.result?.ok).toBe(true);
    // The answer was lost (a reconnect): the SDK sends the same command again.
    const again = await say(actor, C, 'hello all', 'chat-1');
    expect(again.result).toEqual(first.result);
    expect(chats(h.publisher.toUser(A)).map((m) => m.text)).toEqual(['hello all']);
    // Nor is the spectator's command id in the checkpoint: spectators cannot grow it.
    expect(JSON.stringify(actor.snapshot().commands)).not.toContain('chat-1');
    // A new command id is a new message.
    expect((await say(actor, C, 'hello again', 'chat-2')).result?.ok).toBe(true);
    expect(chats(h.publisher.toUser(A)).map((m) => m.text)).toEqual(['hello all', 'hello again']);
    await actor.stop();
  });

  it('takes the host’s new chat setting from the room rows at once, mid-hand, and keeps it in the checkpoint', async () => {
    const h = harness();
    const actor = await withSpectator(h);
    await dealFirstHand(h);
    const hand = actor.snapshot().hand;
    const room = h.seeds.rooms.get(TABLE)!;
    const turnOff = (chat: { enabled: boolean; spectators: boolean }) =>
      h.seeds.rooms.set(TABLE, { ...room, config: parseRoomConfig({ ...room.config, chat }) });
    turnOff({ enabled: false, spectators: false });
    await actor.submit({ kind: 'refresh' });
    expect((await say(actor, A, 'hello?')).result).toMatchObject({ ok: false, code: 'chat_disabled' });
    expect(actor.snapshot().config.chat).toEqual({ enabled: false, spectators: false });
    // The next owner reads it from the checkpoint (and the rows say the same).
    await actor.stop();
    const next = await restoreFromCheckpoint(h);
    expect(next.snapshot().config.chat).toEqual({ enabled: false, spectators: false });
    turnOff({ enabled: true, spectators: true });
    await next.submit({ kind: 'refresh' });
    await next.submit({ kind: 'attach', connectionId: 'cs', streamId: 's2', userId: C, spectate: true });
    expect((await say(next, C, 'now I may')).result?.ok).toBe(true);
    // The hand played on as it was: chat settings touch nothing else.
    expect(next.snapshot().hand?.operations).toEqual(hand?.operations);
    await next.stop();
  });

  it('refuses a text too long, empty or with control characters, with nothing sent', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    const seq = actor.tableSeq;
    expect((await say(actor, A, 'x'.repeat(CHAT_TEXT_MAX + 1))).result).toMatchObject({
      ok: false,
      code: 'message_too_long',
    });
    expect((await say(actor, A, '   ')).result).toMatchObject({ ok: false, code: 'message_invalid' });
    expect((await say(actor, A, 'two\nlines')).result).toMatchObject({ ok: false, code: 'message_invalid' });
    expect((await say(actor, A, 'bell\u0007')).result).toMatchObject({ ok: false, code: 'message_invalid' });
    expect(actor.tableSeq).toBe(seq);
    // Exactly the limit, counted in characters (an emoji is one), passes; refusals used no allowance.
    expect((await say(actor, A, '🂡'.repeat(CHAT_TEXT_MAX))).result?.ok).toBe(true);
    await actor.stop();
  });

  it('answers a repeated command_id once: the message is not sent twice', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    const first = await say(actor, A, 'once', 'dup');
    const again = await say(actor, A, 'once', 'dup');
    expect(again.result).toEqual(first.result);
    expect(chats(h.publisher.toUser(B))).toHaveLength(1);
    await actor.stop();
  });

  it('refuses a chat from a connection that did not join', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    await expect(
      actor.submit({
        kind: 'client',
        connectionId: 'nope',
        userId: uid(9),
        frame: { type: 'chat', table_id: TABLE, text: 'hi' },
      }),
    ).rejects.toMatchObject({ code: 'not_joined' });
    await actor.stop();
  });
});
