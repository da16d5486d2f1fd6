import { describe, expect, it } from 'vitest';
import { refHoldem } from '../../test/helpers.js';
import { initialDeck } from '../cards.js';
import { TableError } from '../errors.js';
import type { Hand } from '../hand/hand.js';
import { SeededRng, randomUnit, randomUuid, shuffleInPlace } from '../rng.js';
import { randomAction } from '../sim/simulate.js';
import { Table, type TableConfig } from './table.js';

const config: TableConfig = { game: 'holdem', limit: 'nl', stakes: { smallBlind: 1, bigBlind: 2 }, maxSeats: 6 };
const rng = new SeededRng('table');
const deck = () => shuffleInPlace(rng, initialDeck('standard52'));
let n = 0;
const id = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

function newTable(c: Partial<TableConfig> = {}): Table {
  return new Table({ ...config, ...c }, { rules: refHoldem });
}

/** Plays the hand out: everyone checks or calls. */
function passive(hand: Hand): Hand {
  while (!hand.isComplete) {
    const seat = hand.actor!;
    if (hand.canCheck(seat)) hand.check(seat);
    else hand.call(seat);
  }
  return hand;
}

function foldAround(hand: Hand): Hand {
  while (!hand.isComplete) {
    const seat = hand.actor!;
    if (hand.canFold(seat)) hand.fold(seat);
    else hand.check(seat);
  }
  return hand;
}

function play(table: Table, how: (h: Hand) => Hand = foldAround): Hand {
  const hand = how(table.startHand({ handId: id(), deck: deck() }));
  table.finishHand(hand);
  return hand;
}

const posts = (h: Hand) => h.operations.flatMap((o) => (o.type === 'post' ? [`${o.seat}:${o.kind}:${o.amount}`] : []));

