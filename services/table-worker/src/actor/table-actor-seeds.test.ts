// Client seeds that arrive together are applied together and committed once (TableActor.seedInGroup):
// one checkpoint for all of them, each seed answered as it would have been alone and only once the
// checkpoint stands, a refusal or a repeat in the group answered on its own, a failed checkpoint
// failing (and undoing) every seed of the group, and no command of one user overtaking another of theirs.
import { describe, expect, it } from 'vitest';
import type { ClientSeedFrame, SeedCommitMessage } from '@felt/protocol';
import type { TableActor } from './table-actor.js';
import { createActor, flush, harness, pass, room, TABLE, uid, type Harness } from '../../test/support/fakes.js';
import { A, actorState, B, C } from '../../test/support/actor.js';
import type { TableOutcome } from './table-command.js';

const conn = (u: string) => `c-${u}`;

async function threePlayers(h: Harness, limits?: { mailboxMax?: number }): Promise<TableActor> {
  if (limits) (h.deps as { limits?: unknown }).limits = limits;
  const actor = createActor(
    h,
    room([
      { userId: A, name: 'Ann', seat: 1, stack: 200 },
      { userId: B, name: 'Bob', seat: 2, stack: 200 },
      { userId: C, name: 'Cat', seat: 3, stack: 200 },
    ]),
  );
  for (const u of [A, B, C]) await actor.submit({ kind: 'attach', connectionId: conn(u), streamId: 's1', userId: u });
  return actor;
}

/** Runs the pause before the first hand: its seed_commit is out, the window open. */
async function announced(h: Harness): Promise<SeedCommitMessage> {
  h.time.advance(1_000);
  await flush();
  const commit = h.publisher.toUser(A).find((m): m is SeedCommitMessage => m.type === 'seed_commit');
  if (!commit) throw new Error('no seed_commit');
  return commit;
}

function seed(actor: TableActor, user: string, handId: string, id: string, fill = id): Promise<TableOutcome> {
  const frame: ClientSeedFrame = {
    type: 'client_seed',
    table_id: TABLE,
    hand_id: handId,
    seed: fill.charCodeAt(0).toString(16).padStart(2, '0').repeat(32),
    command_id: id,
  };
  return actor.submit({ kind: 'client', connectionId: conn(user), userId: user, frame });
}

/** The seeds the table holds for the hand being dealt or played, by seat. */
function seedsHeld(actor: TableActor): number[] {
  const s = actor.snapshot();
  return (s.pending?.clientSeeds ?? s.meta?.clientSeeds ?? []).map((x) => x.seat).sort();
}

