import { LobbyApiError, type LobbyMe, type LobbyTournamentDetail, type LobbyTournamentSummary } from '@felt/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALICE, TOURNAMENT, tournamentDetail, tournamentSummary } from '../test-support/fixtures.js';
import { AppState } from './app-state.js';
import { Tournaments, type TournamentLobby } from './tournaments.js';

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const OTHER = '6b2f1d4c-3a5e-4f7b-9c8d-0e1f2a3b4c5d';
const FULL = new LobbyApiError(409, 'tournament_full', 'every place is taken');

/** The lobby's tournament calls, each answered by the test (or by default at once). */
function fakeLobby() {
  return {
    listTournaments: vi.fn<TournamentLobby['listTournaments']>(() => Promise.resolve([tournamentSummary()])),
    getTournament: vi.fn<TournamentLobby['getTournament']>((id) => Promise.resolve(tournamentDetail({ id }))),
    registerTournament: vi.fn<TournamentLobby['registerTournament']>((id) =>
      Promise.resolve({ tournament_id: id, entry_no: 1, status: 'registered' as const, wallet: 890, replayed: false }),
    ),
    unregisterTournament: vi.fn<TournamentLobby['unregisterTournament']>((id) =>
      Promise.resolve({ tournament_id: id, wallet: 1_000 }),
    ),
    addOnTournament: vi.fn<TournamentLobby['addOnTournament']>((id) =>
      Promise.resolve({ tournament_id: id, entry_no: 1, chips: 5_000, cost: 100, wallet: 790, replayed: false }),
    ),
  };
}