describe('Table', { timeout: 60_000 }, () => {
  it('starts a fresh table with everyone in and moves the button clockwise', () => {
    const t = newTable();
    t.sit(1, 'a', 100);
    t.sit(2, 'b', 100);
    t.sit(4, 'c', 100);
    const h1 = play(t);
    expect(h1.setup.button).toBe(1);
    expect(posts(h1)).toEqual(['2:small_blind:1', '4:big_blind:2']);
    const h2 = play(t);
    expect(h2.setup.button).toBe(2);
    expect(posts(h2)).toEqual(['4:small_blind:1', '1:big_blind:2']);
    const h3 = play(t);
    expect(h3.setup.button).toBe(4);
  });

  it('heads-up the button is the small blind', () => {
    const t = newTable();
    t.sit(3, 'a', 100);
    t.sit(5, 'b', 100);
    const h = play(t);
    expect(h.setup.button).toBe(3);
    expect(posts(h)).toEqual(['3:small_blind:1', '5:big_blind:2']);
    expect(h.operations.find((o) => o.type === 'street')).toMatchObject({ actor: 3 });
  });

  it('a new player waits for the big blind, or posts to play at once', () => {
    const t = newTable();
    t.sit(1, 'a', 100);
    t.sit(2, 'b', 100);
    t.sit(3, 'c', 100);
    play(t); // button 1, blinds 2 and 3
    t.sit(5, 'waiter', 100);
    t.sit(6, 'poster', 100, { post: true });
    // Button 2, small blind 3, big blind: the next seat after 3 that plays or waits is 5.
    const plan = t.planNextHand()!;
    expect(plan).toMatchObject({ button: 2, smallBlind: 3, bigBlind: 5 });
    // The poster sits between the big blind and the button: dealt in with a live post.
    expect(plan.dealtIn).toEqual([1, 2, 3, 5, 6]);
    const h = play(t);
    expect(posts(h)).toEqual(['3:small_blind:1', '5:big_blind:2', '6:live_post:2']);
    // Once in, nobody posts again.
    expect(posts(play(t))).toEqual(['5:small_blind:1', '6:big_blind:2']);
  });

  it('a poster in the small blind or on the button waits a hand', () => {
    const t = newTable();
    t.sit(1, 'a', 100);
    t.sit(3, 'b', 100);
    t.sit(5, 'c', 100);
    play(t); // button 1
    t.sit(4, 'poster', 100, { post: true });
    // Button 3: the poster at 4 sits between the button and the small blind: not dealt in this hand.
    expect(t.planNextHand()).toMatchObject({ button: 3, smallBlind: 5, bigBlind: 1, dealtIn: [1, 3, 5] });
  });

  it('a player who sat out owes the blinds that passed: live big blind plus dead small blind', () => {
    const t = newTable();
    for (const s of [1, 2, 3, 4]) t.sit(s, `p${s}`, 100);
    play(t); // button 1, blinds 2, 3
    t.sitOut(4);
    play(t); // button 2, blinds 3, 1: the big blind passed seat 4
    expect(t.seat(4)).toMatchObject({ missedBigBlind: true, missedSmallBlind: true });
    t.sitIn(4, { post: true });
    // Button 3, blinds 1 and 2: seat 4 sits between the button and the small blind and must wait.
    expect(t.planNextHand()!.dealtIn).toEqual([1, 2, 3]);
    play(t);
    const h = play(t); // button 1, blinds 2 and 3; seat 4 posts
    expect(posts(h)).toEqual(['2:small_blind:1', '3:big_blind:2', '4:live_post:2', '4:dead_blind:1']);
    expect(t.seat(4)).toMatchObject({ missedBigBlind: false, missedSmallBlind: false, status: 'active' });
    const dead = h.settlement!.pots[0]!;
    expect(dead.amount).toBeGreaterThanOrEqual(5);
  });

  it('a player who missed only the small blind owes only that, dead', () => {
    const t = newTable();
    for (const s of [1, 2, 3, 4]) t.sit(s, `p${s}`, 100);
    play(t); // button 1, blinds 2, 3
    play(t); // button 2, blinds 3, 4: seat 4 posts its big blind
    t.sitOut(4);
    play(t); // button 3: the small blind passes seat 4 and lands on 1; the big blind had already gone by
    expect(t.seat(4)).toMatchObject({ missedSmallBlind: true, missedBigBlind: false });
    t.sitIn(4, { post: true });
    const h = play(t); // button 1, blinds 2 and 3; seat 4 is between the big blind and the button
    expect(posts(h)).toEqual(['2:small_blind:1', '3:big_blind:2', '4:dead_blind:1']);
    expect(t.seat(4)).toMatchObject({ missedSmallBlind: false, status: 'active' });
  });

  it('a returning player may wait for the big blind instead of posting', () => {
    const t = newTable();
    for (const s of [1, 2, 3, 4]) t.sit(s, `p${s}`, 100);
    play(t);
    t.sitOut(4);
    play(t);
    t.sitIn(4);
    expect(t.seat(4)!.status).toBe('waiting_for_big_blind');
    // Button 3, small blind 1, big blind 2: not seat 4 yet.
    expect(t.planNextHand()!.dealtIn).toEqual([1, 2, 3]);
    play(t);
    // Button 1, small blind 2, big blind: 3 plays, so 3; then next hand 4.
    expect(t.planNextHand()).toMatchObject({ bigBlind: 3 });
    play(t);
    expect(t.planNextHand()).toMatchObject({ bigBlind: 4, dealtIn: [1, 2, 3, 4] });
  });

  it('sits a player out after three consecutive timeouts', () => {
    const t = newTable();
    for (const s of [1, 2, 3]) t.sit(s, `p${s}`, 100);
    const timeoutsFor = (seat: number) => (hand: Hand) => {
      while (!hand.isComplete) {
        const actor = hand.actor!;
        if (actor === seat) hand.applyTimeout();
        else if (hand.canCheck(actor)) hand.check(actor);
        else hand.call(actor);
      }
      return hand;
    };
    play(t, timeoutsFor(3));
    const after1 = t.seat(3)!.consecutiveTimeouts;
    expect(after1).toBeGreaterThanOrEqual(1);
    while (t.seat(3)!.status === 'active') play(t, timeoutsFor(3));
    expect(t.seat(3)!.consecutiveTimeouts).toBeGreaterThanOrEqual(3);
    expect(t.seat(3)!.status).toBe('sitting_out');
    // A voluntary action resets the count.
    t.sitIn(3);
    expect(t.seat(3)!.consecutiveTimeouts).toBe(0);
  });

  it('defers leaving and top-ups to the end of the hand, and refuses bad seating', () => {
    const t = newTable();
    t.sit(1, 'a', 100);
    t.sit(2, 'b', 100);
    expect(() => t.sit(2, 'c', 100)).toThrow(TableError);
    expect(() => t.sit(7, 'c', 100)).toThrow(expect.objectContaining({ code: 'invalid_seat' }));
    expect(() => t.sit(3, 'a', 100)).toThrow(expect.objectContaining({ code: 'player_already_seated' }));
    const hand = t.startHand({ handId: id(), deck: deck() });
    expect(() => t.startHand({ handId: id(), deck: deck() })).toThrow(
      expect.objectContaining({ code: 'hand_in_progress' }),
    );
    expect(t.leave(2)).toBeNull();
    t.addChips(1, 50);
    expect(t.seat(1)!.stack).toBe(100);
    foldAround(hand);
    const { left } = t.finishHand(hand);
    expect(left).toEqual([
      { seat: 2, playerId: 'b', cashOut: hand.settlement!.players.find((p) => p.seat === 2)!.finalStack },
    ]);
    expect(t.seat(2)).toBeUndefined();
    expect(t.seat(1)!.stack).toBe(hand.settlement!.players.find((p) => p.seat === 1)!.finalStack + 50);
    expect(t.planNextHand()).toBeNull();
  });

  it('round-trips through JSON mid-hand', () => {
    const t = newTable();
    for (const s of [1, 2, 3]) t.sit(s, `p${s}`, 100);
    play(t);
    const hand = t.startHand({ handId: id(), deck: deck() });
    const copy = Table.fromJSON(JSON.parse(JSON.stringify(t.toJSON())), { rules: refHoldem });
    expect(copy.toJSON()).toEqual(t.toJSON());
    expect(() => Table.fromJSON({ format: 'felt-table/0' })).toThrow(
      expect.objectContaining({ code: 'invalid_snapshot' }),
    );
    passive(hand);
    copy.finishHand(hand);
    t.finishHand(hand);
    expect(copy.toJSON()).toEqual(t.toJSON());
  });

  it('conserves chips over many hands of seating changes, posts, timeouts and all-ins', () => {
    const r = new SeededRng('table-soak');
    const t = newTable({
      maxSeats: 9,
      stakes: { smallBlind: 1, bigBlind: 2, bigBlindAnte: 2 },
      rake: { percent: 5, cap: 4 },
    });
    let bank = 0;
    let rake = 0;
    const ids = new Map<number, string>();
    for (let hand = 0; hand < 400; hand++) {
      // Seating changes between hands.
      for (let seat = 1; seat <= 9; seat++) {
        const s = t.seat(seat);
        const x = randomUnit(r);
        if (s === undefined) {
          if (x < 0.3) {
            const pid = randomUuid(r);
            ids.set(seat, pid);
            t.sit(seat, pid, 50 + Math.floor(x * 500), { post: randomUnit(r) < 0.5 });
            bank += 50 + Math.floor(x * 500);
          }
        } else if (x < 0.04) bank -= t.leave(seat)!;
        else if (x < 0.1) t.sitOut(seat);
        else if (x < 0.25 && s.status === 'sitting_out') t.sitIn(seat, { post: randomUnit(r) < 0.5 });
        else if (s.stack === 0 && x < 0.5) {
          t.addChips(seat, 100);
          t.sitIn(seat);
          bank += 100;
        }
      }
      if (t.planNextHand() === null) continue;
      const h = t.startHand({ handId: randomUuid(r), deck: shuffleInPlace(r, initialDeck('standard52')) });
      while (!h.isComplete) {
        if (randomUnit(r) < 0.1) h.applyTimeout();
        else h.act(h.actor!, randomAction(h, r)!);
      }
      rake += h.settlement!.rake.amount;
      t.finishHand(h);
      const onTable = t.seats().reduce((a, s) => a + s.stack, 0);
      expect(onTable + rake).toBe(bank);
    }
  });

  it('takes new stakes from the next hand (a tournament level), not in the hand being played, and keeps them in its snapshot', () => {
    const t = newTable();
    t.sit(1, 'a', 1_000);
    t.sit(2, 'b', 1_000);
    t.sit(3, 'c', 1_000);
    const h1 = t.startHand({ handId: id(), deck: deck() });
    t.setStakes([{ smallBlind: 5, bigBlind: 10, bigBlindAnte: 10 }]);
    // The hand in progress keeps the stakes it was dealt with.
    expect(posts(h1)).toEqual(['2:small_blind:1', '3:big_blind:2']);
    foldAround(h1);
    t.finishHand(h1);
    const restored = Table.fromJSON(JSON.parse(JSON.stringify(t.toJSON())), { rules: refHoldem });
    expect(restored.currentVariant.stakes).toEqual({ smallBlind: 5, bigBlind: 10, bigBlindAnte: 10 });
    const h2 = play(t);
    expect(posts(h2)).toEqual(['3:small_blind:5', '1:big_blind:10', '1:bb_ante:10']);
    expect(posts(play(restored))).toEqual(posts(h2));
    // Stakes the game cannot play are refused and change nothing.
    expect(() => t.setStakes([{ smallBlind: 5, bigBlind: -10 }])).toThrow();
    expect(() => t.setStakes([])).toThrow(TableError);
    expect(t.currentVariant.stakes.bigBlind).toBe(10);
    // A table whose stakes never changed keeps its snapshot as before.
    expect(newTable().toJSON()).not.toHaveProperty('stakes');
  });
});
