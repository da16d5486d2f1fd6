import { describe, expect, it } from 'vitest';
import type { HandVoided, TableMessage, TableState } from '@felt/protocol';
import { BlindParticipant } from '@felt/blind';
import { initialDeck } from '@felt/engine';
import { BlindPlayers, blindViewOf, frameOf, type BlindPlayer } from '../../test/support/blind-players.js';
import type { ClientCommandFrame } from '../table/commands.js';
import {
  createActor,
  flush,
  harness,
  pass,
  restoreFromCheckpoint,
  room,
  TABLE,
  uid,
  type Harness,
} from '../../test/support/fakes.js';
import { InlineProofChecker } from '../adapters/inline-proof-checker.js';
import type { TableActor } from './table-actor.js';

const A = uid(1);
const B = uid(2);
const C = uid(3);
const USERS = [A, B, C];
const BLIND_ROOM = { dealing: 'engine_blind', practiceChips: true } as const;

/** A small lambda keeps these quick: the crypto's own tests run the real one. */
function blindHarness(): Harness {
  const h = harness();
  return { ...h, deps: { ...h.deps, proofChecker: new InlineProofChecker(), blindLambda: 4 } };
}

async function blindTable(
  h: Harness,
  players: readonly Omit<BlindPlayer, 'connectionId'>[],
  config: object = BLIND_ROOM,
): Promise<{ actor: TableActor; table: BlindPlayers }> {
  let actor = createActor(
    h,
    room(
      players.map((p, i) => ({ userId: p.userId, name: `P${i + 1}`, seat: i + 1, stack: 500 })),
      config,
    ),
  );
  for (const [i, p] of players.entries()) {
    await actor.submit({ kind: 'attach', connectionId: `c${i}`, streamId: 's', userId: p.userId });
  }
  const table = new BlindPlayers(
    h,
    () => actor,
    players.map((p, i) => ({ ...p, connectionId: `c${i}` })),
  );
  return {
    get actor() {
      return actor;
    },
    set actor(a: TableActor) {
      actor = a;
    },
    table,
  };
}

function states(msgs: readonly TableMessage[]): TableState[] {
  return msgs.filter((m): m is TableState => m.type === 'table_state');
}

/** Plays until `done` holds: the players answer, time moves a little, again. */
async function playUntil(h: Harness, table: BlindPlayers, done: () => boolean, limitMs = 120_000): Promise<void> {
  for (let waited = 0; waited < limitMs && !done(); waited += 250) {
    await table.pump();
    if (done()) return;
    await pass(h, 250);
  }
  if (!done() && process.env['DBG']) {
    const u = table.players[0]!.userId;
    console.log(
      table.refusals,
      h.publisher
        .toUser(u)
        .map((m) => m.type)
        .join(' '),
    );
    console.log(
      JSON.stringify(
        {
          ...table.lastState(u),
          seats: undefined,
          dealing: {
            ...table.lastState(u)?.dealing,
            blind: { ...table.lastState(u)?.dealing?.blind, encrypted: undefined, keys: undefined },
          },
        },
        null,
        1,
      ).slice(0, 3000),
    );
  }
  expect(done()).toBe(true);
}

const sawType = (h: Harness, user: string, type: string) => () => h.publisher.toUser(user).some((m) => m.type === type);

