import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectCode, playPassively, variantHand, variantSetup, type VariantHandSpec } from '../../test/helpers.js';
import type { Card } from '../cards.js';
import {
  bytesToHex,
  prepareDeck,
  reshuffle,
  shuffleDeckWithStream,
  toRevealRecord,
  type RevealRecord,
} from '../fairness/index.js';
import { Hand } from '../hand/hand.js';
import { tripleDraw27 } from './draw.js';
import type { Operation } from '../hand/operations.js';

const STAKES = { smallBlind: 1, bigBlind: 2 };

/**
 * Three players, button 3: seat 1 posts the small blind, seat 2 the big blind, seat 3 acts first.
 * s1 2c 3d 4h 5s 7c (the nuts), s2 2d 3h 4s 6c Kd, s3 8h 8s 9c Td Jc; the stub then starts 7d 6h 5h.
 */
const TD: VariantHandSpec = {
  game: '27td',
  stacks: { 1: 100, 2: 100, 3: 100 },
  button: 3,
  stakes: STAKES,
  deal: '2c 2d 8h 3d 3h 8s 4h 4s 9c 5s 6c Td 7c Kd Jc 7d 6h 5h',
};

function toFirstDraw(spec: VariantHandSpec): Hand {
  const h = variantHand(spec);
  h.call(3);
  h.call(1);
  h.check(2);
  return h;
}

describe('2-7 Triple Draw', () => {
  it('blinds, five down cards, then a draw round in position order', () => {
    const h = variantHand(TD);
    expect(h.operations.filter((o) => o.type === 'post').map((o) => (o as { kind: string }).kind)).toEqual([
      'small_blind',
      'big_blind',
    ]);
    expect(h.holeCards(1)).toEqual(['2c', '3d', '4h', '5s', '7c']);
    expect(h.actor).toBe(3);
    expect(h.validActions()).toMatchObject({ call: 2, raise: { min: 4, max: 4 }, discard: null });
    h.call(3);
    h.call(1);
    h.check(2);
    expect(h.phase).toBe('drawing');
    expect(h.operations.at(-1)).toEqual({ type: 'draw_round', street: 1, name: 'first_draw', actor: 1 });
    expect(h.validActions()).toMatchObject({ seat: 1, discard: { max: 5 }, check: false, bet: null });
  });

  it('replaces exactly the discarded cards from the stub, in turn, and hides them from others', () => {
    const h = toFirstDraw(TD);
    expect(h.standPat(1)).toEqual({ type: 'discard', seat: 1, cards: [] });
    expect(h.actor).toBe(2);
    const before = h.operations.length;
    expect(h.discard(2, ['Kd'])).toEqual({ type: 'discard', seat: 2, cards: ['Kd'] });
    expect(h.operationsSince(before)).toEqual([
      { type: 'discard', seat: 2, cards: ['Kd'] },
      { type: 'deal_hole', street: 1, seat: 2, cards: ['7d'], visibility: ['down'], indices: [15], draw: true },
    ]);
    expect(h.holeCards(2)).toEqual(['2d', '3h', '4s', '6c', '7d']);
    h.discard(3, ['8s', 'Jc']);
    expect(h.holeCards(3)).toEqual(['8h', '9c', 'Td', '6h', '5h']);
    // Others see how many cards a player holds, never which.
    expect(h.view(1).players.find((p) => p.seat === 3)!.hole).toEqual([null, null, null, null, null]);
    // The draw round is over: betting from the first seat after the button.
    expect(h.phase).toBe('betting');
    expect(h.actor).toBe(1);
    expect(h.validActions()!.bet).toEqual({ min: 2, max: 2 });
    playPassively(h);
    // Deuce-to-seven: 7-5-4-3-2 beats 7-6-4-3-2 and the nine low.
    expect(h.settlement!.pots[0]!.winners).toEqual([expect.objectContaining({ seat: 1, side: 'low' })]);
    expect(h.settlement!.hands.find((x) => x.seat === 1)!.names[0]).toBe('7-5-4-3-2 low');
  });

  it('refuses discards out of turn, of cards not held, twice the same card, and betting during a draw', () => {
    const h = toFirstDraw(TD);
    const snapshot = JSON.stringify(h.toJSON());
    expectCode(() => h.discard(2, ['Kd']), 'not_your_turn');
    expectCode(() => h.discard(1, ['Kd']), 'invalid_discard');
    expectCode(() => h.discard(1, ['2c', '2c']), 'invalid_discard');
    expectCode(() => h.discard(1, ['Zz' as Card]), 'invalid_discard');
    expectCode(() => h.check(1), 'not_betting');
    expectCode(() => h.bet(1, 2), 'not_betting');
    expect(JSON.stringify(h.toJSON())).toBe(snapshot);
    h.standPat(1);
    h.standPat(2);
    h.standPat(3);
    expectCode(() => h.discard(1, []), 'not_drawing');
  });

  it('a timeout in a draw stands pat', () => {
    const h = toFirstDraw(TD);
    expect(h.timeoutDecision()).toEqual({ type: 'discard', cards: [] });
    expect(h.applyTimeout()).toEqual({ type: 'discard', seat: 1, cards: [], timeout: true });
  });

  it('an all-in player still draws, and no hand is shown before the last draw', () => {
    const h = variantHand({ ...TD, stacks: { 1: 100, 2: 100, 3: 10 } });
    h.raise(3, 4);
    h.fold(1);
    h.raise(2, 6);
    h.raise(3, 8);
    h.raise(2, 10);
    h.call(3); // seat 3 is all-in for 10
    const types = h.operations.map((o) => o.type);
    expect(types.filter((t) => t === 'draw_round')).toHaveLength(1);
    // With one player left who can bet, the draws go on without betting rounds.
    h.standPat(2);
    h.discard(3, ['8s']);
    h.standPat(2);
    h.standPat(3);
    expect(h.isComplete).toBe(false);
    h.standPat(2);
    expect(h.operations.some((o) => o.type === 'show')).toBe(false);
    h.standPat(3);
    expect(h.isComplete).toBe(true);
    const ops = h.operations;
    const lastDiscard = ops.map((o) => o.type).lastIndexOf('discard');
    expect(ops.findIndex((o) => o.type === 'show')).toBeGreaterThan(lastDiscard);
  });
});

