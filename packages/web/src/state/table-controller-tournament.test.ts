// The table controller at a tournament's table, on the SDK's real TableSession (only the connection
// is fake): the tournament view with your place, `tournament_state` between snapshots, your result
// (your last entry's: the lobby says which that is) kept once you are out, a move followed from
// `table_moved` or, when that was lost, from the lobby's your_table_id, and the add-on offered during
// a break when the lobby says you may buy it.
import {
  LobbyApiError,
  TableSession,
  type FeltClient,
  type LobbyTournamentDetail,
  type SessionHost,
} from '@felt/client';
import type { TableMoved, TableState, TournamentView } from '@felt/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADD_ON_CONFIG,
  ALICE,
  seat,
  TABLE,
  tableState,
  TOURNAMENT,
  tournamentDetail,
  tournamentView,
} from '../test-support/fixtures.js';
import { TOURNAMENTS_POLL_MS } from '../lib/tournaments.js';
import { TableController, type TournamentLink } from './table-controller.js';
import { Toasts } from './toasts.js';

const NEXT_TABLE = 'tbl-2';

/** The tournament running, late registration over, alice's one entry playing: the lobby takes no more entries. */
const ONE_ENTRY = tournamentDetail({
  status: 'running',
  players: tournamentDetail().players.map((p) => ({ ...p, status: 'playing' as const })),
});

/** Alice's rows, per entry: the first out in 9th place, the re-entry playing, late registration over. */
const RE_ENTERED = tournamentDetail({
  status: 'running',
  players: [
    { ...ONE_ENTRY.players[0]!, status: 'finished', place: 9 },
    ...ONE_ENTRY.players.slice(1),
    { ...ONE_ENTRY.players[0]!, entry_no: 2, status: 'playing', table_id: TABLE },
  ],
});

/** A row of alice's in `placed`. */
const aliceOut = (entry_no: number, place: number, prize = 0) => ({
  user_id: ALICE,
  name: 'alice',
  place,
  prize,
  entry_no,
});

interface LobbyFake {
  /** The page's last read of the tournament (the tournaments tab's): by default, alice's one entry, final. */
  readonly lastRead?: LobbyTournamentDetail | null;
  /** What the lobby answers the table's question about your entries (or the add-on). */
  readonly read?: () => Promise<LobbyTournamentDetail>;
  /** What the lobby answers a purchase of the add-on. */
  readonly addOn?: TournamentLink['addOn'];
}

function harness(
  yourTable: TournamentLink['yourTable'] = () => Promise.resolve(null),
  known = new Map<string, string>(),
  lobby: LobbyFake = {},
) {
  const host: SessionHost = {
    clientSeeds: false,
    isOpen: () => true,
    sendFrame: () => true,
    sendCommand: () => Promise.reject(new Error('no commands here')),
    newCommandId: () => 'cmd-1',
    randomBytes: (n) => new Uint8Array(n),
    noteResync: () => undefined,
    noteAnomaly: () => undefined,
    noteLoss: () => undefined,
    noteFairness: () => undefined,
    noteClientSeed: () => undefined,
    later: () => () => undefined,
    now: () => 0,
    silenceMs: 0,
  };
  const session = new TableSession(TABLE, host, false);
  const client = {
    join: () => session,
    connection: { state: 'open' },
    on: () => () => undefined,
  } as unknown as FeltClient;
  const lookup = vi.fn(yourTable);
  const read = vi.fn(lobby.read ?? (() => Promise.resolve(ONE_ENTRY)));
  const lastRead = lobby.lastRead === undefined ? ONE_ENTRY : lobby.lastRead;
  const addOn = vi.fn(
    lobby.addOn ??
      ((id: string) =>
        Promise.resolve({ tournament_id: id, entry_no: 1, chips: 5_000, cost: 100, wallet: 900, replayed: false })),
  );
  const link: TournamentLink = {
    userId: ALICE,
    yourTable: lookup,
    readTournament: read,
    lastRead: (tournamentId) => (tournamentId === TOURNAMENT ? lastRead : null),
    noteTable: (tableId, tournamentId) => void known.set(tableId, tournamentId),
    tournamentOf: (tableId) => known.get(tableId) ?? null,
    addOn,
  };
  const toasts = new Toasts();
  const controller = new TableController(client, TABLE, false, toasts, null, null, link);
  return { controller, session, lookup, read, known, addOn, toasts };
}

