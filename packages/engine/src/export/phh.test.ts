import { describe, expect, it } from 'vitest';
import { playPassively, quickHand, refHoldem, refOptions, variantHand } from '../../test/helpers.js';
import { ExportError } from '../errors.js';
import { getGameRules } from '../games/registry.js';
import type { BetLimit } from '../betting/structure.js';
import { simulateHand } from '../sim/simulate.js';
import { parsePhh, replayPhh, toPhh } from './phh.js';
import { parseToml } from './toml.js';

describe('PHH export', { timeout: 60_000 }, () => {
  it('writes pokerkit notation: positions from the small blind, cbr to-amounts, sm at showdown', () => {
    const h = quickHand({
      stacks: { 1: 200, 4: 300, 6: 250 },
      button: 6,
      stakes: { smallBlind: 1, bigBlind: 2, ante: 1 },
      hole: { 1: 'AsKs', 4: 'QdQc', 6: '7h2c' },
      board: 'Kd9d4c8h3s',
    });
    h.fold(6);
    h.raise(1, 8);
    h.call(4);
    h.bet(1, 10);
    h.raise(4, 30);
    h.call(1);
    h.check(1);
    h.check(4);
    h.check(1);
    h.bet(4, 50);
    h.call(1);
    expect(toPhh(h)).toBe(
      [
        'variant = "NT"',
        'ante_trimming_status = true',
        'antes = [1, 1, 1]',
        'blinds_or_straddles = [1, 2, 0]',
        'min_bet = 2',
        'starting_stacks = [200, 300, 250]',
        'actions = [',
        '  "d dh p1 AsKs",',
        '  "d dh p2 QdQc",',
        '  "d dh p3 7h2c",',
        '  "p3 f",',
        '  "p1 cbr 8",',
        '  "p2 cc",',
        '  "d db Kd9d4c",',
        '  "p1 cbr 10",',
        '  "p2 cbr 30",',
        '  "p1 cc",',
        '  "d db 8h",',
        '  "p1 cc",',
        '  "p2 cc",',
        '  "d db 3s",',
        '  "p1 cc",',
        '  "p2 cbr 50",',
        '  "p1 cc",',
        '  "p2 sm QdQc",',
        '  "p1 sm AsKs",',
        ']',
        'hand = "00000000-0000-4000-8000-000000000001"',
        'seats = [1, 4, 6]',
        'seat_count = 10',
        'players = ["p1", "p4", "p6"]',
        'finishing_stacks = [290, 211, 249]',
        'winnings = [179, 0, 0]',
        '',
      ].join('\n'),
    );
  });

  it('writes heads-up forced bets reversed, with the big blind as p1', () => {
    const h = quickHand({
      stacks: { 2: 100, 7: 100 },
      button: 7,
      stakes: { smallBlind: 1, bigBlind: 2, bigBlindAnte: 2 },
    });
    h.fold(7);
    const text = toPhh(h);
    const f = parseToml(text);
    expect(f.seats).toEqual([2, 7]);
    // Effective: p1 (seat 2, big blind) posts 2 and the ante, p2 (button) posts 1; written reversed.
    expect(f.blinds_or_straddles).toEqual([1, 2]);
    expect(f.antes).toEqual([0, 2]);
    expect(f.ante_trimming_status).toBe(false);
    expect(f.actions).toEqual(['d dh p1 ' + h.holeCards(2).join(''), 'd dh p2 ' + h.holeCards(7).join(''), 'p2 f']);
  });

  it('has no code for pot-limit Hold’em', () => {
    const h = quickHand({ stacks: { 1: 100, 2: 100 }, button: 1, limit: 'pl' });
    expect(() => toPhh(h)).toThrow(ExportError);
  });

  it('round-trips: parse, replay through the engine, same actions and finishing stacks', () => {
    let showdowns = 0;
    let sidePots = 0;
    for (const limit of ['nl', 'fl'] as const) {
      for (let i = 0; i < 150; i++) {
        const { hand } = simulateHand({
          rules: refHoldem,
          limit,
          players: { min: 2, max: 10 },
          rake: i % 2 === 0,
          seed: `phh-${limit}-${i}`,
          startedAt: '2026-03-04T05:06:07Z',
        });
        const text = toPhh(hand);
        const { hand: replayed, phh } = replayPhh(text, refOptions);
        expect(replayed.isComplete).toBe(true);
        const order = replayed.positionOrder();
        const finals = new Map(replayed.settlement!.players.map((p) => [p.seat, p.finalStack]));
        expect(order.map((s) => finals.get(s))).toEqual(phh.finishingStacks);
        expect(toPhh(replayed)).toBe(text);
        if (hand.settlement!.showdown) showdowns++;
        if (hand.settlement!.pots.length > 1) sidePots++;
      }
    }
    expect(showdowns).toBeGreaterThan(50);
    expect(sidePots).toBeGreaterThan(25);
  });

  it('refuses a file whose actions the engine would not take', () => {
    const h = quickHand({ stacks: { 1: 100, 2: 100, 3: 100 }, button: 3 });
    h.fold(3);
    h.fold(1);
    const text = toPhh(h);
    expect(() => replayPhh(text.replace('"p1 f"', '"p2 f"'), refOptions)).toThrow(
      expect.objectContaining({ code: 'replay_mismatch' }),
    );
    expect(() => parsePhh('variant = "NT"\nactions = [')).toThrow(expect.objectContaining({ code: 'parse' }));
  });

  it.each([
    ['omaha', 'pl', 'PO'],
    ['omaha8', 'fl', 'FO/8'],
    ['shortdeck', 'nl', 'NS'],
    ['stud', 'fl', 'F7S'],
    ['stud8', 'fl', 'F7S/8'],
    ['razz', 'fl', 'FR'],
    ['27td', 'fl', 'F2L3D'],
  ] as const)('%s %s round-trips as %s', (game, limit: BetLimit, code) => {
    const rules = getGameRules(game);
    let replayed = 0;
    let refused = 0;
    for (let i = 0; i < 60; i++) {
      const { hand } = simulateHand({
        rules,
        limit,
        players: { min: 2, max: rules.maxSeats },
        rake: i % 2 === 0,
        seed: `phh-${game}-${i}`,
      });
      const text = toPhh(hand);
      expect(parsePhh(text).variant).toBe(code);
      if (hand.reshuffles().length > 0) {
        // The dealer lines repeat cards that went back into the stub: only the deck seed rebuilds them.
        expect(() => replayPhh(text)).toThrow(expect.objectContaining({ code: 'unsupported' }));
        refused++;
        continue;
      }
      const { hand: again, phh } = replayPhh(text);
      const finals = new Map(again.settlement!.players.map((p) => [p.seat, p.finalStack]));
      expect(again.positionOrder().map((s) => finals.get(s))).toEqual(phh.finishingStacks);
      expect(toPhh(again)).toBe(text);
      replayed++;
    }
    expect(replayed).toBeGreaterThan(30);
    if (game === '27td') expect(refused).toBeGreaterThan(0);
  });

  it('writes Stud with bring_in, pb, per-street dealing lines, and per-viewer hidden cards', () => {
    const h = variantHand({
      game: 'stud',
      stacks: { 1: 100, 2: 100, 3: 100 },
      button: 3,
      stakes: { smallBlind: 0, bigBlind: 0, ante: 1, bringIn: 1, smallBet: 2, bigBet: 4 },
      deal: 'As Ks Qs Ad Kd Qd 2d 2c Kh 7c 2h Ac',
    });
    h.bringIn(2);
    h.call(3);
    h.fold(1);
    const f = parseToml(toPhh(h));
    expect(f).toMatchObject({ variant: 'F7S', antes: [1, 1, 1], bring_in: 1, small_bet: 2, big_bet: 4 });
    expect(f.blinds_or_straddles).toBeUndefined();
    expect((f.actions as string[]).slice(0, 8)).toEqual([
      'd dh p1 AsAd2d',
      'd dh p2 KsKd2c',
      'd dh p3 QsQdKh',
      'p2 pb',
      'p3 cc',
      'p1 f',
      // Seat 1 folded: fourth street goes to the two players left, from the top of the stub.
      'd dh p2 7c',
      'd dh p3 2h',
    ]);
    // Seat 1's own view: the others' down cards are unknown, their up cards are not.
    const mine = parseToml(toPhh(h, { viewer: 1 })).actions as string[];
    expect(mine.slice(0, 3)).toEqual(['d dh p1 AsAd2d', 'd dh p2 ????2c', 'd dh p3 ????Kh']);
    expect(() => replayPhh(toPhh(h, { viewer: 1 }))).toThrow(expect.objectContaining({ code: 'unsupported' }));
  });

  it('writes a draw round as pokerkit does: every discard first, then the replacements', () => {
    const h = variantHand({
      game: '27td',
      stacks: { 1: 100, 2: 100, 3: 100 },
      button: 3,
      stakes: { smallBlind: 1, bigBlind: 2 },
      deal: '2c 2d 8h 3d 3h 8s 4h 4s 9c 5s 6c Td 7c Kd Jc 7d 6h 5h',
    });
    h.call(3);
    h.call(1);
    h.check(2);
    h.standPat(1);
    h.discard(2, ['Kd']);
    h.discard(3, ['8s', 'Jc']);
    playPassively(h);
    const actions = parseToml(toPhh(h)).actions as string[];
    const at = actions.indexOf('p1 sd');
    expect(actions.slice(at, at + 5)).toEqual(['p1 sd', 'p2 sd Kd', 'p3 sd 8sJc', 'd dh p2 7d', 'd dh p3 6h5h']);
    const theirs = parseToml(toPhh(h, { viewer: null })).actions as string[];
    expect(theirs.slice(at, at + 5)).toEqual(['p1 sd', 'p2 sd ??', 'p3 sd ????', 'd dh p2 ??', 'd dh p3 ????']);
    expect(replayPhh(toPhh(h)).hand.settlement).toEqual(h.settlement);
  });
});
