import { newCommandId, type LobbyMe, type LobbyRoomSummary } from '@felt/client';
import { BETTING_LIMITS, GAME_TYPES, type BettingLimit, type GameType } from '@felt/protocol';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Trans } from 'react-i18next';
import { useT } from '../i18n/use-t.js';
import { errorText } from '../lib/error-text.js';
import { chips, gameName, gameShortTitle, limitName } from '../lib/format.js';
import { LOBBY_POLL_MS, LobbyFeedMode, shouldPoll } from '../lib/lobby-feed-mode.js';
import { filterRooms, roomListQuery, type RoomFilter } from '../lib/room-filter.js';
import type { Route } from '../lib/routes.js';
import type { AppState } from '../state/app-state.js';
import { ToastKind } from '../state/toasts.js';
import { CreateRoomDialog } from './create-room-dialog.js';
import { useStore } from './hooks.js';
import { JoinRoomDialog } from './join-room-dialog.js';
import { TournamentsPanel } from './tournaments-panel.js';
import { WaitlistList } from './waitlist-panel.js';

interface Props {
  readonly app: AppState;
  readonly me: LobbyMe;
  readonly go: (r: Route) => void;
  /** The lobby's route: `tournaments` shows the tournaments tab (and one tournament); any other the tables. */
  readonly route?: Route;
}

const LobbyTab = { TABLES: 'tables', TOURNAMENTS: 'tournaments' } as const;
type LobbyTab = (typeof LobbyTab)[keyof typeof LobbyTab];

const TAB_ROUTES: Readonly<Record<LobbyTab, Route>> = {
  tables: { name: 'lobby' },
  tournaments: { name: 'tournaments', tournamentId: null },
};
const TABS = [LobbyTab.TABLES, LobbyTab.TOURNAMENTS] as const;

/**
 * Tables or Tournaments, as tabs: each is an address (`#/`, `#/tournaments`), so a reload and the
 * back button keep the tab. The arrow keys move between them, as in any tab list.
 */
function LobbyTabs({ tab, go }: { readonly tab: LobbyTab; readonly go: (r: Route) => void }) {
  const t = useT();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: KeyboardEvent, i: number): void => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    e.preventDefault();
    const next = (i + (e.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length;
    refs.current[next]?.focus();
    go(TAB_ROUTES[TABS[next]!]);
  };
  return (
    <div className="tabs lobby__tabs" role="tablist" aria-label={t('lobby.views')}>
      {TABS.map((x, i) => (
        <button
          key={x}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={`lobby-tab-${x}`}
          aria-selected={tab === x}
          aria-controls={tab === x ? `lobby-panel-${x}` : undefined}
          tabIndex={tab === x ? 0 : -1}
          className={`tab${tab === x ? ' tab--active' : ''}`}
          data-testid={`lobby-tab-${x}`}
          onClick={() => go(TAB_ROUTES[x])}
          onKeyDown={(e) => onKeyDown(e, i)}
        >
          {x === LobbyTab.TABLES ? t('lobby.tabTables') : t('lobby.tabTournaments')}
        </button>
      ))}
    </div>
  );
}

/**
 * The open tables under the screen's filters: from the live lobby while it is live (filtered here,
 * as the live list is the unfiltered one), else polled from GET /api/rooms (with the wallet and
 * seats from GET /api/me) every few seconds while the tab is visible, as before the live lobby. The
 * polling stops as soon as the live list arrives and starts again when the socket drops.
 */
