import type { HandVoided, TableState } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { blindHand, dealingView, HAND, hex32, seat, TABLE, tableState } from '../test-support/fixtures.js';
import { blindFailureText, dealingModel, voidText, type BlindHeroKnowledge } from './blind-dealing.js';

const NAMES = new Map([
  [1, 'alice'],
  [2, 'hero'],
  [4, 'carol'],
]);

const inHand = (n: number) => seat(n, { in_hand: true, folded: false, all_in: false, cards: [null, null] });

/** Seats 1, 2 (the hero) and 4 in an engine-blind hand being dealt. */
function dealingState(blind: Parameters<typeof blindHand>[0], over: Partial<TableState> = {}): TableState {
  return tableState({
    hand_id: HAND,
    hand_seq: 1,
    phase: 'dealing',
    seats: [inHand(1), inHand(2), inHand(4)],
    hero: { seat: 2, cards: [] },
    dealing: dealingView({ blind: blindHand({ seats: [1, 2, 4], ...blind }) }),
    ...over,
  });
}

const model = (state: TableState, hero: BlindHeroKnowledge | null = null) => dealingModel(state, NAMES, hero)!;

describe('dealingModel', () => {
  it('is null at a table whose room deals standard, and badges an engine-blind room between hands', () => {
    expect(dealingModel(tableState(), NAMES, null)).toBeNull();
    const idle = model(tableState({ dealing: dealingView() }));
    expect(idle).toEqual({ engineBlind: true, blindHand: false, progress: null, downgraded: null, audit: null });
  });

  it('counts the keys in, and says whom they wait on: the others, or the hero’s own device', () => {
    const owed = model(dealingState({ phase: 'keys', keys: { '1': hex32(1) } })).progress!;
    expect(owed).toMatchObject({ step: 'keys', done: 1, total: 3, waitingFor: [4], heroOwes: true });
    expect(owed.text).toBe('Exchanging keys 1/3 — your device is working on it');
    const sent = model(
      dealingState({
        phase: 'keys',
        keys: { '1': hex32(1), '2': hex32(2) },
        owed: { key: false, shuffle: true, positions: [] },
      }),
    ).progress!;
    expect(sent).toMatchObject({ done: 2, total: 3, waitingFor: [4], heroOwes: false });
    expect(sent.text).toBe('Exchanging keys 2/3 — waiting for carol');
  });

  it('numbers the shuffle under way and names its shuffler', () => {
    const keys = { '1': hex32(1), '2': hex32(2), '4': hex32(4) };
    const owed = { key: false, shuffle: true, positions: [] };
    const second = model(dealingState({ phase: 'shuffle', keys, owed, shuffled: 1, shuffler: 4 })).progress!;
    expect(second).toMatchObject({ step: 'shuffle', done: 1, total: 3, waitingFor: [4], heroOwes: false });
    expect(second.text).toBe('Shuffling 2/3 — waiting for carol');
    const hers = model(dealingState({ phase: 'shuffle', keys, owed, shuffled: 0, shuffler: 2 })).progress!;
    expect(hers).toMatchObject({ done: 0, waitingFor: [], heroOwes: true });
    expect(hers.text).toBe('Shuffling 1/3 — your device is working on it');
    // A seat the table does not name is "Seat N".
    const unnamed = dealingModel(
      dealingState({ phase: 'shuffle', keys, owed, shuffled: 2, shuffler: 4 }),
      new Map(),
      null,
    )!.progress!;
    expect(unnamed.text).toBe('Shuffling 3/3 — waiting for Seat 4');
  });

  it('opens cards: waits on the shares it can see (the board’s, the hero’s own), never on another hole card', () => {
    const positions = [
      // Seat 1's hole card: this viewer sees none of its shares, and blames nobody for them.
      { position: 0, to: 1, due: 1, shares: {} },
      // The hero's own: alice sent hers, carol owes hers.
      { position: 1, to: 2, due: 1, shares: { '1': hex32(11) } },
      // Opened already.
      { position: 5, to: 'board' as const, due: 1, card: 'Qs', shares: {} },
    ];
    const cards = model(
      dealingState({ phase: 'play', positions, owed: { key: false, shuffle: false, positions: [] } }),
    ).progress!;
    expect(cards).toMatchObject({ step: 'cards', done: 0, total: 0, waitingFor: [4], heroOwes: false });
    expect(cards.text).toBe('Opening cards — waiting for carol');
    const board = [{ position: 6, to: 'board' as const, due: 1, shares: { '1': hex32(1), '4': hex32(4) } }];
    const mine = model(
      dealingState({ phase: 'play', positions: board, owed: { key: false, shuffle: false, positions: [6] } }),
    );
    expect(mine.progress).toMatchObject({
      waitingFor: [],
      heroOwes: true,
      text: 'Opening cards — your device is working on it',
    });
    const done = model(
      dealingState({ phase: 'play', positions: [], owed: { key: false, shuffle: false, positions: [] } }),
    );
    expect(done.progress!.text).toBe('Opening cards');
  });

  it('shows no progress outside the dealing phase, for a failed hand, or for another hand’s view', () => {
    const betting = model(dealingState({ phase: 'play' }, { phase: 'betting' }));
    expect(betting).toMatchObject({ blindHand: true, progress: null });
    expect(model(dealingState({ phase: 'failed' })).progress).toBeNull();
    const stale = model(dealingState({ hand_id: '1b7f1c1e-2a8e-4d55-9b9a-1c2d3e4f5a6b' }));
    expect(stale).toMatchObject({ blindHand: false, progress: null });
  });

  it('the banner after a failure: which step, whose seat, and standard dealing from now on', () => {
    const state = tableState({
      dealing: {
        mode: 'standard',
        downgraded: { hand_id: HAND, failure: { reason: 'timeout', step: 'shuffle', seats: [4] } },
        blind: null,
      },
    });
    const m = model(state);
    expect(m.engineBlind).toBe(false);
    expect(m.downgraded).toEqual({
      handId: HAND,
      failure: { reason: 'timeout', step: 'shuffle', seats: [4] },
      text: 'Engine-blind dealing stopped: the shuffle from carol did not arrive in time. This table now deals standard hands.',
    });
  });

  it('warns when the player’s device refused a step of the hand on the table, and only then', () => {
    const state = dealingState({ phase: 'shuffle', shuffled: 1, shuffler: 4 });
    const audit = { step: 'shuffle' as const, seat: 1, detail: 'shuffle proof does not verify' };
    expect(model(state, { handId: HAND, holeCards: [], audit }).audit).toBe(
      'Your device found that the shuffle from alice does not check out, so it stopped answering: this hand will be voided.',
    );
    const deck = { step: 'deck' as const, seat: null, detail: 'deck differs' };
    expect(model(state, { handId: HAND, holeCards: [], audit: deck }).audit).toBe(
      'Your device found that the table’s deck does not check out, so it stopped answering: this hand will be voided.',
    );
    expect(model(state, { handId: 'another', holeCards: [], audit }).audit).toBeNull();
    expect(model(state, { handId: HAND, holeCards: [], audit: null }).audit).toBeNull();
  });
});