describe('client seeds that arrive together', () => {
  it('are committed once, each answered at that commit, and the hand is dealt with all of them', async () => {
    const h = harness();
    const actor = await threePlayers(h);
    const commit = await announced(h);
    const saves = h.checkpoints.saves;
    const outcomes = await Promise.all([
      seed(actor, A, commit.hand_id, 'sa'),
      seed(actor, B, commit.hand_id, 'sb'),
      seed(actor, C, commit.hand_id, 'sc'),
    ]);
    // One checkpoint for the three (one each before the group).
    expect(h.checkpoints.saves - saves).toBe(1);
    const at = outcomes[0].tableSeq;
    for (const o of outcomes) expect(o.result).toEqual({ ok: true, atTableSeq: at });
    // Every human seat sent one: the deal did not wait for the window.
    expect(actorState(h, A).phase).toBe('betting');
    expect(seedsHeld(actor)).toEqual([1, 2, 3]);
    // The checkpoint holds each answer, so a retry on any worker gets it and applies nothing.
    const again = await seed(actor, B, commit.hand_id, 'sb');
    expect(again.result).toEqual({ ok: true, atTableSeq: at });
    expect(h.checkpoints.saves - saves).toBe(1);
    for (const u of [A, B, C]) {
      expect((actor.snapshot().commands[u] ?? []).map((r) => r.id)).toEqual([
        `s${u === A ? 'a' : u === B ? 'b' : 'c'}`,
      ]);
    }
  });

  it('answer a refusal and a repeat in the group on their own, and take the others', async () => {
    const h = harness();
    const actor = await threePlayers(h);
    const commit = await announced(h);
    // Alone, the first seed waits for the others' for at most the gather time.
    const firstSent = seed(actor, A, commit.hand_id, 'a1');
    await pass(h, 100);
    const first = await firstSent;
    expect(first.result).toMatchObject({ ok: true });
    const saves = h.checkpoints.saves;
    const [repeat, stale, taken] = await Promise.all([
      seed(actor, A, commit.hand_id, 'a1'),
      seed(actor, B, 'ffffffff-0000-4000-8000-000000000000', 'b1'),
      seed(actor, C, commit.hand_id, 'c1'),
    ]);
    expect(repeat.result).toEqual(first.result);
    expect(stale.result).toMatchObject({ ok: false, code: 'stale_hand' });
    expect(taken.result).toMatchObject({ ok: true });
    expect(h.checkpoints.saves - saves).toBe(1);
    // B's seat has not sent a seed that counts: the window is still open for it.
    expect(seedsHeld(actor)).toEqual([1, 3]);
    // The refusal was remembered in that checkpoint: asked again, the same answer and nothing saved.
    const staleAgain = await seed(actor, B, 'ffffffff-0000-4000-8000-000000000000', 'b1');
    expect(staleAgain.result).toEqual(stale.result);
    expect(h.checkpoints.saves - saves).toBe(1);
    const late = await seed(actor, B, commit.hand_id, 'b2');
    expect(late.result).toMatchObject({ ok: true });
    expect(actorState(h, A).phase).toBe('betting');
  });

  it('a group whose checkpoint fails fails whole: nothing published, no seed kept, all of them taken when sent again', async () => {
    const h = harness();
    const actor = await threePlayers(h);
    const commit = await announced(h);
    const published = h.publisher.all.length;
    h.checkpoints.fail = true;
    const failed = await Promise.allSettled([
      seed(actor, A, commit.hand_id, 'sa'),
      seed(actor, B, commit.hand_id, 'sb'),
      seed(actor, C, commit.hand_id, 'sc'),
    ]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(h.publisher.all.length).toBe(published);
    expect(seedsHeld(actor)).toEqual([]);
    h.checkpoints.fail = false;
    const outcomes = await Promise.all([
      seed(actor, A, commit.hand_id, 'sa'),
      seed(actor, B, commit.hand_id, 'sb'),
      seed(actor, C, commit.hand_id, 'sc'),
    ]);
    for (const o of outcomes) expect(o.result).toMatchObject({ ok: true });
    expect(seedsHeld(actor)).toEqual([1, 2, 3]);
  });

  it('a save written but not confirmed undoes every seed of the group', async () => {
    const h = harness();
    const actor = await threePlayers(h);
    const commit = await announced(h);
    const seq = actor.tableSeq;
    h.checkpoints.failAfterWrite = true;
    const sent = Promise.allSettled([seed(actor, A, commit.hand_id, 'sa'), seed(actor, B, commit.hand_id, 'sb')]);
    // C owes a seed too: the two wait for it for the gather time, then go.
    await pass(h, 100);
    const failed = await sent;
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(actor.tableSeq).toBe(seq);
    expect(seedsHeld(actor)).toEqual([]);
    expect(actor.snapshot().commands[A] ?? []).toEqual([]);
  });

  it("never lets a user's seed overtake that user's earlier command, nor one of a connection that is not attached in", async () => {
    const h = harness();
    const actor = await threePlayers(h);
    const commit = await announced(h);
    const written = h.checkpoints.written.length;
    const chat = actor.submit({
      kind: 'client',
      connectionId: conn(A),
      userId: A,
      frame: { type: 'chat', table_id: TABLE, text: 'gl', command_id: 'hi' },
    });
    const seeds = [
      seed(actor, A, commit.hand_id, 'sa'),
      seed(actor, B, commit.hand_id, 'sb'),
      seed(actor, C, commit.hand_id, 'sc'),
    ];
    // Someone with no connection at the table, last: in B's and C's group, and refused there alone.
    const frame: ClientSeedFrame = {
      type: 'client_seed',
      table_id: TABLE,
      hand_id: commit.hand_id,
      seed: 'ab'.repeat(32),
    };
    const stranger = actor.submit({ kind: 'client', connectionId: 'c-nobody', userId: uid(9), frame });
    const [, a, b, c] = await Promise.all([chat, ...seeds]);
    await expect(stranger).rejects.toMatchObject({ code: 'not_joined' });
    for (const o of [a, b, c]) expect(o!.result).toMatchObject({ ok: true });
    // The checkpoints in the order they were saved (states and event batches alternate): A had a
    // command waiting, so A's seed went in after it, alone; B's and C's (and the stranger's) together.
    const saved = h.checkpoints.written
      .slice(written)
      .filter((_, i) => i % 2 === 0)
      .map((state) => {
        const commands = (JSON.parse(state) as { commands: Record<string, { id: string }[]> }).commands;
        return [A, B, C].map((u) => (commands[u] ?? []).map((r) => r.id).join(',')).join(' | ');
      });
    expect(saved).toEqual(['hi |  | ', 'hi,sa |  | ', 'hi,sa | sb | sc']);
    expect(seedsHeld(actor)).toEqual([1, 2, 3]);
  });

  it('counts every seed of a group against the table’s mailbox bound', async () => {
    const h = harness();
    const actor = await threePlayers(h, { mailboxMax: 2 });
    const commit = await announced(h);
    const sent = Promise.allSettled([
      seed(actor, A, commit.hand_id, 'sa'),
      seed(actor, B, commit.hand_id, 'sb'),
      seed(actor, C, commit.hand_id, 'sc'),
    ]);
    await pass(h, 100);
    const results = await sent;
    expect(results[0].status).toBe('fulfilled');
    expect(results[1].status).toBe('fulfilled');
    expect(results[2]).toMatchObject({ status: 'rejected', reason: { code: 'busy' } });
  });
  it('wait for the seeds still owed at most 50 ms, and go at once when another command comes', async () => {
    const h = harness();
    const actor = await threePlayers(h);
    const commit = await announced(h);
    let answered = false;
    const lone = seed(actor, A, commit.hand_id, 'sa').then((o) => {
      answered = true;
      return o;
    });
    await pass(h, 49, 7);
    expect(answered).toBe(false);
    await pass(h, 1, 1);
    expect((await lone).result).toMatchObject({ ok: true });
    // B's seed gathers; C's chat comes after it, so the group is sent at once, ahead of the chat.
    const written = h.checkpoints.written.length;
    const bSeed = seed(actor, B, commit.hand_id, 'sb');
    const chat = actor.submit({
      kind: 'client',
      connectionId: conn(C),
      userId: C,
      frame: { type: 'chat', table_id: TABLE, text: 'gl', command_id: 'cc' },
    });
    const [b] = await Promise.all([bSeed, chat]);
    expect(b.result).toMatchObject({ ok: true });
    const saved = h.checkpoints.written
      .slice(written)
      .filter((_, i) => i % 2 === 0)
      .map((state) => Object.keys((JSON.parse(state) as { commands: Record<string, unknown> }).commands).length);
    // First B's seed (A's and B's answers kept), then C's chat (C's too).
    expect(saved).toEqual([2, 3]);
  });

  it('never wait past the seed window: a seed sent just before it closes is taken', async () => {
    const h = harness();
    const actor = await threePlayers(h);
    const commit = await announced(h);
    // FAST's window is 1.5 s; 20 ms of it are left.
    await pass(h, 1_480, 20);
    const late = seed(actor, A, commit.hand_id, 'sa');
    await pass(h, 19, 19);
    expect((await late).result).toMatchObject({ ok: true });
  });
});
