// The command_id history over hands: a hand's commands are answered again the same while that hand
// or the next one is on, and after that the same command is refused with a typed error, never
// applied twice, across a restore from the checkpoint too. Single commands (dedupe of one action,
// refusals remembered) are in table-actor.test.ts.
import { describe, expect, it } from 'vitest';
import type { ActionFrame, BlindKeyFrame, BlindSharesFrame, BlindShuffleFrame } from '@felt/protocol';
import type { TableActor } from './table-actor.js';
import { harness, pass, restoreFromCheckpoint, TABLE, type Harness } from '../../test/support/fakes.js';
import { A, actorState, B, dealFirstHand, twoPlayers } from '../../test/support/actor.js';

const conn = (u: string) => (u === A ? 'ca' : 'cb');

/** The player whose turn it is and the frame that calls, under `commandId`. */
function turnOf(h: Harness, commandId: string): { user: string; frame: ActionFrame } {
  const s = actorState(h, A);
  const user = s.actor === 1 ? A : B;
  const mine = actorState(h, user);
  return {
    user,
    frame: {
      type: 'action',
      table_id: TABLE,
      hand_id: mine.hand_id!,
      turn_token: mine.hero!.turn_token!,
      command_id: commandId,
      action: 'call',
    },
  };
}

let ends = 0;

/** Whoever is to act checks or folds until `n` hands have completed; the next hand is then announced and dealt. */
async function playUntil(h: Harness, actor: TableActor, n: number): Promise<void> {
  for (let i = 0; i < 200 && h.hands.jobs.length < n; i++) {
    const s = actorState(h, A);
    const user = s.actor === 1 ? A : s.actor === 2 ? B : null;
    const mine = user !== null ? actorState(h, user) : null;
    if (user !== null && mine?.hero?.turn_token !== undefined && s.phase === 'betting') {
      await actor.submit({
        kind: 'client',
        connectionId: conn(user),
        userId: user,
        frame: {
          type: 'action',
          table_id: TABLE,
          hand_id: mine.hand_id!,
          turn_token: mine.hero.turn_token,
          command_id: `end-${ends++}`,
          action: mine.hero.valid_actions?.check === true ? 'check' : 'fold',
        },
      });
    } else {
      await pass(h, 250);
    }
  }
  expect(h.hands.jobs.length).toBe(n);
  // The pause and the seed window: the next hand is dealt.
  await pass(h, 2_500);
}

function recordedIds(actor: TableActor, user: string): string[] {
  return (actor.snapshot().commands[user] ?? []).map((r) => r.id);
}