/** A six-handed hand in which every player throws all five cards on every draw, so the stub runs out. */
function sixHanded(seeded: boolean): { hand: Hand; record: () => RevealRecord } {
  const { commitment, order } = prepareDeck({
    handId: '11111111-2222-4333-8444-555555555555',
    serverSeed: Uint8Array.from({ length: 32 }, (_, i) => 200 - i),
    clientSeeds: [{ seat: 3, seed: new Uint8Array(32).fill(7) }],
    kind: 'standard52',
  });
  const spec: VariantHandSpec = {
    game: '27td',
    stacks: { 1: 500, 2: 500, 3: 500, 4: 500, 5: 500, 6: 500 },
    button: 6,
    stakes: STAKES,
    deck: order,
    ...(seeded ? { deckSeed: bytesToHex(commitment.deckSeed) } : {}),
  };
  const hand = new Hand(variantSetup(spec));
  return { hand, record: () => toRevealRecord(commitment, '27td', hand.dealtCards(), hand.reshuffles()) };
}

function drawEverything(h: Hand, until?: (h: Hand) => boolean): void {
  while (!h.isComplete && !(until?.(h) ?? false)) {
    const va = h.validActions()!;
    if (va.discard !== null) h.discard(va.seat, [...h.holeCards(va.seat)]);
    else if (va.check) h.check(va.seat);
    else h.call(va.seat);
  }
}

/** The stdlib Python verifier printed in docs/fairness.md, run on records (null without python3). */
function pythonVerify(records: readonly RevealRecord[]): boolean[] | null {
  if (spawnSync('python3', ['--version']).status !== 0) return null;
  const doc = readFileSync(new URL('../../../../docs/fairness.md', import.meta.url), 'utf8');
  const block = /```python\n([\s\S]*?)```/.exec(doc)![1]!;
  const driver = `${block}\nimport json, sys\nprint(json.dumps([verify(r) for r in json.load(sys.stdin)]))\n`;
  const out = spawnSync('python3', ['-c', driver], { input: JSON.stringify(records), encoding: 'utf8' });
  return JSON.parse(out.stdout) as boolean[];
}

