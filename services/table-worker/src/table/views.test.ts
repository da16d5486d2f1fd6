// Every recipient's view of one moment, built from the spectators' view: each member sees their own
// cards and nobody else's, and every key and state_hash equals the protocol's (JavaScript) stateHash.
import { describe, expect, it } from 'vitest';
import { stateHash } from '@felt/protocol';
import { createActor, harness, room, uid } from '../../test/support/fakes.js';
import { dealFirstHand } from '../../test/support/actor.js';
import { finishSnapshot, TableViews } from './views.js';
import type { LiveTable } from './live-table.js';

describe('TableViews', () => {
  it('a member’s view is the spectators’ plus their own cards and hero; the hashes are the protocol’s', async () => {
    const h = harness();
    const players = [1, 2, 3].map((n) => ({ userId: uid(n), name: `P${n}`, seat: n, stack: 200 }));
    const actor = createActor(h, room(players));
    for (const p of players) {
      await actor.submit({ kind: 'attach', connectionId: `c${p.seat}`, streamId: 's', userId: p.userId });
    }
    await dealFirstHand(h);
    const live = (actor as unknown as { live: LiveTable }).live;
    expect(live.hand).not.toBeNull();
    const views = new TableViews(live, 1_000);
    const spectator = views.prepare(null);
    expect(spectator.body.hero).toBeUndefined();
    expect(spectator.body.seats.flatMap((s) => s.cards ?? []).every((c) => c === null)).toBe(true);
    for (const p of players) {
      const view = views.prepare(p.userId);
      expect(view.body.hero?.seat).toBe(p.seat);
      expect(view.body.hero?.cards).toHaveLength(2);
      for (const s of view.body.seats) {
        if (s.seat === p.seat) expect(s.cards).toEqual(view.body.hero?.cards);
        else expect((s.cards ?? []).every((c) => c === null)).toBe(true);
      }
      // Nothing but the own seat and hero differs from the spectators' view.
      const { seats, hero: _hero, ...rest } = view.body;
      const { seats: specSeats, ...specRest } = spectator.body;
      expect(rest).toEqual(specRest);
      expect(seats.map((s) => ({ ...s, cards: s.seat === p.seat ? null : s.cards }))).toEqual(
        specSeats.map((s) => ({ ...s, cards: s.seat === p.seat ? null : s.cards })),
      );
      expect(view.key).toBe(stateHash(view.body));
      for (const prev of [null, 0, 17]) {
        const { state_hash, ...sent } = finishSnapshot(view, 40, prev);
        expect(state_hash).toBe(stateHash(sent));
      }
    }
    // A bot or a stranger sees what the spectators see.
    expect(views.prepare(uid(9))).toBe(spectator);
    await actor.stop();
  });
});