describe('command_id history over hands', () => {
  it('a hand’s command is answered the same during the next hand, then refused (stale_hand) and never applied twice', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    await dealFirstHand(h);
    const { user, frame } = turnOf(h, 'keep-1');
    const first = await actor.submit({ kind: 'client', connectionId: conn(user), userId: user, frame });
    expect(first.result).toMatchObject({ ok: true });

    await playUntil(h, actor, 1);
    expect(actorState(h, A).hand_id).not.toBe(frame.hand_id);
    const seq = actor.tableSeq;
    const published = h.publisher.all.length;
    const inWindow = await actor.submit({ kind: 'client', connectionId: conn(user), userId: user, frame });
    expect(inWindow.result).toEqual(first.result);
    expect(actor.tableSeq).toBe(seq);
    expect(h.publisher.all.length).toBe(published);

    await playUntil(h, actor, 2);
    expect(recordedIds(actor, user)).not.toContain('keep-1');
    const seq2 = actor.tableSeq;
    const published2 = h.publisher.all.length;
    const ops = actor.snapshot().hand?.operations.length;
    const late = await actor.submit({ kind: 'client', connectionId: conn(user), userId: user, frame });
    expect(late.result).toMatchObject({ ok: false, code: 'stale_hand' });
    expect(actor.tableSeq).toBe(seq2);
    expect(h.publisher.all.length).toBe(published2);
    expect(actor.snapshot().hand?.operations.length).toBe(ops);
    // From now on that command_id is this refusal, remembered as any other.
    const later = await actor.submit({ kind: 'client', connectionId: conn(user), userId: user, frame });
    expect(later.result).toEqual(late.result);
    expect(actor.tableSeq).toBe(seq2);
  });

  it('the window survives a restore from the checkpoint: the original answer inside it, stale_hand after it', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    await dealFirstHand(h);
    const { user, frame } = turnOf(h, 'keep-2');
    const first = await actor.submit({ kind: 'client', connectionId: conn(user), userId: user, frame });
    expect(first.result).toMatchObject({ ok: true });
    await playUntil(h, actor, 1);
    await actor.stop();

    const restored = await restoreFromCheckpoint(h);
    await restored.submit({ kind: 'attach', connectionId: 'ca', streamId: 's2', userId: A });
    await restored.submit({ kind: 'attach', connectionId: 'cb', streamId: 's2', userId: B });
    const again = await restored.submit({ kind: 'client', connectionId: conn(user), userId: user, frame });
    expect(again.result).toEqual(first.result);

    await playUntil(h, restored, 2);
    const seq = restored.tableSeq;
    const late = await restored.submit({ kind: 'client', connectionId: conn(user), userId: user, frame });
    expect(late.result).toMatchObject({ ok: false, code: 'stale_hand' });
    expect(restored.tableSeq).toBe(seq);
    await restored.stop();
  });

  it('keeps a player’s hand commands for two hands at most, and the other commands as before', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    const sitIn = await actor.submit({
      kind: 'client',
      connectionId: 'ca',
      userId: A,
      frame: { type: 'sit_in', table_id: TABLE, command_id: 'table-cmd' },
    });
    await dealFirstHand(h);
    await playUntil(h, actor, 6);
    const { commands, handNo } = actor.snapshot();
    expect(handNo).toBe(6);
    for (const list of Object.values(commands)) {
      for (const r of list) if (r.hand !== undefined) expect(r.hand).toBeGreaterThanOrEqual(handNo - 1);
    }
    // Six hands were played, one fold each: only the last two hands' folds are left.
    expect(
      Object.values(commands)
        .flat()
        .filter((r) => r.hand !== undefined).length,
    ).toBeLessThanOrEqual(2);
    // A command that is not about a hand is not dropped with the hands.
    expect(recordedIds(actor, A)).toContain('table-cmd');
    const again = await actor.submit({
      kind: 'client',
      connectionId: 'ca',
      userId: A,
      frame: { type: 'sit_in', table_id: TABLE, command_id: 'table-cmd' },
    });
    expect(again.result).toEqual(sitIn.result);
  });
});

describe('engine-blind frames at a table that does not deal engine-blind hands', () => {
  it('are refused with not_engine_blind, change nothing, and their ids are kept per hand', async () => {
    const h = harness();
    const actor = await twoPlayers(h);
    await dealFirstHand(h);
    const handId = actorState(h, A).hand_id!;
    const x = (n: number) => n.toString(16).padStart(2, '0').repeat(32);
    const frames: (BlindKeyFrame | BlindShuffleFrame | BlindSharesFrame)[] = [
      { type: 'blind_key', table_id: TABLE, hand_id: handId, command_id: 'bk', proof: { Y: x(1), c: x(2), s: x(3) } },
      {
        type: 'blind_shuffle',
        table_id: TABLE,
        hand_id: handId,
        command_id: 'bs',
        output: [
          { c1: x(4), c2: x(5) },
          { c1: x(6), c2: x(7) },
        ],
        proof: { openings: [{ seed: x(8) }, { perm: [1, 0], rand: [x(9), x(10)] }] },
      },
      {
        type: 'blind_shares',
        table_id: TABLE,
        hand_id: handId,
        command_id: 'bh',
        shares: [{ position: 0, D: x(11), c: x(12), s: x(13) }],
      },
    ];
    const seq = actor.tableSeq;
    const published = h.publisher.all.length;
    const ops = actor.snapshot().hand?.operations.length;
    for (const frame of frames) {
      const answer = await actor.submit({ kind: 'client', connectionId: 'ca', userId: A, frame });
      expect(answer.result, frame.type).toEqual({
        ok: false,
        code: 'not_engine_blind',
        message: 'this table does not deal engine-blind hands',
      });
    }
    expect(actor.tableSeq).toBe(seq);
    expect(h.publisher.all.length).toBe(published);
    expect(actor.snapshot().hand?.operations.length).toBe(ops);
    // Remembered as commands about the hand: dropped with it, like an action.
    const kept = (actor.snapshot().commands[A] ?? []).filter((r) => ['bk', 'bs', 'bh'].includes(r.id));
    expect(kept).toHaveLength(3);
    for (const r of kept) expect(r.hand, r.id).toBe(actor.snapshot().handNo);
    await playUntil(h, actor, 2);
    expect(recordedIds(actor, A)).not.toContain('bk');
  });
});
