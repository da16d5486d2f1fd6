// A tournament's table rendered to HTML with react-dom/server: the tournament line under the table
// bar (level, blinds, the level clock, the field, your place, hand-for-hand), the controls a
// tournament refuses left out, and your place and prize once you are out or have won.
import { initialTableView, reduceTable, type LobbyMe } from '@felt/client';
import type { TableState } from '@felt/protocol';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { formatTime } from '../i18n/i18n.js';
import { ServerClock } from '../lib/clock.js';
import { toTableModel } from '../lib/table-model.js';
import type { TournamentSeatState } from '../lib/tournament-table.js';
import { AppState } from '../state/app-state.js';
import { Store } from '../state/store.js';
import type { TableController, TableScreenState } from '../state/table-controller.js';
import { ALICE, seat, TABLE, tableState, TOURNAMENT, tournamentView } from '../test-support/fixtures.js';
import { TableRoom } from './table-screen.js';
import { TournamentHeader, TournamentResultPanel } from './tournament-table.js';

const NOW = 1_764_400_000_000;
const serverNow = (): number => NOW;
const ME: LobbyMe = { user: { id: ALICE, name: 'alice' }, wallet: 1_000, seats: [], locale: 'en' };

const seated = (over: Partial<TournamentSeatState> = {}): TournamentSeatState => ({
  view: tournamentView(),
  place: 3,
  result: null,
  pending: null,
  ...over,
});

const header = (tournament: TournamentSeatState, compact = false) =>
  renderToStaticMarkup(<TournamentHeader tournament={tournament} serverNow={serverNow} compact={compact} />);