describe('reshuffling the discards', () => {
  it('deals the stub out, reshuffles the muck (never the drawer’s own discards), and the reveal verifies', () => {
    const { hand, record } = sixHanded(true);
    const muck = new Set<Card>();
    const inHand = new Map<number, Set<Card>>();
    let lastDiscard: { seat: number; cards: readonly Card[] } | null = null;
    const check = (op: Operation): void => {
      if (op.type === 'deal_hole') {
        const held = inHand.get(op.seat) ?? new Set<Card>();
        for (const c of op.cards) held.add(c);
        inHand.set(op.seat, held);
        if (op.draw) for (const c of op.cards) muck.delete(c);
      } else if (op.type === 'discard') {
        lastDiscard = op;
        for (const c of op.cards) inHand.get(op.seat)!.delete(c);
      } else if (op.type === 'reshuffle') {
        // Every card put back was dead: discarded earlier, not held by anyone, not the drawer's own.
        for (const c of op.discards) {
          expect(muck.has(c)).toBe(true);
          expect(lastDiscard!.cards).not.toContain(c);
        }
        expect(op.discards).toHaveLength(muck.size);
        muck.clear();
      }
    };
    let seen = 0;
    drawEverything(hand, (h) => {
      for (const op of h.operationsSince(seen)) {
        check(op);
        // A discard's cards join the muck once its replacements are dealt.
        if (op.type === 'deal_hole' && op.draw && lastDiscard !== null) for (const c of lastDiscard.cards) muck.add(c);
      }
      seen = h.operations.length;
      return false;
    });
    const reshuffles = hand.operations.filter((o) => o.type === 'reshuffle');
    expect(reshuffles.length).toBeGreaterThanOrEqual(2);
    expect(hand.reshuffles().map((r) => r.atIndex)).toEqual(reshuffles.map((r) => (r as { atIndex: number }).atIndex));
    const dealt = hand.dealtCards();
    expect(dealt.map((d) => d.index)).toEqual([...Array(dealt.length).keys()]);
    expect(dealt.length).toBeGreaterThan(100);
    // Independent rebuild of every dealt card from the seeds and the recorded reshuffles.
    const rec = record();
    expect(rec.reshuffles).toHaveLength(reshuffles.length);
    const { order, stream } = shuffleDeckWithStream(Uint8Array.from(Buffer.from(rec.deck_seed, 'hex')), 'standard52');
    let deck: Card[] = order;
    for (const r of rec.reshuffles!) {
      deck = [
        ...deck.slice(0, r.at_index),
        ...reshuffle(stream, [...deck.slice(r.at_index), ...r.discards], 'standard52'),
      ];
    }
    for (const d of rec.dealt) expect(deck[d.index]).toBe(d.card);
    const python = pythonVerify([rec]);
    if (python !== null) expect(python).toEqual([true]);
    // Tampering is visible to the same verifier.
    const forged = structuredClone(rec);
    forged.reshuffles![0]!.discards.reverse();
    forged.reshuffles![0]!.discards.pop();
    if (python !== null) expect(pythonVerify([forged])).toEqual([false]);
  });

  it('without the deck seed a draw that needs a reshuffle is refused and changes nothing', () => {
    const { hand } = sixHanded(false);
    drawEverything(hand, (h) => h.phase === 'drawing' && h.validActions()!.discard!.max > 0 && needsReshuffle(h));
    const before = JSON.stringify(hand.toJSON());
    const seat = hand.actor!;
    expectCode(() => hand.discard(seat, [...hand.holeCards(seat)]), 'deck_seed_required');
    expect(JSON.stringify(hand.toJSON())).toBe(before);
  });

  it('a game with more seats than its deck can draw for refuses the draw before changing anything', () => {
    const crowded = { ...tripleDraw27, id: 'crowded-27td', maxSeats: 10 };
    const stacks = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((s) => [s, 100]));
    const { commitment, order } = prepareDeck({
      handId: '11111111-2222-4333-8444-555555555556',
      serverSeed: new Uint8Array(32).fill(3),
      clientSeeds: [],
      kind: 'standard52',
    });
    const setup = variantSetup({
      game: '27td',
      stacks,
      button: 10,
      stakes: STAKES,
      deck: order,
      deckSeed: bytesToHex(commitment.deckSeed),
    });
    const h = new Hand(setup, { rules: crowded });
    while (h.phase === 'betting') h.checkOrCall(h.actor!);
    // Fifty cards are out and nothing is mucked yet: the first player cannot draw five.
    const before = JSON.stringify(h.toJSON());
    expectCode(() => h.discard(h.actor!, [...h.holeCards(h.actor!)]), 'invalid_deck');
    expect(JSON.stringify(h.toJSON())).toBe(before);
  });

  it('a hand restored in the middle of a draw, after a reshuffle, plays forward to the same hand', () => {
    const { hand: original } = sixHanded(true);
    drawEverything(original);
    const final = JSON.stringify(original.toJSON());
    const ops = original.operations;
    const firstReshuffle = ops.findIndex((o) => o.type === 'reshuffle');
    const cut = ops.findIndex((o, i) => i > firstReshuffle && o.type === 'discard');
    const partial = Hand.replay(original.setup, ops.slice(0, cut));
    expect(partial.phase).toBe('drawing');
    const restored = Hand.fromJSON(JSON.parse(JSON.stringify(partial.toJSON())));
    expect(restored.state()).toEqual(partial.state());
    expect(restored.reshuffles()).toEqual(partial.reshuffles());
    drawEverything(restored);
    expect(JSON.stringify(restored.toJSON())).toBe(final);
  });
});

function needsReshuffle(h: Hand): boolean {
  // Cards dealt so far against the 52 of the deck: the next full draw cannot be covered.
  const dealt = h.dealtCards().length;
  return 52 - dealt < h.holeCards(h.actor!).length;
}