describe('blind failure sentences', () => {
  const voided = (over: Partial<HandVoided>): HandVoided => ({
    type: 'hand_voided',
    table_id: TABLE,
    table_seq: 20,
    hand_id: HAND,
    hand_seq: 0,
    reason: 'engine_blind_failed',
    stacks: [],
    ...over,
  });

  it('names the step, how it failed and every seat blamed: the hero as “you”, nobody as “a player”', () => {
    const bad = voided({ blind_failure: { reason: 'bad_proof', step: 'shares', seats: [1, 4] } });
    expect(voidText(bad, NAMES, 2)).toBe(
      'Hand voided: the card shares from alice, carol did not verify. Every stake was returned.',
    );
    expect(blindFailureText({ reason: 'not_a_card', step: 'shares', seats: [2] }, NAMES, 2)).toBe(
      'the card shares from you did not open to a card',
    );
    expect(blindFailureText({ reason: 'timeout', step: 'key', seats: [] }, NAMES)).toBe(
      'the key from a player did not arrive in time',
    );
  });

  it('says only that the stacks went back for any other void, or a blind failure without its detail', () => {
    expect(voidText(voided({ reason: 'room_closed' }), NAMES)).toBe('Hand voided: stacks returned');
    expect(voidText(voided({}), NAMES)).toBe('Hand voided: stacks returned');
    expect(voidText(null, NAMES)).toBe('Hand voided: stacks returned');
  });
});
