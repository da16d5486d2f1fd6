import { describe, expect, it } from 'vitest';
import { BlindTable, SeatEndpoint, seededRng } from '../../test/support/blind-table.js';
import { HAND_A, holeCards, playerAction, resync, seat, emptySeat, tableState } from '../../test/support/messages.js';
import { PrivacyAuditor, settlePrivacyAudits } from './privacy-audit.js';

function handResult(tableSeq: number): Record<string, unknown> {
  return {
    type: 'hand_result',
    table_id: 'table-1',
    table_seq: tableSeq,
    hand_id: HAND_A,
    hand_seq: tableSeq,
    pots: [],
    uncalled: [],
    rake: 0,
    players: [],
    hands: [],
  };
}

function reveal(tableSeq: number, serverSeed = 'aa'.repeat(32)): Record<string, unknown> {
  return {
    type: 'seed_reveal',
    table_id: 'table-1',
    table_seq: tableSeq,
    hand_id: HAND_A,
    hand_seq: tableSeq,
    reveal: {
      hand_id: HAND_A,
      seed_commit: `sha256:${'ab'.repeat(32)}`,
      server_seed: serverSeed,
      client_seeds: [],
      deck_seed: 'cc'.repeat(32),
      variant: 'holdem',
      version: 'felt-deck-v1',
      deck: 'standard52',
      dealt: [{ index: 0, card: 'As' }],
    },
  };
}

describe('PrivacyAuditor', () => {
  it('a clean hand for the seated player and a spectator has no violation', () => {
    const player = new PrivacyAuditor(2);
    const spectator = new PrivacyAuditor(null);
    const shownState = tableState(9, {
      seats: [seat(1, { cards: ['Qh', 'Qd'] }), seat(2, { cards: ['As', 'Kd'] }), seat(3), emptySeat(4)],
    });
    player.observe(tableState(1, { seats: [seat(1), seat(2, { cards: ['As', 'Kd'] }), seat(3), emptySeat(4)] }));
    player.observe(holeCards(2, ['As', 'Kd']));
    player.observe(playerAction(3, 1, 'call'));
    const showdown = {
      type: 'showdown',
      table_id: 'table-1',
      table_seq: 8,
      hand_id: HAND_A,
      hand_seq: 8,
      reveal_timing: 'showdown',
      shown: [{ seat: 1, cards: ['Qh', 'Qd'], reason: 'last_aggressor' }],
      mucked: [3],
    };
    player.observe(showdown);
    player.observe(shownState);
    player.observe(handResult(10));
    player.observe(reveal(11));
    spectator.observe(tableState(1, { hero: undefined }));
    spectator.observe(showdown);
    spectator.observe(
      tableState(9, { hero: undefined, seats: [seat(1, { cards: ['Qh', 'Qd'] }), seat(2), seat(3), emptySeat(4)] }),
    );
    spectator.observe(handResult(10));
    spectator.observe(reveal(11));
    expect(player.violations).toEqual([]);
    expect(spectator.violations).toEqual([]);
  });

  it('flags another seat’s hidden card, a hero for a spectator and someone else’s hole_cards_dealt', () => {
    const spectator = new PrivacyAuditor(null);
    spectator.observe(tableState(1));
    const player = new PrivacyAuditor(1);
    player.observe(
      tableState(2, {
        hero: { seat: 1, cards: [] },
        seats: [seat(1), seat(2, { cards: ['As', null] }), seat(3), emptySeat(4)],
      }),
    );
    player.observe(holeCards(3, ['Kd', 'Kh']));
    expect(spectator.violations.map((v) => [v.kind, v.path])).toEqual([
      ['foreign_hero', 'hero'],
      ['foreign_card', 'hero.cards[0]'],
      ['foreign_card', 'hero.cards[1]'],
    ]);
    expect(player.violations.map((v) => [v.kind, v.path])).toEqual([
      ['foreign_card', 'seats[1].cards[0]'],
      ['foreign_card', 'cards[0]'],
      ['foreign_card', 'cards[1]'],
    ]);
  });

  it('flags secrets outside seed_reveal, a reveal before the result, and a seed value leaked earlier', () => {
    const a = new PrivacyAuditor(2);
    a.observe({ ...playerAction(1, 1, 'call'), deck_seed: 'cc'.repeat(32) });
    a.observe({ ...playerAction(2, 1, 'call'), note: 'dd'.repeat(32) });
    a.observe(reveal(3, 'dd'.repeat(32)));
    expect(a.violations.map((v) => v.kind)).toEqual(['secret_field', 'early_reveal', 'seed_before_reveal']);
  });

  it('reads a chat text as words: a player typing "As" is no card leak, the same string elsewhere is', () => {
    const a = new PrivacyAuditor(2);
    const chat = {
      type: 'chat_message',
      table_id: 'table-1',
      table_seq: 4,
      chat_id: 'c1',
      user_id: 'u1',
      name: 'Ann',
      role: 'player',
      seat: 1,
      text: 'As',
      ts: 1,
    };
    a.observe(chat);
    expect(a.violations).toEqual([]);
    a.observe({ ...chat, table_seq: 5, name: 'Kd' });
    expect(a.violations.map((v) => [v.kind, v.path])).toEqual([['foreign_card', 'name']]);
  });

  it('looks inside resync_response replays and snapshots', () => {
    const a = new PrivacyAuditor(2);
    a.observe(
      resync(5, tableState(5, { seats: [seat(1, { cards: ['2c', '3c'] }), seat(2), seat(3), emptySeat(4)] }), [
        holeCards(4, ['9s', '9h']),
      ]),
    );
    expect(a.violations.map((v) => v.path)).toEqual(['snapshot.seats[0].cards[0]', 'snapshot.seats[0].cards[1]']);
    // holeCards() is addressed to seat 2, the recipient: no violation for it.
  });

  it('a late joiner’s snapshot of a finished hand may show what was shown, as another recipient confirms; nothing else', () => {
    const showdown = {
      type: 'showdown',
      table_id: 'table-1',
      table_seq: 8,
      hand_id: HAND_A,
      hand_seq: 8,
      reveal_timing: 'showdown',
      shown: [{ seat: 1, cards: ['Qh', 'Qd'], reason: 'last_aggressor' }],
      mucked: [3],
    };
    const early = new PrivacyAuditor(null);
    early.observe(tableState(1, { hero: undefined }));
    early.observe(showdown);
    const late = new PrivacyAuditor(null);
    // Joined after the showdown: seat 1's shown cards and (wrongly) seat 3's mucked ones.
    late.observe(
      tableState(9, {
        hero: undefined,
        phase: 'complete',
        seats: [seat(1, { cards: ['Qh', 'Qd'] }), seat(2), seat(3, { cards: ['7c', '2d'] }), emptySeat(4)],
      }),
    );
    expect(late.violations).toEqual([]);
    expect(late.unconfirmedReveals).toHaveLength(4);
    expect(settlePrivacyAudits([early, late])).toBe(2);
    expect(late.violations.map((v) => v.path)).toEqual(['seats[2].cards[0]', 'seats[2].cards[1]']);
    // During a hand, the same snapshot is a violation at once: nothing is shown before the showdown.
    const midHand = new PrivacyAuditor(null);
    midHand.observe(
      tableState(3, { hero: undefined, seats: [seat(1, { cards: ['Qh', 'Qd'] }), seat(2), seat(3), emptySeat(4)] }),
    );
    expect(midHand.violations).toHaveLength(2);
  });
});

