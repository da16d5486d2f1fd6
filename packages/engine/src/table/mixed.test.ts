import { describe, expect, it } from 'vitest';
import { expectCode, playPassively } from '../../test/helpers.js';
import type { Stakes } from '../betting/structure.js';
import { bytesToHex, prepareDeck } from '../fairness/index.js';
import { MIXED_FORMATS } from '../games/mixed.js';
import type { Hand } from '../hand/hand.js';
import { SeededRng, randomBytes, randomUnit, randomUuid } from '../rng.js';
import { checkHandProperties } from '../sim/soak.js';
import { randomAction } from '../sim/simulate.js';
import { Table, type TableConfig } from './table.js';

const BLINDS: Stakes = { smallBlind: 1, bigBlind: 2, smallBet: 2, bigBet: 4 };
const STUD: Stakes = { smallBlind: 0, bigBlind: 0, ante: 1, bringIn: 1, smallBet: 2, bigBet: 4 };

const horse: TableConfig = {
  game: 'horse',
  limit: 'fl',
  stakes: BLINDS,
  maxSeats: 6,
  rotation: {
    order: MIXED_FORMATS.horse.map((e) => (['razz', 'stud', 'stud8'].includes(e.game) ? { ...e, stakes: STUD } : e)),
    handsPerVariant: 2,
  },
};

const rng = new SeededRng('mixed');

/** Starts the table's next hand with a fresh provably fair deck of the current game's kind. */
function start(t: Table): Hand {
  const handId = randomUuid(rng);
  const { commitment, order } = prepareDeck({
    handId,
    serverSeed: randomBytes(rng, 32),
    clientSeeds: [],
    kind: t.rules.deck,
  });
  return t.startHand({ handId, deck: order, deckSeed: bytesToHex(commitment.deckSeed) });
}

function seated(config: TableConfig, seats = [1, 2, 3, 4]): Table {
  const t = new Table(config);
  for (const s of seats) t.sit(s, `p${s}`, 500);
  return t;
}