describe('an engine-blind table (docs/fairness.md, "Engine-blind dealing")', () => {
  it('deals a hand its players shuffle, each reads only its own cards, and the showdown shows what they open', async () => {
    const h = blindHarness();
    const { table } = await blindTable(h, [{ userId: A }, { userId: B }, { userId: C }]);
    await playUntil(h, table, sawType(h, A, 'hand_result'));
    const msgs = h.publisher.toUser(A);
    // No seeds: no seed_commit and no seed_reveal, and no hole_cards_dealt (the table never held them).
    for (const u of USERS) {
      const types = new Set(h.publisher.toUser(u).map((m) => m.type));
      expect(types.has('seed_commit')).toBe(false);
      expect(types.has('seed_reveal')).toBe(false);
      expect(types.has('hole_cards_dealt')).toBe(false);
      expect(types.has('blind_step')).toBe(true);
    }
    const started = msgs.find((m) => m.type === 'hand_started')!;
    const handId = started.hand_id;
    // Each participant reads two cards; the showdown shows exactly those.
    const showdown = msgs.filter((m) => m.type === 'showdown').flatMap((m) => m.shown);
    const read = new Map<number, string[]>();
    for (const [i, u] of USERS.entries()) {
      const p = table.participant(u, handId)!;
      const view = table.lastState(u)!.dealing!.blind!;
      const cards = [...p.holeCards(blindViewOf(view)).values()];
      expect(cards).toHaveLength(2);
      read.set(i + 1, cards);
    }
    expect(new Set([...read.values()].flat()).size).toBe(6);
    for (const s of showdown) expect([...s.cards].sort()).toEqual([...read.get(s.seat)!].sort());
    expect(showdown.length).toBeGreaterThanOrEqual(1);
    const result = msgs.find((m) => m.type === 'hand_result')!;
    expect(result.players.reduce((sum, p) => sum + p.net, 0) + result.rake).toBe(0);
    // The record goes to the hands queue with the hand's log and no reveal.
    expect(h.hands.jobs).toHaveLength(1);
    expect(h.hands.jobs[0]!.payload).not.toHaveProperty('reveal');
    // The table_state says how it deals: engine-blind, not downgraded.
    const last = table.lastState(A)!;
    expect(last.dealing).toMatchObject({ mode: 'engine_blind', downgraded: null });
    expect(table.refusals).toEqual([]);
    for (const u of USERS) expect(table.participant(u, handId)!.failure).toBeNull();
  });

  it('never holds an unshown hole card: not in a checkpoint, an event to anyone, a log event or a job', async () => {
    const h = blindHarness();
    const { table } = await blindTable(h, [{ userId: A }, { userId: B, folds: true }, { userId: C }]);
    await playUntil(h, table, sawType(h, A, 'hand_result'));
    const handId = h.publisher.toUser(A).find((m) => m.type === 'hand_started')!.hand_id;
    const folded = [
      ...table
        .participant(B, handId)!
        .holeCards(blindViewOf(table.lastState(B)!.dealing!.blind!))
        .values(),
    ];
    expect(folded).toHaveLength(2);
    const everything = [
      ...h.checkpoints.written,
      JSON.stringify(USERS.map((u) => h.publisher.toUser(u))),
      JSON.stringify(h.publisher.toSpectators()),
      JSON.stringify(h.hands.jobs),
      JSON.stringify(h.hands.voids),
    ].join('\n');
    for (const card of folded) expect(everything).not.toContain(`"${card}"`);
  });

  it('voids a hand whose player goes silent while the deck is shuffled, blames them, and deals standard from then on', async () => {
    const h = blindHarness();
    const { table } = await blindTable(h, [{ userId: A }, { userId: B, silent: true }, { userId: C }]);
    await playUntil(h, table, sawType(h, A, 'hand_voided'));
    const voided = h.publisher.toUser(A).find((m): m is HandVoided => m.type === 'hand_voided')!;
    expect(voided.reason).toBe('engine_blind_failed');
    expect(voided.blind_failure).toEqual({ reason: 'timeout', step: 'key', seats: [2] });
    expect(voided.stacks).toEqual([
      { seat: 1, stack: 500 },
      { seat: 2, stack: 500 },
      { seat: 3, stack: 500 },
    ]);
    // Recorded as a void for the ledger, which moves nothing.
    expect(h.hands.voids.map((v) => v.reason)).toEqual(['engine_blind_failed']);
    // The banner, then a standard hand with its seed commitment.
    await playUntil(h, table, sawType(h, A, 'seed_commit'));
    const last = states(h.publisher.toUser(A)).at(-1)!;
    expect(last.dealing).toMatchObject({
      mode: 'standard',
      downgraded: { hand_id: voided.hand_id, failure: { step: 'key', seats: [2] } },
      blind: null,
    });
  });

  it('voids a hand in play when a share of the board is late, and every stake goes back', async () => {
    const h = blindHarness();
    // B stops answering once the hand is dealt: the flop's shares never come.
    const { table } = await blindTable(h, [{ userId: A }, { userId: B, silentAfter: 'hand_started' }]);
    await playUntil(h, table, sawType(h, A, 'hand_voided'));
    const voided = h.publisher.toUser(A).find((m): m is HandVoided => m.type === 'hand_voided')!;
    expect(voided.blind_failure).toMatchObject({ reason: 'timeout', step: 'shares', seats: [2] });
    expect(voided.stacks.map((s) => s.stack)).toEqual([500, 500]);
    expect(h.hands.voids).toHaveLength(1);
    expect(h.hands.jobs).toEqual([]);
  });

  it('a new owner continues a hand from the checkpoint taken mid-shuffle', async () => {
    const h = blindHarness();
    const box = await blindTable(h, [{ userId: A }, { userId: B }, { userId: C }]);
    const { table } = box;
    // Until the first shuffle is in.
    await playUntil(h, table, () => (table.lastState(A)?.dealing?.blind?.shuffled ?? 0) >= 1);
    await box.actor.stop();
    box.actor = await restoreFromCheckpoint(h);
    for (const [i, u] of USERS.entries()) {
      await box.actor.submit({ kind: 'attach', connectionId: `c${i}`, streamId: 's2', userId: u });
    }
    await flush();
    await playUntil(h, table, sawType(h, A, 'hand_result'));
    expect(h.publisher.toUser(A).some((m) => m.type === 'hand_voided')).toBe(false);
  });

  it('fails a hand on a shuffle whose proof does not verify, blaming its sender, and takes nothing of it', async () => {
    const h = blindHarness();
    const { actor, table } = await blindTable(h, [{ userId: A, silent: true }, { userId: B }]);
    // B sends its key; A's key is sent by hand, then A shuffles with a proof missing an opening.
    await pass(h, 2_000);
    await table.pump();
    const blind = table.lastState(A)!.dealing!.blind!;
    const setup = {
      tableId: TABLE,
      handId: blind.hand_id,
      seats: blind.seats,
      cards: initialDeck('standard52'),
      lambda: blind.lambda,
    };
    const a = new BlindParticipant(setup, 1);
    const send = async (frame: ClientCommandFrame) =>
      (await actor.submit({ kind: 'client', connectionId: 'c0', userId: A, frame })).result;
    const [key] = a.next(blindViewOf(table.lastState(A)!.dealing!.blind!));
    expect(await send(frameOf(blind.hand_id, key!))).toMatchObject({ ok: true });
    const [shuffle] = a.next(blindViewOf(table.lastState(A)!.dealing!.blind!));
    expect(shuffle!.kind).toBe('shuffle');
    const frame = frameOf(blind.hand_id, shuffle!) as Extract<ClientCommandFrame, { type: 'blind_shuffle' }>;
    const bad = { ...frame, proof: { openings: frame.proof.openings.slice(1) } };
    expect(await send(bad)).toMatchObject({ ok: true });
    const voided = h.publisher.toUser(B).find((m): m is HandVoided => m.type === 'hand_voided')!;
    expect(voided.blind_failure).toEqual({ reason: 'bad_proof', step: 'shuffle', seats: [1] });
    // Nothing of the bad shuffle was relayed or kept.
    expect(h.publisher.toUser(B).some((m) => m.type === 'blind_step' && m.shuffle !== undefined)).toBe(false);
  });

  it('refuses what the hand cannot take, changing nothing', async () => {
    const h = blindHarness();
    const { actor, table } = await blindTable(h, [
      { userId: A, silent: true },
      { userId: B, silent: true },
    ]);
    await pass(h, 2_000);
    const blind = table.lastState(A)!.dealing!.blind!;
    expect(blind.phase).toBe('keys');
    const send = async (userId: string, connectionId: string, frame: object) =>
      (await actor.submit({ kind: 'client', connectionId, userId, frame: frame as never })).result;
    const shares = {
      type: 'blind_shares',
      table_id: TABLE,
      hand_id: blind.hand_id,
      shares: [{ position: 0, D: '0'.repeat(64), c: '0'.repeat(64), s: '0'.repeat(64) }],
    };
    expect(await send(A, 'c0', shares)).toMatchObject({
      ok: false,
      code: 'blind_refused',
      reason: 'blind_wrong_phase',
    });
    expect(await send(A, 'c0', { ...shares, hand_id: uid(99) })).toMatchObject({ ok: false, code: 'stale_hand' });
    expect(
      await send(A, 'c0', { type: 'client_seed', table_id: TABLE, hand_id: blind.hand_id, seed: 'a'.repeat(64) }),
    ).toMatchObject({ ok: false, code: 'seed_refused' });
    expect(table.lastState(A)!.dealing!.blind).toEqual(blind);
  });

  it('refuses blind messages at a table that deals standard', async () => {
    const h = blindHarness();
    const { actor } = await blindTable(h, [{ userId: A }, { userId: B }], {});
    await pass(h, 2_000);
    const out = await actor.submit({
      kind: 'client',
      connectionId: 'c0',
      userId: A,
      frame: {
        type: 'blind_key',
        table_id: TABLE,
        hand_id: uid(9),
        proof: { Y: '0'.repeat(64), c: '0'.repeat(64), s: '0'.repeat(64) },
      },
    });
    expect(out.result).toMatchObject({ ok: false, code: 'not_engine_blind' });
  });
});
