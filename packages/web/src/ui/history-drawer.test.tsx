import type { HandDetail, HandSummary } from '@felt/protocol';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { blindHandDetail } from '../test-support/blind-hand.js';
import { PLAYED_HAND as played } from '../test-support/fixtures.js';
import { HistoryRow, Replay, VoidedHand } from './history-drawer.js';

const voided: HandSummary = {
  ...played,
  hand_id: '0f0e0d0c-0b0a-4909-8807-060504030201',
  hand_no: null,
  cards: [],
  board: [],
  final_stack: 200,
  net: 0,
  won: 0,
  pot_total: 0,
  voided_reason: 'checkpoint_lost',
};

const row = (hand: HandSummary): string =>
  renderToStaticMarkup(<HistoryRow hand={hand} busy={false} onOpen={() => undefined} />);

describe('HistoryRow', () => {
  it('shows a played hand with its number, cards and result', () => {
    const html = row(played);
    expect(html).toContain('#12');
    expect(html).toContain('aria-label="Ace of spades"');
    expect(html).toContain('class="history__net net--up">+40<');
    expect(html).not.toContain('Voided');
  });

  it('shows a voided hand as voided, with its reason and no result', () => {
    const html = row(voided);
    expect(html).toContain('data-testid="history-voided"');
    expect(html).toContain('Voided');
    expect(html).toContain('the table lost its state during the hand');
    expect(html).not.toContain('net--');
    expect(html).not.toMatch(/class="history__net[^"]*">[+−]?\d/);
  });
});

describe('VoidedHand', () => {
  it('says why the hand was voided, offers no replay or export, and lists the stacks given back', () => {
    const detail: HandDetail = {
      hand_id: voided.hand_id,
      session_id: voided.session_id,
      hand_no: null,
      game: 'holdem',
      limit: 'nl',
      blinds: null,
      button: null,
      started_at: voided.started_at,
      ended_at: voided.ended_at,
      viewer_seat: 2,
      board: [],
      pot_total: 0,
      rake: 0,
      voided_reason: 'checkpoint_lost',
      players: [2, 5].map((seat) => ({
        seat,
        user_id: `00000000-0000-4000-8000-00000000000${seat}`,
        name: `p${seat}`,
        starting_stack: 180 + seat,
        contributed: 0,
        returned: 0,
        won: 0,
        rake_paid: 0,
        final_stack: 180 + seat,
        net: 0,
        folded: false,
        cards: [],
        shown: false,
      })),
      actions: [],
      pots: [],
      fairness: {
        seed_commit: null,
        server_seed: null,
        client_seeds: null,
        deck_seed: null,
        version: null,
        deck: null,
      },
    };
    const html = renderToStaticMarkup(<VoidedHand detail={detail} onBack={() => undefined} />);
    expect(html).toContain('Voided: the table lost its state during the hand. No result');
    expect(html).toContain('p2 (you)');
    expect(html).toContain('185');
    expect(html).not.toContain('/ohh');
    expect(html).not.toContain('Replay step');
  });
});

describe('Replay', () => {
  const replay = (detail: HandDetail): string =>
    renderToStaticMarkup(<Replay detail={detail} onBack={() => undefined} />);

  it('says an engine-blind hand has no seed reveal in place of the reveal link; a standard hand links its reveal', () => {
    const blind = blindHandDetail();
    // A real blind hand: seat 2's own cards were never known to the server, the first to show's were.
    expect(blind.players.some((p) => p.shown)).toBe(true);
    const html = replay(blind);
    expect(html).toContain('data-testid="replay-no-reveal"');
    expect(html).toContain('engine-blind: no seed reveal');
    expect(html).toContain('there is no seed to reveal');
    expect(html).not.toContain('/reveal');
    expect(html).not.toContain('reveal record');
    // The exports stay.
    expect(html).toContain(`/api/hands/${blind.hand_id}/phh`);
    expect(html).toContain(`/api/hands/${blind.hand_id}/ohh`);

    // The same hand from a lobby that does not say how it was dealt reads as standard: the link is back.
    const { dealing: _dealing, ...standard } = blind;
    const linked = replay(standard);
    expect(linked).toContain(`href="/api/hands/${blind.hand_id}/reveal"`);
    expect(linked).toContain('reveal record');
    expect(linked).not.toContain('no seed reveal');
    expect(replay({ ...blind, dealing: 'standard' })).toContain('reveal record');
  });
});
