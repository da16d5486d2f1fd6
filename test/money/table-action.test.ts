import { describe, expect, it } from 'vitest';
import { SeededRng, Table, randomBytes, randomUuid, prepareDeck } from '@felt/engine';
import { tableAction } from './sim-table.ts';

/**
 * SimTable's random player must only choose legal actions: the money suites (hands-queues, money
 * properties) seed it from random room ids, so one illegal choice fails a random CI run.
 */
describe('SimTable tableAction', () => {
  it('never chooses an action the engine refuses, including all-in after a short all-in that did not reopen', () => {
    const rng = new SeededRng('table-action');
    let refusedBefore = 0;
    for (let h = 0; h < 4000; h++) {
      // Uneven stacks make short all-ins common: the deep stack then faces a raise that does not reopen.
      const table = new Table({
        game: 'holdem',
        limit: 'nl',
        stakes: { smallBlind: 1, bigBlind: 2 },
        maxSeats: 3,
        rake: null,
      });
      table.sit(1, 'a', 150, { post: true });
      table.sit(2, 'b', 3 + (h % 7), { post: true });
      table.sit(3, 'c', 150, { post: true });
      if (table.planNextHand() === null) continue;
      const handId = randomUuid(rng);
      const { order } = prepareDeck({
        handId,
        serverSeed: randomBytes(rng, 32),
        clientSeeds: [],
        kind: table.rules.deck,
      });
      const hand = table.startHand({ handId, deck: order, startedAt: '2026-12-01T12:00:00.000Z' });
      while (!hand.isComplete) {
        const seat = hand.actor;
        if (seat === null) throw new Error('stuck hand');
        // What the old choice (all-in regardless) would have done here.
        if (!hand.canAct(seat, { type: 'all_in' })) refusedBefore++;
        const action = tableAction(hand, seat, rng);
        expect(hand.canAct(seat, action), JSON.stringify(action)).toBe(true);
        hand.act(seat, action);
      }
      table.finishHand(hand);
    }
    // The situation the fix is for does arise in this many hands.
    expect(refusedBefore).toBeGreaterThan(0);
  });
});