describe('mixed games', { timeout: 60_000 }, () => {
  it('HORSE rotates in order after handsPerVariant hands, and only between hands', () => {
    const t = seated(horse);
    const games: string[] = [];
    for (let i = 0; i < 12; i++) {
      const hand = start(t);
      games.push(hand.setup.game);
      // During the hand the table still plays that hand's game, whatever the rotation says next.
      expect(t.rules.id).toBe(hand.setup.game);
      expect(t.mixed!.current.game).toBe(hand.setup.game);
      playPassively(hand);
      expect(t.rules.id).toBe(hand.setup.game);
      t.finishHand(hand);
    }
    expect(games).toEqual([
      'holdem',
      'holdem',
      'omaha8',
      'omaha8',
      'razz',
      'razz',
      'stud',
      'stud',
      'stud8',
      'stud8',
      'holdem',
      'holdem',
    ]);
  });

  it('each game plays with its own overrides: limit, stakes, forced bets', () => {
    const t = seated({
      game: '8game',
      limit: 'fl',
      stakes: BLINDS,
      maxSeats: 6,
      rotation: {
        order: MIXED_FORMATS['8game'].map((e) =>
          ['razz', 'stud', 'stud8'].includes(e.game)
            ? { ...e, stakes: { ...STUD, bringIn: 2, smallBet: 6, bigBet: 12 } }
            : e.game === 'holdem' && e.limit === 'nl'
              ? { ...e, stakes: { smallBlind: 5, bigBlind: 10 } }
              : e,
        ),
        handsPerVariant: 1,
      },
    });
    const seen: Record<string, Hand> = {};
    for (let i = 0; i < 8; i++) {
      const hand = start(t);
      seen[`${hand.setup.game}/${hand.setup.limit}`] = hand;
      playPassively(hand);
      t.finishHand(hand);
    }
    expect(Object.keys(seen)).toEqual([
      '27td/fl',
      'holdem/fl',
      'omaha8/fl',
      'razz/fl',
      'stud/fl',
      'stud8/fl',
      'holdem/nl',
      'omaha/pl',
    ]);
    expect(
      seen['holdem/nl']!.operations.filter((o) => o.type === 'post').map((o) => (o as { amount: number }).amount),
    ).toEqual([5, 10]);
    expect(seen['razz/fl']!.operations.find((o) => o.type === 'bring_in')).toMatchObject({ amount: 2 });
    expect(seen['omaha/pl']!.holeCards(1)).toHaveLength(4);
    // 2-7 Triple Draw reshuffles inside the fairness derivation, so the table insists on the deck seed.
    const draw = seated({ ...t.config, rotation: { ...t.config.rotation!, handsPerVariant: 1 } });
    expect(draw.rules.id).toBe('27td');
    expectCode(() => draw.startHand({ handId: randomUuid(rng), deck: [] }), 'deck_seed_required');
  });

  it('refuses a table larger than any game of its rotation allows', () => {
    // 2-7 Triple Draw seats six.
    expectCode(() => new Table({ ...horse, game: '8game', rotation: undefined!, maxSeats: 7 }), 'invalid_seat');
    expectCode(
      () =>
        new Table({
          ...horse,
          rotation: {
            order: [
              { game: 'holdem', limit: 'fl', maxSeats: 4 },
              { game: 'razz', limit: 'fl', stakes: STUD },
            ],
            handsPerVariant: 3,
          },
        }),
      'invalid_seat',
    );
    // Stakes a game cannot play with are refused up front, not at its turn in the rotation.
    expectCode(
      () => new Table({ ...horse, rotation: { order: [{ game: 'stud', limit: 'fl' }], handsPerVariant: 1 } }),
      'invalid_stakes',
    );
  });

  it('serializes the current and the next game, and a restored table rotates on exactly the same way', () => {
    const t = seated(horse);
    for (let i = 0; i < 3; i++) {
      const h = playPassively(start(t));
      t.finishHand(h);
    }
    const hand = start(t); // the fourth hand: omaha8, its second
    const json = JSON.parse(JSON.stringify(t.toJSON())) as ReturnType<Table['toJSON']>;
    expect(json.mixed).toMatchObject({
      current: { index: 1, game: 'omaha8', limit: 'fl' },
      next: { index: 2, game: 'razz', limit: 'fl', stakes: STUD },
      handsPlayed: 1,
      handsPerVariant: 2,
    });
    const copy = Table.fromJSON(json);
    expect(copy.toJSON()).toEqual(t.toJSON());
    playPassively(hand);
    t.finishHand(hand);
    copy.finishHand(hand);
    expect(copy.mixed).toEqual(t.mixed);
    expect(copy.mixed!.current.game).toBe('razz');
    // A rotation state that cannot be (a game the rotation does not have there) is refused.
    expectCode(
      () => Table.fromJSON({ ...json, mixed: { ...json.mixed!, current: { ...json.mixed!.current, game: 'stud' } } }),
      'invalid_snapshot',
    );
    expectCode(() => Table.fromJSON({ ...json, mixed: { ...json.mixed!, handsPlayed: 2 } }), 'invalid_snapshot');
    expectCode(() => Table.fromJSON({ ...json, mixed: null }), 'invalid_snapshot');
  });

  it('in games without blinds a new player is dealt in at once, and the button still moves', () => {
    const t = new Table({ game: 'stud', limit: 'fl', stakes: STUD, maxSeats: 8 });
    t.sit(2, 'a', 100);
    t.sit(5, 'b', 100);
    const h1 = playPassively(start(t));
    t.finishHand(h1);
    t.sit(7, 'c', 100); // waits for no big blind: there is none
    const plan = t.planNextHand()!;
    expect(plan).toMatchObject({ dealtIn: [2, 5, 7], smallBlind: null, bigBlind: null });
    expect(plan.forcedBets.map((f) => f.kind)).toEqual(['ante', 'ante', 'ante']);
    expect(plan.button).not.toBe(h1.setup.button);
    const sd = new Table({
      game: 'shortdeck',
      limit: 'nl',
      stakes: { smallBlind: 0, bigBlind: 2, ante: 1, buttonBlind: 2 },
      maxSeats: 6,
    });
    sd.sit(1, 'a', 100);
    sd.sit(3, 'b', 100);
    sd.sit(4, 'c', 100);
    expect(sd.planNextHand()!.forcedBets.map((f) => `${f.seat}:${f.kind}`)).toEqual([
      '1:ante',
      '3:ante',
      '4:ante',
      '1:button_blind',
    ]);
  });

  it('conserves chips over hundreds of 8-Game hands with players coming, going, sitting out and timing out', () => {
    const r = new SeededRng('mixed-soak');
    const t = new Table({
      game: '8game',
      limit: 'fl',
      stakes: { ...BLINDS, bringIn: 1, ante: 1 },
      maxSeats: 6,
      rake: { percent: 5, cap: 6 },
      rotation: { order: MIXED_FORMATS['8game'], handsPerVariant: 3 },
    });
    let bank = 0;
    let rake = 0;
    const games = new Set<string>();
    for (let n = 0; n < 320; n++) {
      for (let seat = 1; seat <= 6; seat++) {
        const s = t.seat(seat);
        const x = randomUnit(r);
        if (s === undefined) {
          if (x < 0.3) {
            const chips = 20 + Math.floor(x * 400);
            t.sit(seat, randomUuid(r), chips, { post: randomUnit(r) < 0.5 });
            bank += chips;
          }
        } else if (x < 0.03) bank -= t.leave(seat)!;
        else if (x < 0.08) t.sitOut(seat);
        else if (x < 0.2 && s.status === 'sitting_out') t.sitIn(seat, { post: randomUnit(r) < 0.5 });
        else if (s.stack === 0 && x < 0.5) {
          t.addChips(seat, 100);
          t.sitIn(seat);
          bank += 100;
        }
      }
      if (t.planNextHand() === null) continue;
      const h = start(t);
      games.add(h.setup.game);
      while (!h.isComplete) {
        if (randomUnit(r) < 0.05) h.applyTimeout();
        else h.act(h.actor!, randomAction(h, r)!);
      }
      expect(checkHandProperties(h)).toEqual([]);
      rake += h.settlement!.rake.amount;
      t.finishHand(h);
      expect(t.seats().reduce((a, s) => a + s.stack, 0) + rake).toBe(bank);
    }
    expect(games.size).toBe(7);
  });
});