/** Alice (the hero) at seat 2 with 12,000, between hands, at a table of the fixture's tournament. */
function snapshot(tableSeq: number, tournament: TournamentView = tournamentView(), over: Partial<TableState> = {}) {
  return tableState({
    table_seq: tableSeq,
    seats: [seat(1, { stack: 25_000 }), seat(2, { user_id: ALICE, name: 'alice', stack: 12_000 })],
    hero: { seat: 2, cards: [] },
    tournament,
    ...over,
  });
}

const moved = (tableSeq: number): TableMoved => ({
  type: 'table_moved',
  table_id: TABLE,
  table_seq: tableSeq,
  tournament_id: TOURNAMENT,
  to_table_id: NEXT_TABLE,
});

/** Lets the controller's lobby question, answered at once by the fake, come back (a few microtasks). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe('TableController at a tournament table', () => {
  afterEach(() => vi.useRealTimers());

  it('has no tournament at a cash table', () => {
    const h = harness();
    h.session.handle(snapshot(10, undefined, { tournament: undefined }), null);
    expect(h.controller.state.tournament).toBeNull();
  });

  it('keeps the tournament view with your place, and follows tournament_state', () => {
    const h = harness();
    h.session.handle(snapshot(10), null);
    expect(h.controller.state.tournament).toEqual({ view: tournamentView(), place: 3, result: null, pending: null });
    // A new level, between hands, before any new snapshot.
    const level4 = tournamentView({
      level: { number: 4, small_blind: 200, big_blind: 400, ante: 50, big_blind_ante: 0 },
      next_level: null,
      hand_for_hand: true,
      stacks: [40_000, 25_000, 20_000, 12_000, 5_000],
    });
    h.session.handle({ type: 'tournament_state', table_id: TABLE, table_seq: 11, tournament: level4 }, null);
    expect(h.controller.state.tournament?.view.level.number).toBe(4);
    expect(h.controller.state.tournament?.view.hand_for_hand).toBe(true);
    expect(h.controller.state.tournament?.place).toBe(4);
    expect(h.controller.state.movedTo).toBeNull();
  });

  it('follows table_moved once, without asking the lobby', () => {
    const h = harness();
    h.session.handle(snapshot(10), null);
    h.session.handle(moved(11), null);
    expect(h.controller.state.movedTo).toBe(NEXT_TABLE);
    // Told again (a replay): the first move stands.
    h.session.handle({ ...moved(12), to_table_id: 'tbl-3' }, null);
    expect(h.controller.state.movedTo).toBe(NEXT_TABLE);
    expect(h.lookup).not.toHaveBeenCalled();
  });

  it('keeps your place and prize once you are out, and stays where it is', async () => {
    // The page read the tournament: your one entry, and no more can come. The result shows at once.
    const h = harness();
    h.session.handle(snapshot(10), null);
    // Busted: the table no longer seats you (you watch), and the director names your place.
    const out = tournamentView({
      players_left: 4,
      stacks: [40_000, 25_000, 20_000, 5_000],
      placed: [{ user_id: ALICE, name: 'alice', place: 5, prize: 0, entry_no: 1 }],
    });
    h.session.handle(snapshot(11, out, { seats: [seat(1, { stack: 37_000 })], hero: undefined }), null);
    expect(h.controller.state.tournament?.result).toEqual({ place: 5, prize: 0 });
    expect(h.controller.state.tournament?.place).toBeNull();
    // Later players out push you off the list: your result stays.
    h.session.handle(snapshot(12, tournamentView({ placed: [] }), { hero: undefined }), null);
    expect(h.controller.state.tournament?.result).toEqual({ place: 5, prize: 0 });
    await settle();
    expect(h.lookup).not.toHaveBeenCalled();
    expect(h.read).not.toHaveBeenCalled();
    expect(h.controller.state.movedTo).toBeNull();
  });

  it('re-entered: your first entry’s place is published while you play on, without a result; your second’s is your result', async () => {
    // Seated with your second entry; the page has not read the tournament (reloaded at this table).
    const h = harness(undefined, undefined, { lastRead: null, read: () => Promise.resolve(RE_ENTERED) });
    h.session.handle(snapshot(10), null);
    // Late registration closes: the director places your first entry (9th) at every table.
    const closed = tournamentView({ entrants: 10, placed: [aliceOut(1, 9)] });
    h.session.handle({ type: 'tournament_state', table_id: TABLE, table_seq: 11, tournament: closed }, null);
    expect(h.controller.state.tournament?.result).toBeNull();
    expect(h.controller.state.tournament?.place).toBe(3);
    expect(h.read).toHaveBeenCalledExactlyOnceWith(TOURNAMENT);
    await settle();
    // The lobby lists your second entry: the row was your first's, and you play on.
    expect(h.controller.state.tournament).toMatchObject({ result: null, pending: null, place: 3 });
    h.session.handle(snapshot(12, closed), null);
    expect(h.controller.state.tournament).toMatchObject({ result: null, pending: null, place: 3 });
    expect(h.read).toHaveBeenCalledTimes(1);
    // Your second entry is out, in 4th: that is your result, at once (no entry can follow it).
    const out = tournamentView({
      players_left: 3,
      entrants: 10,
      stacks: [60_000, 30_000, 10_000],
      placed: [aliceOut(2, 4, 50), aliceOut(1, 9)],
    });
    h.session.handle(snapshot(13, out, { seats: [seat(1, { stack: 60_000 })], hero: undefined }), null);
    expect(h.controller.state.tournament?.result).toEqual({ place: 4, prize: 50 });
    expect(h.controller.state.tournament?.place).toBeNull();
    expect(h.read).toHaveBeenCalledTimes(1);
  });

  it('re-entered from this page: your first entry’s row is dropped without asking the lobby', () => {
    // The tab read the tournament after your re-entry, while late registration was still open.
    const h = harness(undefined, undefined, {
      lastRead: { ...RE_ENTERED, late_registration_open: true, re_entry_open: true },
    });
    h.session.handle(snapshot(10, tournamentView({ placed: [aliceOut(1, 9)] })), null);
    expect(h.controller.state.tournament).toMatchObject({ result: null, pending: null, place: 3 });
    expect(h.read).not.toHaveBeenCalled();
  });

  it('one entry, the page unsure whether you re-entered: the result once the lobby answers', async () => {
    // The page last read the tournament while late registration was open (another entry could come).
    const h = harness(undefined, undefined, {
      lastRead: { ...ONE_ENTRY, late_registration_open: true },
    });
    h.session.handle(snapshot(10), null);
    const out = tournamentView({ players_left: 4, stacks: [40_000, 25_000, 20_000, 5_000], placed: [aliceOut(1, 5)] });
    h.session.handle(snapshot(11, out, { seats: [seat(1, { stack: 37_000 })], hero: undefined }), null);
    expect(h.controller.state.tournament?.result).toBeNull();
    expect(h.read).toHaveBeenCalledTimes(1);
    await settle();
    expect(h.controller.state.tournament?.result).toEqual({ place: 5, prize: 0 });
    expect(h.controller.state.tournament?.pending).toBeNull();
  });

  it('the lobby away: no result, asked again with the table’s next word of the tournament 5 s on', async () => {
    vi.useFakeTimers();
    let answer = (): Promise<LobbyTournamentDetail> => Promise.reject(new Error('lobby away'));
    const h = harness(undefined, undefined, { lastRead: null, read: () => answer() });
    const out = tournamentView({ players_left: 4, placed: [aliceOut(1, 5)] });
    h.session.handle(snapshot(10, out, { seats: [seat(1)], hero: undefined }), null);
    await settle();
    expect(h.controller.state.tournament?.result).toBeNull();
    expect(h.read).toHaveBeenCalledTimes(1);
    answer = () => Promise.resolve(ONE_ENTRY);
    await vi.advanceTimersByTimeAsync(TOURNAMENTS_POLL_MS);
    h.session.handle({ type: 'tournament_state', table_id: TABLE, table_seq: 11, tournament: out }, null);
    expect(h.read).toHaveBeenCalledTimes(2);
    await settle();
    expect(h.controller.state.tournament?.result).toEqual({ place: 5, prize: 0 });
  });

  it('a failing lobby is not asked on every snapshot: at most every 5 s while a row waits', async () => {
    vi.useFakeTimers();
    const h = harness(undefined, undefined, { lastRead: null, read: () => Promise.reject(new Error('lobby away')) });
    const out = tournamentView({ players_left: 4, placed: [aliceOut(1, 5)] });
    const watching = { seats: [seat(1)], hero: undefined };
    h.session.handle(snapshot(10, out, watching), null);
    await settle();
    expect(h.read).toHaveBeenCalledTimes(1);
    // A hand played at the table: a snapshot with every action, each answered while the lobby is away.
    for (let seq = 11; seq <= 30; seq++) {
      await vi.advanceTimersByTimeAsync(200);
      h.session.handle(snapshot(seq, out, watching), null);
      await settle();
    }
    expect(h.read).toHaveBeenCalledTimes(1);
    expect(h.controller.state.tournament).toMatchObject({ result: null, pending: aliceOut(1, 5) });
    // 5 s after the last question: the next snapshot asks again, once.
    await vi.advanceTimersByTimeAsync(1_000);
    h.session.handle(snapshot(31, out, watching), null);
    h.session.handle(snapshot(32, out, watching), null);
    await settle();
    expect(h.read).toHaveBeenCalledTimes(2);
    h.controller.dispose();
  });

  it('asks the lobby where you sit when your seat here went without a move or a place (a lost table_moved)', async () => {
    const h = harness(() => Promise.resolve(NEXT_TABLE));
    h.session.handle(snapshot(10), null);
    h.session.handle(snapshot(11, tournamentView(), { seats: [seat(1)], hero: undefined }), null);
    expect(h.lookup).toHaveBeenCalledWith(TOURNAMENT);
    await settle();
    expect(h.controller.state.movedTo).toBe(NEXT_TABLE);
  });

  it('asks the lobby when joining again is refused (moved while the socket was down)', async () => {
    const h = harness(() => Promise.resolve(NEXT_TABLE));
    h.session.handle(snapshot(10), null);
    h.session.joinRefused({ type: 'error', code: 'not_member', message: 'not a member', table_id: TABLE });
    expect(h.lookup).toHaveBeenCalledTimes(1);
    await settle();
    expect(h.controller.state.movedTo).toBe(NEXT_TABLE);
  });

  it('a table the page saw before: a refused join asks the lobby even before any view (back from the lobby)', async () => {
    const first = harness();
    first.session.handle(snapshot(10), null);
    expect([...first.known]).toEqual([[TABLE, TOURNAMENT]]);
    // The tile is closed for a visit to the lobby, opened again, and the table no longer has the player.
    const again = harness(() => Promise.resolve(NEXT_TABLE), first.known);
    again.session.joinRefused({ type: 'error', code: 'not_member', message: 'not a member', table_id: TABLE });
    expect(again.lookup).toHaveBeenCalledWith(TOURNAMENT);
    await settle();
    expect(again.controller.state.movedTo).toBe(NEXT_TABLE);
    // A table the page never saw in a tournament (a cash table): nothing to ask.
    const cash = harness(() => Promise.resolve(NEXT_TABLE));
    cash.session.joinRefused({ type: 'error', code: 'not_member', message: 'not a member', table_id: TABLE });
    await settle();
    expect(cash.lookup).not.toHaveBeenCalled();
    expect(cash.controller.state.movedTo).toBeNull();
  });

  it('stays when the lobby seats you here, seats you nowhere, or does not answer', async () => {
    for (const answer of [
      () => Promise.resolve(TABLE),
      () => Promise.resolve(null),
      () => Promise.reject(new Error('lobby away')),
    ]) {
      const h = harness(answer);
      h.session.handle(snapshot(10), null);
      h.session.joinRefused({ type: 'error', code: 'not_member', message: 'not a member', table_id: TABLE });
      await settle();
      expect(h.controller.state.movedTo).toBeNull();
    }
  });

  it('follows nothing once closed by the page', async () => {
    let answer: (to: string | null) => void = () => undefined;
    const h = harness(() => new Promise((r) => (answer = r)));
    h.session.handle(snapshot(10), null);
    h.session.handle(snapshot(11, tournamentView(), { seats: [seat(1)], hero: undefined }), null);
    h.controller.dispose();
    answer(NEXT_TABLE);
    await settle();
    expect(h.controller.state.movedTo).toBeNull();
  });
});

describe('TableController: the add-on during a break', () => {
  afterEach(() => vi.useRealTimers());

  const BREAK_END = 1_764_400_300_000;
  const UNTIL = new Date(BREAK_END).toISOString();
  /** The first break: no level clock, the break's end. */
  const onBreak = (over: Partial<TournamentView> = {}) =>
    tournamentView({ level_ends_at: null, break_ends_at: BREAK_END, ...over });
  /** The tournament with an add-on, running, as the lobby answers it at each stage of the sale. */
  const detail = (over: Partial<LobbyTournamentDetail> = {}): LobbyTournamentDetail => ({
    ...ONE_ENTRY,
    config: tournamentDetail({}, ADD_ON_CONFIG).config,
    ...over,
  });
  const NOT_YET = detail();
  const ON_SALE = detail({ add_on_open: true, add_on_until: UNTIL, can_add_on: true });
  const BOUGHT = detail({ add_on_open: true, add_on_until: UNTIL, can_add_on: false });
  const OVER = detail({ add_on_until: UNTIL });
  const toastTexts = (h: ReturnType<typeof harness>) => h.toasts.store.get().map((x) => x.text);

  it('asks the lobby once when the break starts; offers the add-on the lobby says you may buy, and buys it', async () => {
    const h = harness(undefined, undefined, { lastRead: NOT_YET, read: () => Promise.resolve(ON_SALE) });
    h.session.handle(snapshot(10), null);
    expect(h.read).not.toHaveBeenCalled();
    expect(h.controller.state.addOn).toBeNull();
    h.session.handle({ type: 'tournament_state', table_id: TABLE, table_seq: 11, tournament: onBreak() }, null);
    expect(h.read).toHaveBeenCalledExactlyOnceWith(TOURNAMENT);
    await settle();
    expect(h.controller.state.addOn).toEqual({
      tournamentId: TOURNAMENT,
      chips: 5_000,
      cost: 100,
      until: BREAK_END,
      busy: false,
    });
    // More of the table's words during the break: not asked again.
    h.session.handle(snapshot(12, onBreak()), null);
    h.session.handle({ type: 'tournament_state', table_id: TABLE, table_seq: 13, tournament: onBreak() }, null);
    await settle();
    expect(h.read).toHaveBeenCalledTimes(1);

    const buying = h.controller.buyAddOn();
    expect(h.controller.state.addOn?.busy).toBe(true);
    // A second click while the first is on its way sends nothing.
    await expect(h.controller.buyAddOn()).resolves.toBe(false);
    await expect(buying).resolves.toBe(true);
    expect(h.addOn).toHaveBeenCalledExactlyOnceWith(TOURNAMENT);
    expect(h.controller.state.addOn).toBeNull();
    expect(toastTexts(h)).toEqual([
      'You bought the add-on in Sunday 100: 5,000 chips, added to your stack between hands.',
    ]);
    // The rest of the break: nothing offered, nothing asked.
    h.session.handle(snapshot(14, onBreak({ stacks: [40_000, 25_000, 17_000, 8_000, 5_000] })), null);
    await settle();
    expect(h.controller.state.addOn).toBeNull();
    expect(h.read).toHaveBeenCalledTimes(1);
  });

  it('before the director opens the sale: asked again at the tab’s pace, not with every word of the table', async () => {
    vi.useFakeTimers();
    let answer = NOT_YET;
    const h = harness(undefined, undefined, { lastRead: NOT_YET, read: () => Promise.resolve(answer) });
    h.session.handle(snapshot(10, onBreak()), null);
    await settle();
    expect(h.read).toHaveBeenCalledTimes(1);
    expect(h.controller.state.addOn).toBeNull();
    // The table speaks again within the interval: no new question.
    await vi.advanceTimersByTimeAsync(1_000);
    h.session.handle({ type: 'tournament_state', table_id: TABLE, table_seq: 11, tournament: onBreak() }, null);
    await settle();
    expect(h.read).toHaveBeenCalledTimes(1);
    // The sale opens; the next question, 5 s after the first, finds it.
    answer = ON_SALE;
    await vi.advanceTimersByTimeAsync(3_999);
    expect(h.read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.read).toHaveBeenCalledTimes(2);
    await settle();
    expect(h.controller.state.addOn).toMatchObject({ chips: 5_000, cost: 100 });
    // Offered: no more questions.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(h.read).toHaveBeenCalledTimes(2);
    // The break ends: the offer goes.
    h.session.handle({ type: 'tournament_state', table_id: TABLE, table_seq: 12, tournament: tournamentView() }, null);
    expect(h.controller.state.addOn).toBeNull();
  });

  it('the lobby away: asked again at the same pace; the break’s end stops the questions', async () => {
    vi.useFakeTimers();
    const h = harness(undefined, undefined, { lastRead: NOT_YET, read: () => Promise.reject(new Error('lobby away')) });
    h.session.handle(snapshot(10, onBreak()), null);
    await settle();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(h.read).toHaveBeenCalledTimes(2);
    h.session.handle(snapshot(11), null);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.read).toHaveBeenCalledTimes(2);
    h.controller.dispose();
  });

  it('nothing to offer: no add-on, bought, or its sale over; the page’s last read may say so without asking', async () => {
    // The page's last read: a tournament without an add-on, or whose sale came and went.
    for (const known of [ONE_ENTRY, OVER, BOUGHT]) {
      const h = harness(undefined, undefined, { lastRead: known });
      h.session.handle(snapshot(10, onBreak()), null);
      await settle();
      expect(h.read).not.toHaveBeenCalled();
      expect(h.controller.state.addOn).toBeNull();
    }
    // The lobby's answer at the break: bought already (here or on another page), or over.
    for (const answer of [BOUGHT, OVER]) {
      vi.useFakeTimers();
      const h = harness(undefined, undefined, { lastRead: null, read: () => Promise.resolve(answer) });
      h.session.handle(snapshot(10, onBreak()), null);
      await settle();
      await vi.advanceTimersByTimeAsync(30_000);
      expect(h.read).toHaveBeenCalledTimes(1);
      expect(h.controller.state.addOn).toBeNull();
      vi.useRealTimers();
    }
  });

  it('a player watching, or out, is offered nothing and the lobby is not asked', async () => {
    const watching = harness(undefined, undefined, { lastRead: NOT_YET, read: () => Promise.resolve(ON_SALE) });
    watching.session.handle(snapshot(10, onBreak(), { seats: [seat(1), seat(2)], hero: undefined }), null);
    await settle();
    expect(watching.read).not.toHaveBeenCalled();
    expect(watching.controller.state.addOn).toBeNull();
  });

  it('a refusal is told; a closed sale or no entry in play takes the offer away, a short wallet keeps it', async () => {
    for (const [code, kept] of [
      ['tournament_closed', false],
      ['not_registered', false],
      ['insufficient_funds', true],
    ] as const) {
      const refusal = new LobbyApiError(409, code, 'refused');
      const h = harness(undefined, undefined, {
        lastRead: NOT_YET,
        read: () => Promise.resolve(ON_SALE),
        addOn: () => Promise.reject(refusal),
      });
      h.session.handle(snapshot(10, onBreak()), null);
      await settle();
      await expect(h.controller.buyAddOn()).resolves.toBe(false);
      expect(h.controller.state.addOn, code).toEqual(kept ? expect.objectContaining({ busy: false }) : null);
      expect(toastTexts(h)).toHaveLength(1);
    }
    const h = harness(undefined, undefined, {
      lastRead: NOT_YET,
      read: () => Promise.resolve(ON_SALE),
      addOn: () => Promise.reject(new LobbyApiError(409, 'tournament_closed', 'no add-on on sale')),
    });
    h.session.handle(snapshot(10, onBreak()), null);
    await settle();
    await h.controller.buyAddOn();
    expect(toastTexts(h)).toEqual(['The add-on is no longer on sale: its break is over.']);
  });
});