describe('PrivacyAuditor: engine-blind dealing', () => {
  /** Three seats to a shown hand: keys, shuffles, hole shares, the flop, a fold's release, a show. */
  function blindHand(): BlindTable {
    const table = new BlindTable([1, 2, 3]);
    const seats = [1, 2, 3].map((s) => new SeatEndpoint(s, { rng: seededRng(`audit-${s}`) }));
    for (const e of seats) table.attach(e);
    table.publish();
    table.settle();
    table.dealHoles();
    table.settle();
    table.dealBoard(3);
    table.settle();
    table.folded.add(3);
    table.publish();
    table.settle();
    void seats[0]?.blind.show();
    table.settle();
    return table;
  }

  it('a whole blind hand, board and shown cards included, leaks nothing to any seat or a spectator', () => {
    const table = blindHand();
    const messages = [...table.transcript.values()].flat() as Record<string, unknown>[];
    // The test sees what it means to: relayed steps, and cards open in the dealing view.
    expect(messages.some((m) => m.type === 'blind_step')).toBe(true);
    expect(JSON.stringify(messages)).toMatch(/"card":"[2-9TJQKA][cdhs]"/);
    for (const [who, stream] of table.transcript) {
      const auditor = new PrivacyAuditor(who === 'spectator' ? null : who);
      for (const m of stream) auditor.observe(m);
      // A resync replays the steps, each shuffle as its digest.
      if (who !== 'spectator') {
        auditor.observe(resync(table.seq + 1, table.snapshotFor(who, table.seq + 1), table.replayFor(who, 0)));
      }
      expect({ who, violations: auditor.violations }).toEqual({ who, violations: [] });
    }
  });

  it('flags a hole card open in the dealing view that its owner did not show', () => {
    const table = blindHand();
    // Seat 2's first card, as if the server could read it (and without seat 2's share: no show).
    const position = table.holePositions(2)[0];
    const leaked = (to: number): Record<string, unknown> => {
      const snapshot = table.snapshotFor(to);
      const blind = snapshot.dealing?.blind;
      if (blind == null) throw new Error('no blind view');
      const positions = blind.positions.map((p) => (p.position === position ? { ...p, card: '2c' } : p));
      return { ...snapshot, dealing: { ...snapshot.dealing, blind: { ...blind, positions } } };
    };
    const auditor = new PrivacyAuditor(3);
    auditor.observe(leaked(3));
    const index = table.snapshotFor(3).dealing?.blind?.positions.findIndex((p) => p.position === position);
    expect(auditor.violations.map((v) => [v.kind, v.path])).toEqual([
      ['foreign_card', `dealing.blind.positions[${index}].card`],
    ]);
    // Seat 2's own card is no leak to seat 2.
    const own = new PrivacyAuditor(2);
    own.observe(leaked(2));
    expect(own.violations).toEqual([]);
  });
});