function useRooms(app: AppState, game: RoomFilter['game'], limit: RoomFilter['limit']) {
  const mode = useStore(app.liveLobby.mode);
  const liveRooms = useStore(app.liveLobby.rooms);
  const [polled, setPolled] = useState<readonly LobbyRoomSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const filter = useMemo<RoomFilter>(() => ({ game, limit }), [game, limit]);
  const load = useCallback(async () => {
    try {
      setPolled(await app.lobby.listRooms(roomListQuery(filter)));
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, [app, filter]);
  useEffect(() => {
    if (mode === LobbyFeedMode.LIVE) return;
    void load();
    const id = setInterval(() => {
      if (!shouldPoll(app.liveLobby.mode.get(), document.visibilityState === 'visible')) return;
      void load();
      void app.refreshMe();
    }, LOBBY_POLL_MS);
    return () => clearInterval(id);
  }, [load, app, mode]);
  const live = mode === LobbyFeedMode.LIVE && liveRooms !== null;
  const rooms = live ? filterRooms(liveRooms, filter) : polled;
  return {
    rooms,
    mode,
    error: live ? null : error,
    // Live, the change reaches the list by itself.
    reload: async () => (live ? undefined : load()),
  };
}

export function LobbyScreen({ app, me, go, route = { name: 'lobby' } }: Props) {
  const t = useT();
  const tab = route.name === 'tournaments' ? LobbyTab.TOURNAMENTS : LobbyTab.TABLES;
  const [game, setGame] = useState<GameType | ''>('');
  const [limit, setLimit] = useState<BettingLimit | ''>('');
  const { rooms, mode, error, reload } = useRooms(app, game, limit);
  const [creating, setCreating] = useState(false);
  const [joining, setJoining] = useState<LobbyRoomSummary | null>(null);
  const ids = { game: useId(), limit: useId() };

  useEffect(() => {
    void app.refreshMe();
  }, [app]);

  const seated = new Set(me.seats.map((s) => s.session_id));
  const waitlists = useStore(app.waitlists.entries);
  const waiting = new Set(waitlists.map((w) => w.session_id));
  const wait = async (room: LobbyRoomSummary): Promise<void> => {
    try {
      const entry = await app.waitlists.join(room.session_id);
      app.toasts.show(t('waitlist.joined', { code: entry.code, position: entry.position }), ToastKind.SUCCESS);
    } catch (err) {
      app.toasts.show(errorText(err));
    }
  };
  const leaveLine = (room: LobbyRoomSummary): void => {
    app.waitlists.leave(room.session_id).catch((err: unknown) => app.toasts.show(errorText(err)));
  };

  return (
    <main className="lobby" aria-labelledby="lobby-title">
      <div className="lobby__head">
        <h1 id="lobby-title">{t('lobby.title')}</h1>
        <button type="button" className="btn btn--primary" onClick={() => setCreating(true)}>
          {t('lobby.createRoom')}
        </button>
      </div>

      {me.seats.length > 0 && (
        <section className="panel" aria-labelledby="seats-title">
          <h2 id="seats-title">{t('lobby.yourSeats')}</h2>
          <ul className="seat-list">
            {me.seats.map((s) => (
              <li key={s.session_id} className="seat-list__item">
                <span>
                  <Trans
                    i18nKey="lobby.seatLine"
                    values={{ code: s.code, seat: s.seat, stack: chips(s.stack) }}
                    components={{ code: <strong className="mono" /> }}
                  />
                </span>
                <a className="btn btn--primary" href={`#/table/${s.session_id}`}>
                  {t('lobby.openTable')}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}

      <WaitlistList app={app} />

      <div className="lobby__grid">
        <div className="lobby__main">
          <LobbyTabs tab={tab} go={go} />
          {tab === LobbyTab.TOURNAMENTS ? (
            <div role="tabpanel" id="lobby-panel-tournaments" aria-labelledby="lobby-tab-tournaments">
              <section className="panel lobby__tournaments" aria-labelledby="tournaments-title">
                <TournamentsPanel
                  app={app}
                  tournamentId={route.name === 'tournaments' ? route.tournamentId : null}
                  meId={me.user.id}
                />
              </section>
            </div>
          ) : (
            <div role="tabpanel" id="lobby-panel-tables" aria-labelledby="lobby-tab-tables">
              <section className="panel lobby__tables" aria-labelledby="tables-title">
                <div className="panel__head">
                  <h2 id="tables-title">{t('lobby.tables')}</h2>
                  <div className="filters">
                    <div className="field field--inline">
                      <label htmlFor={ids.game}>{t('lobby.game')}</label>
                      <select id={ids.game} value={game} onChange={(e) => setGame(e.target.value as GameType | '')}>
                        <option value="">{t('lobby.allGames')}</option>
                        {GAME_TYPES.map((g) => (
                          <option key={g} value={g}>
                            {gameName(g)}
                          </option>
                        ))}
                      </select>
                    </div>
                    <div className="field field--inline">
                      <label htmlFor={ids.limit}>{t('lobby.limit')}</label>
                      <select
                        id={ids.limit}
                        value={limit}
                        onChange={(e) => setLimit(e.target.value as BettingLimit | '')}
                      >
                        <option value="">{t('lobby.anyLimit')}</option>
                        {BETTING_LIMITS.map((l) => (
                          <option key={l} value={l}>
                            {limitName(l)}
                          </option>
                        ))}
                      </select>
                    </div>
                  </div>
                </div>
                {error !== null && (
                  <p className="form__error" role="alert">
                    {error}
                  </p>
                )}
                {rooms === null ? (
                  <p aria-busy="true">{t('lobby.loadingTables')}</p>
                ) : rooms.length === 0 ? (
                  <p className="muted">{t('lobby.noTables')}</p>
                ) : (
                  <RoomsTable
                    rooms={rooms}
                    seated={seated}
                    waiting={waiting}
                    onJoin={setJoining}
                    onWait={(r) => void wait(r)}
                    onLeaveWait={leaveLine}
                  />
                )}
                <p id="tables-live-note" className="hint" data-testid="lobby-feed" data-mode={mode}>
                  {mode === LobbyFeedMode.LIVE ? t('lobby.feedLive') : t('lobby.feedPolling')}
                </p>
              </section>
            </div>
          )}
        </div>

        <div className="lobby__side">
          <JoinByCode app={app} go={go} />
          <QuickJoin app={app} go={go} />
        </div>
      </div>

      <CreateRoomDialog
        app={app}
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => {
          setCreating(false);
          void app.refreshMe();
          go({ name: 'table', tableId: id, spectate: false });
        }}
      />
      {joining !== null && (
        <JoinRoomDialog
          app={app}
          room={joining}
          onClose={() => setJoining(null)}
          onJoined={(id) => {
            setJoining(null);
            void reload();
            go({ name: 'table', tableId: id, spectate: false });
          }}
        />
      )}
    </main>
  );
}

/** The open tables: game, stakes, players, buy-in range, code, and Join (or Open) and Watch. */
export function RoomsTable({
  rooms,
  seated,
  waiting = new Set(),
  onJoin,
  onWait = () => undefined,
  onLeaveWait = () => undefined,
}: {
  readonly rooms: readonly LobbyRoomSummary[];
  readonly seated: ReadonlySet<string>;
  /** Rooms whose waitlist holds the player. */
  readonly waiting?: ReadonlySet<string>;
  readonly onJoin: (room: LobbyRoomSummary) => void;
  readonly onWait?: (room: LobbyRoomSummary) => void;
  readonly onLeaveWait?: (room: LobbyRoomSummary) => void;
}) {
  const t = useT();
  return (
    <table className="rooms" aria-describedby="tables-live-note">
      <thead>
        <tr>
          <th scope="col">{t('lobby.colGame')}</th>
          <th scope="col">{t('lobby.colStakes')}</th>
          <th scope="col">{t('lobby.colPlayers')}</th>
          <th scope="col" className="hide-sm">
            {t('lobby.colBuyIn')}
          </th>
          <th scope="col" className="hide-sm">
            {t('lobby.colCode')}
          </th>
          <th scope="col">
            <span className="visually-hidden">{t('lobby.colActions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rooms.map((r) => (
          <tr key={r.session_id} data-room={r.code}>
            <td>{gameShortTitle(r.game, r.limit)}</td>
            <td>
              {r.stakes}
              {r.practice && (
                <span className="hint" data-testid="practice-room">
                  {' · '}
                  {t('lobby.practice')}
                </span>
              )}
            </td>
            <td>
              {r.players}/{r.seats}
              {r.waitlist > 0 && (
                <span className="hint" data-testid="waitlist-count">
                  {' · '}
                  {t('waitlist.waiting', { count: r.waitlist })}
                </span>
              )}
            </td>
            <td className="hide-sm">
              {chips(r.buy_in.min)}–{chips(r.buy_in.max)}
            </td>
            <td className="hide-sm mono">{r.code}</td>
            <td className="rooms__actions">
              {seated.has(r.session_id) ? (
                <a className="btn btn--primary btn--sm" href={`#/table/${r.session_id}`}>
                  {t('lobby.open')}
                </a>
              ) : waiting.has(r.session_id) ? (
                <button
                  type="button"
                  className="btn btn--ghost btn--sm"
                  onClick={() => onLeaveWait(r)}
                  aria-label={t('waitlist.leaveLabel', { code: r.code })}
                >
                  {t('waitlist.leave')}
                </button>
              ) : r.players >= r.seats || r.waitlist > 0 ? (
                <button
                  type="button"
                  className="btn btn--secondary btn--sm"
                  onClick={() => onWait(r)}
                  aria-label={t('waitlist.joinLabel', { code: r.code })}
                >
                  {t('waitlist.join')}
                </button>
              ) : (
                <button
                  type="button"
                  className="btn btn--primary btn--sm"
                  disabled={r.players >= r.seats}
                  onClick={() => onJoin(r)}
                  aria-label={t('lobby.joinLabel', {
                    game: gameShortTitle(r.game, r.limit),
                    stakes: r.stakes,
                    code: r.code,
                  })}
                >
                  {t('lobby.join')}
                </button>
              )}
              <a
                className="btn btn--ghost btn--sm"
                href={`#/watch/${r.session_id}`}
                aria-label={t('lobby.watchLabel', { code: r.code })}
              >
                {t('lobby.watch')}
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function JoinByCode({ app, go }: { readonly app: AppState; readonly go: (r: Route) => void }) {
  const t = useT();
  const [code, setCode] = useState('');
  const [buyIn, setBuyIn] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ids = { code: useId(), buyIn: useId() };
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const joined = await app.lobby.joinByCode(code.trim(), { buy_in: Number(buyIn) }, newCommandId());
      await app.refreshMe();
      go({ name: 'table', tableId: joined.session_id, spectate: false });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel" aria-labelledby="code-title">
      <h2 id="code-title">{t('lobby.joinByCode')}</h2>
      <form className="form" onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor={ids.code}>{t('lobby.roomCode')}</label>
          <input
            id={ids.code}
            name="code"
            inputMode="numeric"
            autoComplete="off"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            placeholder={t('lobby.codePlaceholder')}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.buyIn}>{t('lobby.buyIn')}</label>
          <input
            id={ids.buyIn}
            name="buy_in"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            required
            value={buyIn}
            onChange={(e) => setBuyIn(e.target.value)}
          />
        </div>
        {error !== null && (
          <p className="form__error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
          {t('lobby.joinRoom')}
        </button>
      </form>
    </section>
  );
}

function QuickJoin({ app, go }: { readonly app: AppState; readonly go: (r: Route) => void }) {
  const t = useT();
  const [game, setGame] = useState<GameType | ''>('holdem');
  const [buyIn, setBuyIn] = useState('');
  const [busy, setBusy] = useState(false);
  const ids = { game: useId(), buyIn: useId() };
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    try {
      const joined = await app.lobby.quickJoin(
        {
          ...(game !== '' ? { game } : {}),
          ...(buyIn.trim() !== '' ? { buy_in: Number(buyIn) } : {}),
        },
        newCommandId(),
      );
      await app.refreshMe();
      app.toasts.show(t('lobby.seatedIn', { code: joined.code }), ToastKind.SUCCESS);
      go({ name: 'table', tableId: joined.session_id, spectate: false });
    } catch (err) {
      app.toasts.show(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel" aria-labelledby="quick-title">
      <h2 id="quick-title">{t('lobby.quickJoin')}</h2>
      <form className="form" onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor={ids.game}>{t('lobby.game')}</label>
          <select id={ids.game} value={game} onChange={(e) => setGame(e.target.value as GameType | '')}>
            <option value="">{t('lobby.anyGame')}</option>
            {GAME_TYPES.map((g) => (
              <option key={g} value={g}>
                {gameName(g)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.buyIn}>{t('lobby.buyInOptional')}</label>
          <input
            id={ids.buyIn}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={buyIn}
            onChange={(e) => setBuyIn(e.target.value)}
            placeholder={t('lobby.buyInPlaceholder')}
          />
        </div>
        <button type="submit" className="btn btn--secondary btn--block" disabled={busy}>
          {t('lobby.findSeat')}
        </button>
      </form>
    </section>
  );
}
