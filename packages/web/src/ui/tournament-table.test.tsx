// A tournament's table rendered to HTML with react-dom/server: the tournament line under the table
// bar (level, blinds, the level clock, the field, your place, hand-for-hand), the controls a
// tournament refuses left out, the add-on offered during a break, and your place and prize once you
// are out or have won.
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
import type { TableAddOn, TableController, TableScreenState } from '../state/table-controller.js';
import { ALICE, seat, TABLE, tableState, TOURNAMENT, tournamentView } from '../test-support/fixtures.js';
import { TableRoom } from './table-screen.js';
import { AddOnPrompt, TournamentHeader, TournamentResultPanel } from './tournament-table.js';

const NOW = 1_764_400_000_000;
const serverNow = (): number => NOW;
const ME: LobbyMe = { user: { id: ALICE, name: 'alice' }, wallet: 1_000, practice_wallet: 0, seats: [], locale: 'en' };

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

/** The add-on on sale until four minutes from the fixtures' server time. */
const ADD_ON: TableAddOn = { tournamentId: TOURNAMENT, chips: 5_000, cost: 100, until: NOW + 240_000, busy: false };

describe('AddOnPrompt', () => {
  const prompt = (offer: TableAddOn, compact = false) =>
    renderToStaticMarkup(
      <AddOnPrompt offer={offer} busy={offer.busy} clock={serverNow} compact={compact} onBuy={() => undefined} />,
    );

  it('says until when the add-on is on sale, with the time left, and offers it with its chips and cost', () => {
    const html = prompt(ADD_ON);
    expect(html).toContain('role="group" aria-label="Add-on" data-testid="add-on-prompt"');
    expect(html).toContain(
      `<p>The add-on is on sale, for this break only. <time dateTime="${new Date(NOW + 240_000).toISOString()}">On sale until ${formatTime(new Date(NOW + 240_000))} (4:00 left)</time></p>`,
    );
    expect(html).toMatch(
      /<button type="button" class="btn btn--primary" aria-busy="false" data-testid="add-on">Buy the add-on: 5,000 chips for 100<\/button>/,
    );
  });

  it('waits while the purchase is on its way; a tile says only the time; gone once the sale is over', () => {
    expect(prompt({ ...ADD_ON, busy: true })).toMatch(/<button[^>]*disabled=""[^>]*>Buy the add-on/);
    const tile = prompt(ADD_ON, true);
    expect(tile).toContain('tournament-add-on--compact');
    expect(tile).not.toContain('for this break only');
    expect(tile).toContain('(4:00 left)');
    expect(prompt({ ...ADD_ON, until: NOW })).toBe('');
    expect(prompt({ ...ADD_ON, until: null })).toContain('On sale during the break');
  });
});

describe('TableRoom at a tournament table', () => {
  function controllerFor(
    snapshot: TableState,
    tournament: TournamentSeatState | null,
    addOn: TableAddOn | null = null,
  ): TableController {
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
      addOn,
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

  const room = (snapshot: TableState, tournament: TournamentSeatState | null, addOn: TableAddOn | null = null) =>
    renderToStaticMarkup(
      <TableRoom app={app()} controller={controllerFor(snapshot, tournament, addOn)} onExit={() => undefined} />,
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

  it('during a break, the add-on the lobby sells you: Buy the add-on above the hero’s line, at the table', () => {
    const onBreak = seated({ view: tournamentView({ level_ends_at: null, break_ends_at: NOW + 240_000 }) });
    const html = room(waiting(), onBreak, ADD_ON);
    expect(html).toContain('data-testid="add-on-prompt"');
    expect(html).toContain('>Buy the add-on: 5,000 chips for 100</button>');
    expect(html.indexOf('add-on-prompt')).toBeLessThan(html.indexOf('data-testid="hero-status"'));
    expect(html).toContain('On a break: the next hand is dealt when it ends.');
    // Not offered (bought, not on sale, or nothing to sell): the break as before.
    const none = room(waiting(), onBreak);
    expect(none).not.toContain('add-on-prompt');
    expect(none).toContain('On a break: the next hand is dealt when it ends.');
    // In a tile too.
    const tile = renderToStaticMarkup(
      <TableRoom
        app={app()}
        controller={controllerFor(waiting(), onBreak, ADD_ON)}
        onExit={() => undefined}
        tile={{ compact: true, shortcutsActive: true, onClose: () => undefined }}
      />,
    );
    expect(tile).toContain('tournament-add-on--compact');
    expect(tile).toContain('>Buy the add-on: 5,000 chips for 100</button>');
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