describe('Tournaments', () => {
  it('reads the list; a failure keeps the last list and says why', async () => {
    const lobby = fakeLobby();
    const state = new Tournaments(lobby);
    expect(state.list.get()).toEqual({ tournaments: null, error: null });
    await state.refreshList();
    expect(state.list.get().tournaments).toEqual([tournamentSummary()]);
    lobby.listTournaments.mockRejectedValueOnce(new TypeError('offline'));
    await state.refreshList();
    expect(state.list.get().tournaments).toEqual([tournamentSummary()]);
    expect(state.list.get().error).toBeInstanceOf(TypeError);
    await state.refreshList();
    expect(state.list.get().error).toBeNull();
  });

  it('an answer that comes back after a later read was asked for is dropped', async () => {
    const slow = deferred<LobbyTournamentSummary[]>();
    const lobby = fakeLobby();
    lobby.listTournaments.mockReturnValueOnce(slow.promise);
    const state = new Tournaments(lobby);
    const first = state.refreshList();
    await state.refreshList();
    slow.resolve([]);
    await first;
    expect(state.list.get().tournaments).toEqual([tournamentSummary()]);
  });

  it('shows one tournament, then another (the first one’s late answer is dropped), then none', async () => {
    const slow = deferred<LobbyTournamentDetail>();
    const lobby = fakeLobby();
    lobby.getTournament.mockReturnValueOnce(slow.promise);
    const state = new Tournaments(lobby);
    const first = state.show(TOURNAMENT);
    expect(state.detail.get()).toEqual({ id: TOURNAMENT, tournament: null, error: null });
    await state.show(OTHER);
    slow.resolve(tournamentDetail());
    await first;
    expect(state.detail.get()?.id).toBe(OTHER);
    expect(state.detail.get()?.tournament?.id).toBe(OTHER);
    // Read again: the same tournament stays on screen while its new answer is awaited.
    const again = deferred<LobbyTournamentDetail>();
    lobby.getTournament.mockReturnValueOnce(again.promise);
    const reading = state.show(OTHER);
    expect(state.detail.get()?.tournament?.id).toBe(OTHER);
    again.resolve(tournamentDetail({ id: OTHER, entrants: 4 }));
    await reading;
    expect(state.detail.get()?.tournament?.entrants).toBe(4);
    await state.show(null);
    expect(state.detail.get()).toBeNull();
  });

  it('a tournament that cannot be read keeps the last answer and says why', async () => {
    const lobby = fakeLobby();
    const state = new Tournaments(lobby);
    await state.show(TOURNAMENT);
    const gone = new LobbyApiError(404, 'tournament_not_found', 'no such tournament');
    lobby.getTournament.mockRejectedValueOnce(gone);
    await state.refreshDetail();
    expect(state.detail.get()).toMatchObject({ id: TOURNAMENT, tournament: { id: TOURNAMENT }, error: gone });
  });

  it('registering hands on the wallet and reads the tournament and the list again', async () => {
    const lobby = fakeLobby();
    const wallets: number[] = [];
    const state = new Tournaments(lobby, (w) => wallets.push(w));
    await state.show(TOURNAMENT);
    lobby.getTournament.mockResolvedValueOnce(tournamentDetail({ registered: true, entrants: 4 }));
    const entry = await state.register(TOURNAMENT);
    expect(entry.wallet).toBe(890);
    expect(lobby.registerTournament).toHaveBeenCalledWith(TOURNAMENT);
    expect(wallets).toEqual([890]);
    expect(state.detail.get()?.tournament).toMatchObject({ registered: true, entrants: 4 });
    expect(lobby.listTournaments).toHaveBeenCalledTimes(1);

    await state.unregister(TOURNAMENT);
    expect(lobby.unregisterTournament).toHaveBeenCalledWith(TOURNAMENT);
    expect(wallets).toEqual([890, 1_000]);
  });

  it('a refusal is thrown as the lobby’s typed error, and nothing changes', async () => {
    const lobby = fakeLobby();
    lobby.registerTournament.mockRejectedValue(FULL);
    const wallets: number[] = [];
    const state = new Tournaments(lobby, (w) => wallets.push(w));
    await state.show(TOURNAMENT);
    const before = state.detail.get();
    await expect(state.register(TOURNAMENT)).rejects.toBe(FULL);
    expect(wallets).toEqual([]);
    expect(state.detail.get()).toBe(before);
  });

  it('the add-on hands on the wallet and reads the tournament shown again: the offer goes away', async () => {
    const lobby = fakeLobby();
    const wallets: number[] = [];
    const state = new Tournaments(lobby, (w) => wallets.push(w));
    lobby.getTournament.mockResolvedValueOnce(
      tournamentDetail({ status: 'running', add_on_open: true, can_add_on: true }),
    );
    await state.show(TOURNAMENT);
    expect(state.detail.get()?.tournament?.can_add_on).toBe(true);
    lobby.getTournament.mockResolvedValueOnce(
      tournamentDetail({ status: 'running', add_on_open: true, can_add_on: false, prize_pool: 400 }),
    );
    const bought = await state.addOn(TOURNAMENT);
    expect(bought).toMatchObject({ chips: 5_000, cost: 100, wallet: 790 });
    expect(lobby.addOnTournament).toHaveBeenCalledExactlyOnceWith(TOURNAMENT);
    expect(wallets).toEqual([790]);
    expect(state.detail.get()?.tournament).toMatchObject({ can_add_on: false, prize_pool: 400 });
    expect(state.lastRead(TOURNAMENT)).toBe(state.detail.get()?.tournament);
  });

  it('an add-on bought from a table reads that tournament for the tables, not the tab’s', async () => {
    const lobby = fakeLobby();
    const state = new Tournaments(lobby);
    await state.show(OTHER);
    const after = tournamentDetail({ status: 'running', add_on_open: true, can_add_on: false });
    lobby.getTournament.mockResolvedValueOnce(after);
    await state.addOn(TOURNAMENT);
    expect(state.lastRead(TOURNAMENT)).toBe(after);
    expect(state.detail.get()?.id).toBe(OTHER);
    // Bought, and the lobby away for the read after it: still bought.
    lobby.getTournament.mockRejectedValueOnce(new TypeError('offline'));
    await expect(state.addOn(TOURNAMENT)).resolves.toMatchObject({ cost: 100 });
    expect(state.lastRead(TOURNAMENT)).toBe(after);
  });

  it('a refused add-on is thrown as the lobby’s typed error, and nothing changes', async () => {
    const closed = new LobbyApiError(409, 'tournament_closed', 'no add-on on sale');
    const lobby = fakeLobby();
    lobby.addOnTournament.mockRejectedValue(closed);
    const wallets: number[] = [];
    const state = new Tournaments(lobby, (w) => wallets.push(w));
    await state.show(TOURNAMENT);
    const before = state.detail.get();
    const reads = lobby.getTournament.mock.calls.length;
    await expect(state.addOn(TOURNAMENT)).rejects.toBe(closed);
    expect(wallets).toEqual([]);
    expect(state.detail.get()).toBe(before);
    expect(lobby.getTournament).toHaveBeenCalledTimes(reads);
  });

  it('finds the table the lobby seats you at, without touching the tournament shown', async () => {
    const lobby = fakeLobby();
    lobby.getTournament.mockResolvedValueOnce(tournamentDetail({ status: 'running', your_table_id: OTHER }));
    const state = new Tournaments(lobby);
    await expect(state.yourTable(TOURNAMENT)).resolves.toBe(OTHER);
    expect(lobby.getTournament).toHaveBeenCalledWith(TOURNAMENT);
    await expect(state.yourTable(TOURNAMENT)).resolves.toBeNull();
    expect(state.detail.get()).toBeNull();
  });

  it('keeps its last read of each tournament (the tab’s, the tables’) for the tables, until signed out', async () => {
    const lobby = fakeLobby();
    const state = new Tournaments(lobby);
    expect(state.lastRead(TOURNAMENT)).toBeNull();
    await state.show(TOURNAMENT);
    expect(state.lastRead(TOURNAMENT)).toBe(state.detail.get()?.tournament);
    const reEntered = tournamentDetail({ status: 'running', late_registration_open: true });
    lobby.getTournament.mockResolvedValueOnce(reEntered);
    await expect(state.read(TOURNAMENT)).resolves.toBe(reEntered);
    expect(state.lastRead(TOURNAMENT)).toBe(reEntered);
    // A table's question does not change the tournament shown.
    expect(state.detail.get()?.tournament).not.toBe(reEntered);
    lobby.getTournament.mockResolvedValueOnce(tournamentDetail({ your_table_id: OTHER }));
    await state.yourTable(TOURNAMENT);
    expect(state.lastRead(TOURNAMENT)?.your_table_id).toBe(OTHER);
    expect(state.lastRead(OTHER)).toBeNull();
    // Signed out: forgotten, and a read still on its way is not kept.
    const slow = deferred<LobbyTournamentDetail>();
    lobby.getTournament.mockReturnValueOnce(slow.promise);
    const reading = state.read(TOURNAMENT);
    state.reset();
    slow.resolve(reEntered);
    await reading;
    expect(state.lastRead(TOURNAMENT)).toBeNull();
  });

  it('a read of a tournament already on its way is shared; one after a registration or an add-on asks afresh', async () => {
    const slow = deferred<LobbyTournamentDetail>();
    const lobby = fakeLobby();
    lobby.getTournament.mockReturnValueOnce(slow.promise);
    const state = new Tournaments(lobby);
    // A table's question about your entries, its question about your seat, and the tab's poll: one request.
    const entries = state.read(TOURNAMENT);
    const seat = state.yourTable(TOURNAMENT);
    const shown = state.show(TOURNAMENT);
    expect(lobby.getTournament).toHaveBeenCalledTimes(1);
    const answer = tournamentDetail({ status: 'running', your_table_id: OTHER });
    slow.resolve(answer);
    await expect(entries).resolves.toBe(answer);
    await expect(seat).resolves.toBe(OTHER);
    await shown;
    expect(state.detail.get()?.tournament).toBe(answer);
    expect(state.lastRead(TOURNAMENT)).toBe(answer);
    // Answered: the next read asks the lobby again; a failure is shared too, and not kept.
    const away = deferred<LobbyTournamentDetail>();
    lobby.getTournament.mockReturnValueOnce(away.promise);
    const failing = [state.read(TOURNAMENT), state.read(TOURNAMENT)];
    expect(lobby.getTournament).toHaveBeenCalledTimes(2);
    away.reject(new TypeError('offline'));
    for (const read of failing) await expect(read).rejects.toBeInstanceOf(TypeError);
    expect(state.lastRead(TOURNAMENT)).toBe(answer);
    // A read asked before a registration is not shared with the one after it, and its answer not kept.
    const before = deferred<LobbyTournamentDetail>();
    lobby.getTournament.mockReturnValueOnce(before.promise);
    const polling = state.refreshDetail();
    const registered = tournamentDetail({ registered: true, entrants: 4 });
    lobby.getTournament.mockResolvedValueOnce(registered);
    await state.register(TOURNAMENT);
    expect(lobby.getTournament).toHaveBeenCalledTimes(4);
    expect(state.detail.get()?.tournament).toBe(registered);
    before.resolve(tournamentDetail());
    await polling;
    expect(state.detail.get()?.tournament).toBe(registered);
    expect(state.lastRead(TOURNAMENT)).toBe(registered);
    // Nor one asked before an add-on.
    const stale = deferred<LobbyTournamentDetail>();
    lobby.getTournament.mockReturnValueOnce(stale.promise);
    const asking = state.read(TOURNAMENT);
    const bought = tournamentDetail({ status: 'running', add_on_open: true, can_add_on: false });
    lobby.getTournament.mockResolvedValueOnce(bought);
    await state.addOn(TOURNAMENT);
    expect(state.detail.get()?.tournament).toBe(bought);
    stale.resolve(tournamentDetail({ status: 'running', add_on_open: true, can_add_on: true }));
    await asking;
    expect(state.lastRead(TOURNAMENT)).toBe(bought);
  });

  it('remembers which tournament a table belongs to, until signed out', () => {
    const state = new Tournaments(fakeLobby());
    expect(state.tournamentOf('tbl-1')).toBeNull();
    state.noteTable('tbl-1', TOURNAMENT);
    expect(state.tournamentOf('tbl-1')).toBe(TOURNAMENT);
    state.reset();
    expect(state.tournamentOf('tbl-1')).toBeNull();
  });

  it('reset forgets the list and the tournament shown, and drops reads in flight', async () => {
    const slow = deferred<LobbyTournamentSummary[]>();
    const lobby = fakeLobby();
    const state = new Tournaments(lobby);
    await state.show(TOURNAMENT);
    lobby.listTournaments.mockReturnValueOnce(slow.promise);
    const reading = state.refreshList();
    state.reset();
    slow.resolve([tournamentSummary()]);
    await reading;
    expect(state.list.get()).toEqual({ tournaments: null, error: null });
    expect(state.detail.get()).toBeNull();
  });
});