/** The texts of the header's parts, in order (elements apart by a space). */
function parts(html: string): string[] {
  const inner = /<div[^>]*data-testid="tournament-bar"[^>]*>([\s\S]*)<\/div>/.exec(html)?.[1] ?? '';
  return [...inner.matchAll(/<(a|span)[^>]*>([\s\S]*?)<\/\1>/g)].map((m) =>
    m[2]!
      .replace(/<[^>]*>/g, '')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

describe('TournamentHeader', () => {
  it('shows the tournament, level, blinds and ante, the countdown, the next level, the average, the field and your place', () => {
    const html = header(seated());
    expect(parts(html)).toEqual([
      'Sunday 100',
      'Level 3 100/200, ante 25',
      'Next level in 9:30',
      'Next: 200/400, ante 50',
      'Average stack 18,000',
      'Players 5/9',
      'Your place 3 of 5',
    ]);
    expect(html).toContain(`href="#/tournaments/${TOURNAMENT}"`);
    expect(html).toContain('aria-label="Details of Sunday 100"');
    expect(html).toContain('role="group" aria-label="Tournament"');
    expect(html).toContain('data-kind="level"');
    expect(html).not.toContain('Hand-for-hand');
  });

  it('a break says until when; levels by hands say so; a level past its time waits for the next hand', () => {
    const end = NOW + 240_000;
    const onBreak = header(seated({ view: tournamentView({ level_ends_at: null, break_ends_at: end }) }));
    expect(onBreak).toContain(`Break until ${formatTime(new Date(end))} (4:00 left)`);
    expect(onBreak).toContain('data-kind="break"');
    expect(header(seated({ view: tournamentView({ level_ends_at: null }) }))).toContain('Levels by hands');
    expect(header(seated({ view: tournamentView({ level_ends_at: NOW - 1 }) }))).toContain(
      'Next level with the next hand',
    );
    // Over: no clock and no next level.
    const over = header(seated({ view: tournamentView({ players_left: 1, stacks: [90_000] }) }));
    expect(over).toContain('The tournament is over');
    expect(over).not.toContain('Next');
  });

  it('marks hand-for-hand, and leaves out your place when you are not seated, and the last level’s next', () => {
    const html = header(seated({ place: null, view: tournamentView({ hand_for_hand: true, next_level: null }) }));
    expect(html).toMatch(
      /<span class="badge tournament-bar__hfh" title="On the money bubble[^"]*">Hand-for-hand<\/span>/,
    );
    expect(html).toContain('data-hand-for-hand="true"');
    expect(html).not.toContain('Your place');
    expect(html).not.toContain('Next:');
  });

  it('in a tile: the level, the clock, the field and your place only', () => {
    expect(parts(header(seated(), true))).toEqual([
      'Sunday 100',
      'Level 3 100/200, ante 25',
      'Next level in 9:30',
      'Players 5/9',
      'Your place 3 of 5',
    ]);
  });
});

describe('TournamentResultPanel', () => {
  const panel = (place: number, prize: number, compact = false) =>
    renderToStaticMarkup(
      <TournamentResultPanel
        result={{ place, prize }}
        view={{ tournament_id: TOURNAMENT, entrants: 9 }}
        onExit={() => undefined}
        compact={compact}
      />,
    );

  it('the winner: first place, the prize, the tournament’s final places and the lobby', () => {
    const html = panel(1, 500);
    expect(html).toContain('role="status" aria-label="Final standings"');
    expect(html).toContain('<h2 class="tournament-result__title">You won the tournament!</h2>');
    expect(html).toContain('You finished in place 1 of 9.');
    expect(html).toContain('Your prize: 500 chips, paid to your wallet.');
    expect(html).toContain(`href="#/tournaments/${TOURNAMENT}"`);
    expect(html).toContain('>Tournament details</a>');
    expect(html).toContain('>Back to the lobby</button>');
    expect(html).toContain('tournament-result--won');
  });

  it('out in the money, out without a prize, and in a tile', () => {
    expect(panel(3, 100)).toContain('You are out of the tournament');
    expect(panel(3, 100)).toContain('Your prize: 100 chips');
    const none = panel(6, 0);
    expect(none).toContain('You finished in place 6 of 9.');
    expect(none).toContain('No prize this time.');
    expect(none).not.toContain('tournament-result--won');
    expect(panel(6, 0, true)).not.toContain('Back to the lobby');
  });
});

describe('TableRoom at a tournament table', () => {
  function controllerFor(snapshot: TableState, tournament: TournamentSeatState | null): TableController {
    const view = reduceTable(initialTableView(TABLE), snapshot).view;
    const state: TableScreenState = {
      view,
      model: toTableModel(view),
      session: 'joined',
      connection: 'open',
      resyncing: false,
      finished: [],
      closedReason: null,
      busy: false,
      preAction: null,
      summary: { hands: 0, net: 0, biggestPot: 0, counted: [] },
      chat: [],
      dealer: [],
      muted: new Map(),
      chatError: null,
      chatSending: false,
      tournament,
      movedTo: null,
      addOn: null,
    };
    return { store: new Store(state), clock: new ServerClock(serverNow), tableId: TABLE } as unknown as TableController;
  }

  function app(): AppState {
    const a = new AppState({ languages: ['en'], storage: null });
    a.auth.set({ status: 'signed_in', me: ME });
    return a;
  }

  const waiting = (over: Partial<TableState> = {}) =>
    tableState({
      seats: [seat(1, { stack: 25_000 }), seat(2, { user_id: ALICE, name: 'alice', stack: 0 })],
      hero: { seat: 2, cards: [] },
      tournament: tournamentView(),
      ...over,
    });

  const room = (snapshot: TableState, tournament: TournamentSeatState | null) =>
    renderToStaticMarkup(
      <TableRoom app={app()} controller={controllerFor(snapshot, tournament)} onExit={() => undefined} />,
    );

  it('shows the tournament line and offers no sit out, top up, leave, rebuy or deal now; the lobby stays', () => {
    const html = room(waiting(), seated());
    expect(html).toContain('data-testid="tournament-bar"');
    const tools = /<nav class="table-bar__tools"[\s\S]*?<\/nav>/.exec(html)![0];
    for (const refused of ['Sit out', 'Sit in', 'Top up', 'Rebuy', 'Leave'])
      expect(tools, refused).not.toContain(refused);
    expect(tools).toContain('>Lobby</button>');
    // The hero's stack is 0: at a cash table that offers a rebuy; here it does not.
    expect(html).not.toContain('Rebuy');
    expect(html).not.toContain('deal-now');
    // The same seat at a cash table, for contrast.
    const cash = room(waiting({ tournament: undefined }), null);
    expect(cash).not.toContain('tournament-bar');
    expect(cash).toContain('Sit out');
    expect(cash).toContain('Rebuy');
  });

  it('between hands, says the break or hand-for-hand in the hero’s line', () => {
    const onBreak = seated({ view: tournamentView({ level_ends_at: null, break_ends_at: NOW + 60_000 }) });
    expect(room(waiting(), onBreak)).toContain('On a break: the next hand is dealt when it ends.');
    const hfh = seated({ view: tournamentView({ hand_for_hand: true }) });
    expect(room(waiting(), hfh)).toContain('Hand-for-hand: waiting for the other tables to finish their hand.');
  });

  it('once you are out: your place and prize where the hero’s line was, and the lobby', () => {
    const out = room(waiting({ hero: undefined, seats: [seat(1, { stack: 25_000 })] }), {
      view: tournamentView(),
      place: null,
      result: { place: 6, prize: 0 },
      pending: null,
    });
    expect(out).toContain('data-testid="tournament-result"');
    expect(out).toContain('You finished in place 6 of 9.');
    expect(out).not.toContain('data-testid="hero-status"');
    expect(out).not.toContain('Your place');
  });
});
