// The tournaments tab rendered to HTML with react-dom/server (as render.test.tsx does for the table):
// the list, one tournament in each registration state, a refusal in words, and the lobby's tabs.
import { LobbyApiError, type LobbyMe } from '@felt/client';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../app.js';
import { formatTime } from '../i18n/i18n.js';
import { dateTimeText } from '../lib/format.js';
import { AppState } from '../state/app-state.js';
import {
  ADD_ON_CONFIG,
  ALICE,
  TOURNAMENT,
  TOURNAMENT_CONFIG,
  tournamentDetail,
  tournamentSummary,
} from '../test-support/fixtures.js';
import { tournamentDetailHtml as detail } from '../test-support/tournament-detail.js';
import { LobbyScreen } from './lobby-screen.js';
import { TournamentsTable } from './tournaments-panel.js';

const ME: LobbyMe = { user: { id: ALICE, name: 'alice' }, wallet: 1_000, practice_wallet: 0, seats: [], locale: 'en' };
const SNG = '7c3e2a1b-4d5f-4a6b-8c9d-0e1f2a3b4c5d';

/** The text of the rows of the table with `data-testid="<testId>"`, cell by cell (elements apart by a space). */
function rows(html: string, testId: string): string[][] {
  const table = new RegExp(`<table[^>]*data-testid="${testId}"[^>]*>([\\s\\S]*?)</table>`).exec(html)?.[1] ?? '';
  const body = /<tbody>([\s\S]*)<\/tbody>/.exec(table)?.[1] ?? '';
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((r) =>
    [...r[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) =>
      c[1]!
        .replace(/<[^>]*>/g, ' ')
        .replace(/&#x27;/g, "'")
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}

function signedIn(): AppState {
  const app = new AppState({ languages: ['en'], storage: null });
  app.auth.set({ status: 'signed_in', me: ME });
  return app;
}

afterEach(() => vi.unstubAllGlobals());

describe('TournamentsTable', () => {
  it('lists name (linked to its detail) and game, format, status, buy-in + fee, entrants and start', () => {
    const html = renderToStaticMarkup(
      <TournamentsTable
        tournaments={[
          tournamentSummary(),
          tournamentSummary({
            id: SNG,
            name: 'Turbo SNG',
            format: 'sit_and_go',
            status: 'running',
            game: 'omaha',
            limit: 'pl',
            buy_in: 0,
            fee: 0,
            entrants: 6,
            max_entrants: 6,
            starts_at: null,
          }),
        ]}
      />,
    );
    expect(html).toContain(`href="#/tournaments/${TOURNAMENT}"`);
    expect(html).toContain('aria-label="Details of Sunday 100"');
    expect(rows(html, 'tournaments')).toEqual([
      [
        "Sunday 100 NL Hold'em",
        'Scheduled',
        'Registering',
        '100 + 10',
        '3/100',
        dateTimeText('2026-12-06T18:00:00.000Z'),
      ],
      ['Turbo SNG PL Omaha', 'Sit-and-go', 'Running', 'Freeroll', '6/6', 'When full'],
    ]);
    expect(html).toContain('<time dateTime="2026-12-06T18:00:00.000Z">');
  });

  it('a running tournament says whether it still takes late registrations and re-entries', () => {
    const status = (over: Parameters<typeof tournamentSummary>[0]) =>
      rows(renderToStaticMarkup(<TournamentsTable tournaments={[tournamentSummary(over)]} />), 'tournaments')[0]![2];
    expect(status({ status: 'running', late_registration_open: true })).toBe('Running, late registration open');
    expect(status({ status: 'running', late_registration_open: true, re_entry_open: true })).toBe(
      'Running, late registration and re-entry open',
    );
    expect(status({ status: 'running' })).toBe('Running');
  });
});

describe('TournamentDetail', () => {
  it('shows the facts, the structure with its break, the payouts and the entrants, you marked', () => {
    const html = detail();
    expect(html).toContain('<h2 id="tournaments-title">Sunday 100</h2>');
    for (const fact of [
      'No-Limit Hold&#x27;em',
      'Scheduled',
      'Registering',
      '100 to the prize pool + 10 fee',
      '10,000',
      '3 of 2 to 100',
      '300',
    ]) {
      expect(html, fact).toContain(fact);
    }
    expect(rows(html, 'tournament-structure')).toEqual([
      ['1', '25/50', '—', '10 minutes'],
      ['2', '50/100', '10', '10 minutes'],
      ['Break: 5 minutes'],
      ['3', '100/200', '200 (big blind)', '10 minutes'],
      ['4', '200/400', '—', '10 minutes'],
    ]);
    expect(html).toContain('each new level doubles the blinds');
    expect(rows(html, 'tournament-payouts')).toEqual([['1', '300']]);
    expect(html).toContain('Entrants (3)');
    expect(html).toContain('alice (you)');
    expect(html).toContain('carol');
  });

  it('running and seating you: Take your seat opens your table as the lobby opens any', () => {
    const table = '6f9619ff-8b86-4011-b42d-00c04fc964ff';
    const html = detail({ status: 'running', your_table_id: table });
    expect(html).toContain('data-testid="take-seat"');
    expect(html).toMatch(
      new RegExp(
        `<a class="btn btn--primary" href="#/table/${table}" aria-label="Take your seat in Sunday 100"[^>]*>Take your seat</a>`,
      ),
    );
    expect(html).toContain('The tournament is on and your table is waiting for you.');
    // Not seated (before the start, out, or watching): no seat to take.
    expect(detail({ status: 'running' })).not.toContain('take-seat');
    expect(detail()).not.toContain('Take your seat');
  });

  it('registered: You are registered, and Unregister', () => {
    const html = detail({ registered: true });
    expect(html).toContain('data-registration="unregister"');
    expect(html).toContain('You are registered.');
    expect(html).toContain('aria-label="Unregister from Sunday 100: buy-in and fee back to your wallet"');
    expect(html).not.toContain('>Register<');
  });

  it('not registered: Register with its price, disabled while the request is on its way', () => {
    const html = detail({ registered: false });
    expect(html).toContain('aria-label="Register for Sunday 100: 100 + 10 from your wallet"');
    expect(html).toMatch(/<button[^>]*>Register<\/button>/);
    expect(html).not.toMatch(/<button[^>]*disabled[^>]*>Register</);
    expect(detail({ registered: false }, { busy: true })).toMatch(/<button[^>]*disabled=""[^>]*>Register<\/button>/);
  });

  it('out with a re-entry open to you: Re-enter with its price, then as any late entry', () => {
    const running = {
      status: 'running' as const,
      late_registration_open: true,
      re_entry_open: true,
      registered: false,
      players: tournamentDetail().players.map((p, i) => ({
        ...p,
        status: i === 0 ? ('busted' as const) : ('playing' as const),
      })),
    };
    const html = detail({ ...running, can_re_enter: true });
    expect(html).toContain('data-registration="re_enter"');
    expect(html).toContain('You are out, and may buy in again.');
    expect(html).toContain('aria-label="Re-enter Sunday 100: 100 + 10 from your wallet"');
    expect(html).toMatch(/<button[^>]*>Re-enter<\/button>/);
    expect(html).not.toMatch(/>Register</);
    expect(html).toContain('Running, late registration and re-entry open');
    expect(html).toContain('Out, placed when registration closes');
    expect(detail({ ...running, can_re_enter: true }, { busy: true })).toMatch(
      /<button[^>]*disabled=""[^>]*>Re-enter<\/button>/,
    );
    // The lobby takes no more of your entries: closed, no button.
    const none = detail({ ...running, can_re_enter: false });
    expect(none).toContain('Registration is closed.');
    expect(none).not.toContain('<button');
    // Back in and seated: Take your seat, as after a late registration; the new entry is numbered.
    const table = '6f9619ff-8b86-4011-b42d-00c04fc964ff';
    const back = detail({
      ...running,
      registered: true,
      your_table_id: table,
      players: [...running.players, { ...running.players[0]!, entry_no: 2, status: 'playing', table_id: table }],
    });
    expect(back).toContain('data-registration="closed"');
    expect(back).toContain('data-testid="take-seat"');
    expect(back).toContain('Entrants (4)');
    expect(back.match(/data-testid="entry-mark"/g)).toHaveLength(1);
    expect(back).toMatch(
      /<li[^>]*data-status="playing"><span>alice \(you\) <span class="tag" data-testid="entry-mark">Entry 2<\/span>/,
    );
    // The first entry, out, is not marked.
    expect(back).toMatch(/<li[^>]*data-status="busted"><span>alice \(you\)<\/span>/);
    expect(detail(running)).not.toContain('entry-mark');
  });

  it('says the re-entry rule among the facts when the config has one', () => {
    const html = detail(
      {},
      {},
      { ...TOURNAMENT_CONFIG, lateRegistrationLevels: 3, reEntry: { max: 2, untilLevel: 3 } },
    );
    expect(html).toMatch(
      /<dt>Re-entry<\/dt><dd data-testid="tournament-re-entry">Up to 2 re-entries, until the end of level 3<\/dd>/,
    );
    expect(detail()).not.toContain('tournament-re-entry');
  });

  it('says the add-on among the facts when the config has one', () => {
    expect(detail({}, {}, ADD_ON_CONFIG)).toMatch(
      /<dt>Add-on<\/dt><dd data-testid="tournament-add-on-rule">5,000 chips for 100, at the first break<\/dd>/,
    );
    expect(detail()).not.toContain('tournament-add-on-rule');
    // On sale or not, the rule is among the facts; the offer is not.
    expect(detail({ status: 'running' }, {}, ADD_ON_CONFIG)).not.toContain('data-testid="add-on"');
  });

  describe('the add-on on sale', () => {
    // Ten minutes from now: the countdown reads 10:00 or, a second later, 9:59.
    const until = new Date(Date.now() + 600_000);
    const onSale = {
      status: 'running' as const,
      add_on_open: true,
      add_on_until: until.toISOString(),
      your_table_id: '6f9619ff-8b86-4011-b42d-00c04fc964ff',
    };

    it('while you may buy it: Buy the add-on with its chips and cost, until when, disabled while busy', () => {
      const html = detail({ ...onSale, can_add_on: true }, {}, ADD_ON_CONFIG);
      expect(html).toContain('data-testid="tournament-add-on"');
      expect(html).toMatch(
        /<button type="button" class="btn btn--primary" aria-busy="false" data-testid="add-on">Buy the add-on: 5,000 chips for 100<\/button>/,
      );
      expect(html).toContain('The add-on is on sale, for this break only.');
      expect(html).toMatch(
        new RegExp(
          `<time dateTime="${until.toISOString()}">On sale until ${formatTime(until)} \\((10:00|9:59) left\\)</time>`,
        ),
      );
      // Take your seat still leads: the add-on's chips come at that table.
      expect(html.indexOf('take-seat')).toBeLessThan(html.indexOf('data-testid="add-on"'));
      expect(detail({ ...onSale, can_add_on: true }, { busy: true }, ADD_ON_CONFIG)).toMatch(
        /<button[^>]*disabled=""[^>]*data-testid="add-on">Buy the add-on/,
      );
      // A free add-on says so.
      expect(
        detail({ ...onSale, can_add_on: true }, {}, { ...TOURNAMENT_CONFIG, addOn: { chips: 5_000, cost: 0 } }),
      ).toContain('>Take the add-on: 5,000 chips, free</button>');
    });

    it('the offer is the table’s prompt, on this browser’s clock: gone once its end has passed', () => {
      const html = detail({ ...onSale, can_add_on: true }, {}, ADD_ON_CONFIG);
      expect(html).toContain('role="group" aria-label="Add-on" data-testid="add-on-prompt"');
      const past = detail(
        { ...onSale, can_add_on: true, add_on_until: new Date(Date.now() - 1_000).toISOString() },
        {},
        ADD_ON_CONFIG,
      );
      expect(past).not.toContain('Buy the add-on');
      expect(past).not.toContain('add-on-prompt');
      // No end given: on sale during the break.
      expect(detail({ ...onSale, can_add_on: true, add_on_until: null }, {}, ADD_ON_CONFIG)).toContain(
        '<p>The add-on is on sale, for this break only. On sale during the break</p>',
      );
    });

    it('on sale but not to you (bought, or not playing), or not on sale: nothing is offered', () => {
      for (const over of [
        { ...onSale, can_add_on: false },
        { ...onSale, add_on_open: false, can_add_on: false },
        { status: 'running' as const },
      ]) {
        const html = detail(over, {}, ADD_ON_CONFIG);
        expect(html).not.toContain('tournament-add-on"');
        expect(html).not.toContain('Buy the add-on');
      }
    });

    it('a refused add-on is said where it was offered: a closed sale as over, also once the offer is gone', () => {
      const closed = new LobbyApiError(409, 'tournament_closed', 'no add-on on sale');
      // Read again after the refusal: the sale is over, no button, the refusal still said.
      const over = detail({ ...onSale, add_on_open: false }, { error: closed, failed: 'add_on' }, ADD_ON_CONFIG);
      expect(over).toMatch(
        /<div class="tournament__add-on" data-testid="tournament-add-on"><p class="form__error" role="alert" data-testid="add-on-error">The add-on is no longer on sale: its break is over.<\/p><\/div>/,
      );
      expect(over).not.toContain('data-testid="add-on"');
      expect(over).not.toContain('tournament-error');
      // Your wallet short: the offer stays, with the refusal under it.
      const short = detail(
        { ...onSale, can_add_on: true },
        { error: new LobbyApiError(409, 'insufficient_funds', 'x'), failed: 'add_on' },
        ADD_ON_CONFIG,
      );
      expect(short).toContain('data-testid="add-on"');
      expect(short).toContain('Your wallet does not have enough chips for that.');
      expect(detail({ ...onSale, can_add_on: true }, { error: closed, failed: 'add_on' }, ADD_ON_CONFIG)).toContain(
        'The add-on is no longer on sale: its break is over.',
      );
      // Another action's refusal stays under the registration buttons.
      expect(detail({ ...onSale, can_add_on: true }, { error: closed }, ADD_ON_CONFIG)).toContain(
        'data-testid="tournament-error"',
      );
    });
  });

  it('a refused re-entry says re-entry is over when the lobby answers tournament_closed', () => {
    const closed = new LobbyApiError(409, 'tournament_closed', 'this tournament takes no registrations now');
    expect(detail({ status: 'running' }, { error: closed, failed: 're_enter' })).toContain(
      'You cannot re-enter that tournament now: re-entry has closed, or you have none left.',
    );
    expect(detail({ status: 'running' }, { error: closed })).toContain(
      'That tournament takes no registrations now: it has started, ended or was cancelled.',
    );
    expect(
      detail({ status: 'running' }, { error: new LobbyApiError(402, 'insufficient_funds', 'x'), failed: 're_enter' }),
    ).toContain('Your wallet does not have enough chips for that.');
  });

  it('a refusal reads as the catalog’s sentence for its code', () => {
    const html = detail(
      { registered: false },
      { error: new LobbyApiError(409, 'tournament_full', 'every place is taken') },
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('Every place in that tournament is taken.');
    expect(html).not.toContain('every place is taken');
    expect(detail({}, { error: new LobbyApiError(402, 'insufficient_funds', 'x') })).toContain(
      'Your wallet does not have enough chips for that.',
    );
  });

  it('a full field offers no Register; a started, finished or cancelled one nothing', () => {
    const full = detail({ registered: false, entrants: 100, max_entrants: 100 });
    expect(full).toContain('Every place is taken.');
    expect(full).not.toContain('>Register<');
    for (const status of ['running', 'finished', 'cancelled'] as const) {
      const html = detail({ status, registered: true });
      expect(html).toContain('Registration is closed.');
      expect(html).not.toContain('<button');
    }
  });

  it('finished players with their places and prizes; no payouts and no players said in words', () => {
    const done = detail({
      status: 'finished',
      players: [
        { user_id: ALICE, name: 'alice', entry_no: 1, status: 'finished', place: 1, prize: 300, table_id: null },
        {
          user_id: '00000000-0000-4000-8000-000000000002',
          name: 'bob',
          entry_no: 1,
          status: 'finished',
          place: 2,
          prize: 0,
          table_id: null,
        },
      ],
    });
    expect(done).toContain('Place 1, won 300');
    expect(done).toContain('Place 2');
    const empty = detail({ players: [], payouts: [], entrants: 0 });
    expect(empty).toContain('Nobody has registered yet.');
    expect(empty).toContain('No place is paid yet.');
  });

  it('a sit-and-go reads its field as of its size, starting when full', () => {
    const sng = detail({
      format: 'sit_and_go',
      starts_at: null,
      min_entrants: 6,
      max_entrants: 6,
      config: tournamentDetail({}, { name: 'SNG', format: 'sit_and_go', buyIn: 50 }).config,
    });
    expect(sng).toContain('3 of 6');
    expect(sng).toContain('When full');
    expect(sng).not.toContain('data-break');
  });

  it('a structure that cannot be read is said, and the rest still shows', () => {
    const html = detail({ config: { ...TOURNAMENT_CONFIG, buyIn: -1 } });
    expect(html).toContain('This tournament’s structure cannot be shown.');
    expect(html).toContain('Payouts');
  });
});

describe('the lobby’s tabs', () => {
  it('the tables tab by default: Tables selected, the tables region shown', () => {
    const html = renderToStaticMarkup(<LobbyScreen app={signedIn()} me={ME} go={() => undefined} />);
    expect(html).toMatch(/<div class="tabs lobby__tabs" role="tablist" aria-label="Tables and tournaments">/);
    expect(html).toMatch(/role="tab" id="lobby-tab-tables" aria-selected="true"[^>]*tabindex="0"/);
    expect(html).toMatch(/role="tab" id="lobby-tab-tournaments" aria-selected="false"[^>]*tabindex="-1"/);
    expect(html).toContain('role="tabpanel" id="lobby-panel-tables"');
    expect(html).toContain('aria-labelledby="tables-title"');
    expect(html).not.toContain('lobby__tournaments');
    // Join by code and Quick join stay beside either tab.
    expect(html).toContain('Join by code');
  });

  it('#/tournaments: the list, loading until its first answer', () => {
    const app = signedIn();
    const route = { name: 'tournaments', tournamentId: null } as const;
    const loading = renderToStaticMarkup(<LobbyScreen app={app} me={ME} go={() => undefined} route={route} />);
    expect(loading).toMatch(/id="lobby-tab-tournaments" aria-selected="true"/);
    expect(loading).toContain('role="tabpanel" id="lobby-panel-tournaments"');
    expect(loading).toContain('Loading tournaments…');
    expect(loading).not.toContain('id="tables-title"');
    expect(loading).toContain('Join by code');

    app.tournaments.list.set({ tournaments: [tournamentSummary()], error: null });
    const listed = renderToStaticMarkup(<LobbyScreen app={app} me={ME} go={() => undefined} route={route} />);
    expect(listed).toContain('data-testid="tournaments"');
    expect(listed).toContain('The list updates every few seconds.');

    app.tournaments.list.set({ tournaments: [], error: new TypeError('offline') });
    const failed = renderToStaticMarkup(<LobbyScreen app={app} me={ME} go={() => undefined} route={route} />);
    expect(failed).toContain('Cannot reach Felt.');
    expect(failed).toContain('No tournament is taking registrations or running now.');
  });

  it('#/tournaments/<id>: that tournament, once read (another one’s answer is not shown)', () => {
    const app = signedIn();
    const route = { name: 'tournaments', tournamentId: TOURNAMENT } as const;
    app.tournaments.detail.set({ id: SNG, tournament: tournamentDetail({ id: SNG }), error: null });
    const other = renderToStaticMarkup(<LobbyScreen app={app} me={ME} go={() => undefined} route={route} />);
    expect(other).toContain('Loading the tournament…');
    expect(other).toContain('href="#/tournaments"');

    app.tournaments.detail.set({ id: TOURNAMENT, tournament: tournamentDetail(), error: null });
    const shown = renderToStaticMarkup(<LobbyScreen app={app} me={ME} go={() => undefined} route={route} />);
    expect(shown).toContain('data-testid="tournament"');
    expect(shown).toContain('Unregister');

    const gone = new LobbyApiError(404, 'tournament_not_found', 'no such tournament');
    app.tournaments.detail.set({ id: TOURNAMENT, tournament: null, error: gone });
    expect(renderToStaticMarkup(<LobbyScreen app={app} me={ME} go={() => undefined} route={route} />)).toContain(
      'That tournament does not exist.',
    );
  });

  it('#/tournaments/<id> with the add-on on sale: bought, the wallet follows and the offer is gone', async () => {
    let wallet = 1_000;
    let bought = false;
    const json = (body: unknown): Response =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    const posts: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        if (url === `/api/tournaments/${TOURNAMENT}/add-on` && init?.method === 'POST') {
          posts.push(url);
          bought = true;
          wallet -= 100;
          return Promise.resolve(
            json({ tournament_id: TOURNAMENT, entry_no: 1, chips: 5_000, cost: 100, wallet, replayed: false }),
          );
        }
        if (url === `/api/tournaments/${TOURNAMENT}`) {
          return Promise.resolve(
            json(
              tournamentDetail(
                {
                  status: 'running',
                  add_on_open: true,
                  add_on_until: new Date(Date.now() + 600_000).toISOString(),
                  can_add_on: !bought,
                  prize_pool: bought ? 400 : 300,
                },
                ADD_ON_CONFIG,
              ),
            ),
          );
        }
        if (url === '/api/me') return Promise.resolve(json({ ...ME, wallet }));
        return Promise.resolve(new Response('{}', { status: 404 }));
      }),
    );
    const app = signedIn();
    const route = { name: 'tournaments', tournamentId: TOURNAMENT } as const;
    const screen = () => renderToStaticMarkup(<LobbyScreen app={app} me={ME} go={() => undefined} route={route} />);
    await app.tournaments.show(TOURNAMENT);
    expect(screen()).toContain('>Buy the add-on: 5,000 chips for 100</button>');

    await app.tournaments.addOn(TOURNAMENT);
    expect(posts).toEqual([`/api/tournaments/${TOURNAMENT}/add-on`]);
    const auth = app.auth.get();
    expect(auth.status === 'signed_in' && auth.me.wallet).toBe(900);
    const after = screen();
    expect(after).not.toContain('Buy the add-on');
    expect(after).not.toContain('tournament-add-on"');
    expect(after).toContain('data-testid="tournament-pool">400<');
  });

  it('the app shows the tournaments tab at #/tournaments', () => {
    vi.stubGlobal('location', { hash: '#/tournaments' });
    const html = renderToStaticMarkup(<App app={signedIn()} />);
    expect(html).toMatch(/id="lobby-tab-tournaments" aria-selected="true"/);
    expect(html).toContain('Loading tournaments…');
  });
});