describe('AppState’s tournaments', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('register, unregister and the add-on go to the lobby’s routes, and the header’s wallet follows', async () => {
    let wallet = 1_000;
    const calls: string[] = [];
    const json = (status: number, body: unknown): Response =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const me = (): LobbyMe => ({
      user: { id: ALICE, name: 'alice' },
      wallet,
      practice_wallet: 0,
      seats: [],
      locale: 'en',
    });
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        calls.push(`${method} ${url}`);
        if (url === '/api/me') return Promise.resolve(json(200, me()));
        if (url === '/api/tournaments') return Promise.resolve(json(200, { tournaments: [tournamentSummary()] }));
        if (url === `/api/tournaments/${TOURNAMENT}`) return Promise.resolve(json(200, tournamentDetail()));
        if (url === `/api/tournaments/${TOURNAMENT}/register` && method === 'POST') {
          wallet -= 110;
          return Promise.resolve(
            json(200, { tournament_id: TOURNAMENT, entry_no: 1, status: 'registered', wallet, replayed: false }),
          );
        }
        if (url === `/api/tournaments/${TOURNAMENT}/add-on` && method === 'POST') {
          wallet -= 100;
          return Promise.resolve(
            json(200, {
              tournament_id: TOURNAMENT,
              entry_no: 1,
              chips: 5_000,
              cost: 100,
              wallet,
              replayed: false,
            }),
          );
        }
        if (url === `/api/tournaments/${TOURNAMENT}/register` && method === 'DELETE') {
          if (wallet === 1_000) {
            return Promise.resolve(json(409, { error: { code: 'not_registered', message: 'no entry to refund' } }));
          }
          wallet += 110;
          return Promise.resolve(json(200, { tournament_id: TOURNAMENT, wallet }));
        }
        return Promise.resolve(json(404, { error: { code: 'not_found', message: url } }));
      }),
    );
    const app = new AppState({ languages: ['en'], storage: null });
    await app.init();
    const walletShown = () => {
      const auth = app.auth.get();
      return auth.status === 'signed_in' ? auth.me.wallet : null;
    };
    expect(walletShown()).toBe(1_000);

    await app.tournaments.show(TOURNAMENT);
    await app.tournaments.register(TOURNAMENT);
    expect(walletShown()).toBe(890);
    expect(calls).toContain(`POST /api/tournaments/${TOURNAMENT}/register`);
    await app.tournaments.unregister(TOURNAMENT);
    expect(walletShown()).toBe(1_000);

    const refused = await app.tournaments.unregister(TOURNAMENT).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(LobbyApiError);
    expect((refused as LobbyApiError).code).toBe('not_registered');
    expect(walletShown()).toBe(1_000);

    await app.tournaments.addOn(TOURNAMENT);
    expect(walletShown()).toBe(900);
    expect(calls).toContain(`POST /api/tournaments/${TOURNAMENT}/add-on`);
  });
});
