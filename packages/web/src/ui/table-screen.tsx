import type { LobbyRoomDetail } from '@felt/client';
import { CHAT_DEFAULTS, type TournamentView } from '@felt/protocol';
import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { t as translate } from '../i18n/i18n.js';
import { useT } from '../i18n/use-t.js';
import { errorText } from '../lib/error-text.js';
import { chips, GameFamily } from '../lib/format.js';
import { preActionSpot } from '../lib/pre-actions.js';
import type { TableModel } from '../lib/table-model.js';
import type { AppState } from '../state/app-state.js';
import type { TableController, TableScreenState } from '../state/table-controller.js';
import { ToastKind } from '../state/toasts.js';
import { ActionBar } from './action-bar.js';
import { ChatPanel, type ChatSetting } from './chat-panel.js';
import { Dialog } from './dialog.js';
import { FairnessBadge, FairnessPanel } from './fairness.js';
import { Felt } from './felt.js';
import { HistoryDrawer } from './history-drawer.js';
import { useReducedMotion, useStore } from './hooks.js';
import { PreActionBar } from './pre-action-bar.js';
import { SessionSummaryDialog } from './session-summary.js';
import { ShowdownPanel } from './showdown-panel.js';
import { AddOnPrompt, TournamentHeader, TournamentResultPanel } from './tournament-table.js';

function roomActionMs(room: LobbyRoomDetail | null): number {
  const seconds = room?.config.clock?.actionSeconds;
  return seconds !== undefined ? seconds * 1000 : 30_000;
}

/** The room's chat setting, with the protocol's defaults for a config that leaves it out. */
function chatSetting(room: LobbyRoomDetail | null): ChatSetting | null {
  if (room === null) return null;
  const chat = room.config.chat;
  return {
    enabled: chat?.enabled ?? CHAT_DEFAULTS.enabled,
    spectators: chat?.spectators ?? CHAT_DEFAULTS.spectators,
  };
}

function mayForceStart(room: LobbyRoomDetail | null): boolean {
  return room?.config.startHand?.hostMayForceStart !== false;
}

function bigUnit(model: TableModel): number {
  const s = model.game.variant.stakes;
  return model.game.variant.limit === 'fl' || model.game.family === GameFamily.STUD
    ? s.small_bet
    : s.big_blind || s.small_bet || 1;
}

/** How a table shows as one tile of several in the page (ui/multi-table-screen.tsx). */
export interface TileOptions {
  /** Small: no side column, tighter seats and bars (the tiled layout). */
  readonly compact: boolean;
  /** This tile is in focus: the action bar's single-letter shortcuts act here. */
  readonly shortcutsActive: boolean;
  /** Closes this table's tile (the seat, if any, stays). */
  readonly onClose: () => void;
}

export function TableRoom({
  app,
  controller,
  onExit,
  tile,
}: {
  readonly app: AppState;
  readonly controller: TableController;
  readonly onExit: () => void;
  /** Shown as a tile among others; absent, the table is the page. */
  readonly tile?: TileOptions | undefined;
}) {
  const t = useT();
  const st: TableScreenState = useStore(controller.store);
  const muted = useStore(app.sound.muted);
  const model = st.model;
  const reducedMotion = useReducedMotion();
  const [room, setRoom] = useState<LobbyRoomDetail | null>(null);
  const [panel, setPanel] = useState<'none' | 'history' | 'fairness' | 'session' | 'topup' | 'leave'>('none');
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [mucked, setMucked] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [chatSettingBusy, setChatSettingBusy] = useState(false);
  const serverNow = useCallback(() => controller.clock.now(), [controller]);

  const loadRoom = useCallback(() => {
    app.lobby
      .getRoom(controller.tableId)
      .then(setRoom)
      .catch(() => setRoom(null));
  }, [app, controller.tableId]);
  useEffect(loadRoom, [loadRoom]);

  // The host's chat switches: shown switched at once, then the lobby's answer (the room as it is now)
  // replaces the guess; a refusal is told and the room read again.
  const setChatSetting = useCallback(
    (change: Partial<ChatSetting>) => {
      setChatSettingBusy(true);
      setRoom((r) => {
        const now = chatSetting(r);
        return r === null || now === null ? r : { ...r, config: { ...r.config, chat: { ...now, ...change } } };
      });
      app.lobby
        .setRoomChat(controller.tableId, change)
        .then(setRoom)
        .catch((err: unknown) => {
          app.toasts.show(errorText(err));
          loadRoom();
        })
        .finally(() => setChatSettingBusy(false));
    },
    [app, controller.tableId, loadRoom],
  );

  // Announce the hero's turn and each result once, politely, for screen readers.
  const turnToken = model?.turn?.turnToken;
  useEffect(() => {
    if (turnToken !== undefined) setAnnouncement(translate('table.yourTurn'));
  }, [turnToken]);
  const resultId = model?.showdown?.handId;
  useEffect(() => {
    const sd = model?.showdown;
    if (sd === undefined || sd === null) return;
    const lines = sd.pots.flatMap((p) =>
      p.winners.map((w) =>
        w.handName !== null
          ? translate('table.announceWinsWith', { name: w.name, amount: chips(w.amount), hand: w.handName })
          : translate('table.announceWins', { name: w.name, amount: chips(w.amount) }),
      ),
    );
    setAnnouncement(lines.join(translate('common.sentenceSeparator')));
  }, [resultId]);
  const voidedHandId = model?.voidedHandId;
  const voidedText = model?.voidedText;
  useEffect(() => {
    if (voidedHandId != null && voidedText != null) setAnnouncement(voidedText);
  }, [voidedHandId]);
  // A new turn clears a draw selection.
  useEffect(() => setSelected(new Set()), [turnToken]);

  const toggleCard = useCallback(
    (i: number) =>
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(i)) next.delete(i);
        else next.add(i);
        return next;
      }),
    [],
  );

  // One main landmark per page: a tile is a region named after its room.
  const Root = tile === undefined ? 'main' : 'section';
  if (model === null) {
    return (
      <Root
        className={`table-screen table-screen--message${tile === undefined ? '' : ' table-screen--tile'}`}
        aria-busy="true"
        data-testid="table-pending"
      >
        <p>{st.closedReason ?? t('table.joining')}</p>
        {st.closedReason !== null && (
          <button type="button" className="btn btn--primary" onClick={tile?.onClose ?? onExit}>
            {tile === undefined ? t('common.backToLobby') : t('tables.close')}
          </button>
        )}
      </Root>
    );
  }

  const hero = model.hero;
  // A tournament's table: the director seats and deals, so sit out, leave, top up and deal now are not
  // offered (the table refuses them); the lobby is always one click away.
  const tourney = st.tournament;
  const isHost = room !== null && app.auth.get().status === 'signed_in' && room.host_id === meId(app);
  const canDiscard = model.turn?.validActions.discard != null;
  const lastHand = st.finished[0];
  const heroShown = model.showdown?.shown.some((s) => s.seat === hero?.seat) ?? false;
  // After an engine-blind hand the table cannot show cards it never had: a hero shows (or mucks) at
  // its showdown, on the turn's valid_actions.show, and never afterwards.
  const blindDealt = model.dealing !== null && (model.dealing.engineBlind || model.dealing.blindHand);
  const canShow =
    hero !== null &&
    !blindDealt &&
    hero.inHand &&
    model.phase === 'complete' &&
    model.showdown !== null &&
    !heroShown &&
    mucked !== model.handId;
  const syncing = st.connection !== 'open' || st.session !== 'joined' || st.resyncing;
  const variant = tile === undefined ? '' : ` table-screen--tile${tile.compact ? ' table-screen--compact' : ''}`;

  return (
    <Root
      className={`table-screen${variant}${syncing ? ' table-screen--syncing' : ''}`}
      aria-label={tile === undefined ? undefined : model.game.room}
      data-testid="table"
      data-table-id={model.tableId}
      data-hand-id={model.handId ?? ''}
      data-state-hash={model.stateHash}
      data-phase={model.phase}
      data-role={model.role ?? ''}
      data-family={model.game.family}
      aria-busy={syncing}
    >
      <header className="table-bar">
        <div className="table-bar__title">
          <h1>{model.game.room}</h1>
          <p className="table-bar__sub">
            <span data-testid="stakes">{model.game.stakes}</span>
            {model.dealing?.engineBlind === true && (
              <span className="badge badge--blind" title={t('blind.badgeTitle')} data-testid="engine-blind-badge">
                {t('blind.badge')}
              </span>
            )}
            {room !== null && (
              <span>
                {' · '}
                {t('table.room')} <span className="mono">{room.code}</span>
              </span>
            )}
          </p>
          {model.game.rotation !== null && (
            <p className="rotation" data-testid="rotation">
              <span className="rotation__now">{t('table.now', { game: model.game.rotation.current })}</span>
              <span className="rotation__next">
                {t('table.next', { game: model.game.rotation.next })}
                {t('table.inHands', { count: model.game.rotation.handsLeft })}
              </span>
            </p>
          )}
        </div>
        <ConnectionIndicator st={st} onResync={() => controller.resync()} />
        <nav className="table-bar__tools" aria-label={t('table.tools')}>
          <FairnessBadge hand={lastHand} onOpen={() => setPanel('fairness')} />
          {model.role === 'player' && (
            <>
              <button
                type="button"
                className="btn btn--ghost btn--sm tool-extra"
                onClick={() => setPanel('session')}
                data-testid="session-open"
              >
                {t('table.session')}
              </button>
              <button type="button" className="btn btn--ghost btn--sm tool-extra" onClick={() => setPanel('history')}>
                {t('table.history')}
              </button>
            </>
          )}
          {hero !== null && tourney === null && (
            <>
              {hero.sittingOut ? (
                <button
                  type="button"
                  className="btn btn--ghost btn--sm"
                  onClick={() => void controller.sitIn()}
                  disabled={st.busy}
                >
                  {t('table.sitIn')}
                </button>
              ) : (
                <button
                  type="button"
                  className="btn btn--ghost btn--sm"
                  onClick={() => void controller.sitOut()}
                  disabled={st.busy}
                >
                  {t('table.sitOut')}
                </button>
              )}
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => setPanel('topup')}>
                {hero.stack === 0 ? t('table.rebuy') : t('table.topUp')}
              </button>
              <button type="button" className="btn btn--ghost btn--sm" onClick={() => setPanel('leave')}>
                {t('table.leave')}
              </button>
            </>
          )}
          {model.role === 'player' && (
            <button
              type="button"
              className={`btn btn--ghost btn--sm tool-extra sound-toggle${muted ? ' sound-toggle--off' : ''}`}
              onClick={() => app.sound.toggle()}
              title={t('table.soundHint')}
              data-testid="sound-toggle"
              data-muted={muted}
            >
              {muted ? t('table.soundOff') : t('table.soundOn')}
            </button>
          )}
          {(hero === null || tourney !== null) && tile === undefined && (
            <button type="button" className="btn btn--ghost btn--sm" onClick={onExit}>
              {t('table.lobby')}
            </button>
          )}
          {tile !== undefined && (
            <button
              type="button"
              className="btn btn--ghost btn--sm tile-close"
              onClick={tile.onClose}
              aria-label={t('tables.closeLabel')}
              title={t('tables.closeLabel')}
              data-testid="tile-close"
            >
              {t('tables.close')}
            </button>
          )}
        </nav>
        {tourney !== null && (
          <TournamentHeader
            tournament={tourney}
            serverNow={serverNow}
            serverOffsetMs={controller.clock.offsetMs}
            compact={tile?.compact ?? false}
          />
        )}
      </header>
      {model.notice !== null && (
        <p className="table-notice" role="status" data-testid="table-notice">
          {model.notice}
        </p>
      )}
      {model.dealing?.downgraded != null && (
        <p
          className="table-notice table-notice--blind"
          role="status"
          data-testid="blind-downgraded"
          data-hand-id={model.dealing.downgraded.handId}
          data-step={model.dealing.downgraded.failure.step}
          data-seats={model.dealing.downgraded.failure.seats.join(' ')}
        >
          {model.dealing.downgraded.text}
        </p>
      )}
      {model.dealing?.audit != null && (
        <p className="table-notice table-notice--alert" role="alert" data-testid="blind-audit">
          {model.dealing.audit}
        </p>
      )}

      <div className="table-stage">
        <Felt
          model={model}
          serverNow={serverNow}
          actionMs={roomActionMs(room)}
          reducedMotion={reducedMotion}
          selected={canDiscard ? selected : undefined}
          onToggleCard={canDiscard ? toggleCard : undefined}
        />
        <aside className="side" aria-label={t('table.thisHand')}>
          {model.showdown !== null && (model.phase === 'complete' || model.phase === 'showdown') && (
            <ShowdownPanel
              showdown={model.showdown}
              canShow={canShow}
              heroSeat={hero?.seat ?? null}
              busy={st.busy}
              onShow={() => {
                if (model.handId !== null) void controller.showCards(model.handId);
              }}
              onMuck={() => setMucked(model.handId)}
            />
          )}
          <HandLog model={model} />
          <ChatPanel
            controller={controller}
            st={st}
            meId={meId(app)}
            setting={chatSetting(room)}
            onSetting={isHost ? setChatSetting : undefined}
            settingBusy={chatSettingBusy}
          />
        </aside>
      </div>

      <div className="hero-area">
        {model.turn !== null && hero !== null && !syncing ? (
          <ActionBar
            turn={model.turn}
            bigUnit={bigUnit(model)}
            heroCards={hero.cards}
            selected={selected}
            clearSelection={() => setSelected(new Set())}
            busy={st.busy}
            onAct={(d) => controller.act(d)}
            onShow={() => void controller.showBlind()}
            shortcutsActive={tile?.shortcutsActive ?? true}
          />
        ) : tourney?.result != null ? (
          <TournamentResultPanel
            result={tourney.result}
            view={tourney.view}
            onExit={onExit}
            compact={tile?.compact ?? false}
          />
        ) : (
          <>
            {st.addOn !== null && tourney?.result == null && (
              <AddOnPrompt
                offer={st.addOn}
                busy={st.addOn.busy}
                clock={serverNow}
                offsetMs={controller.clock.offsetMs}
                compact={tile?.compact ?? false}
                onBuy={() => void controller.buyAddOn()}
              />
            )}
            <HeroStatus
              model={model}
              st={st}
              tournament={tourney?.view ?? null}
              isHost={isHost && mayForceStart(room) && tourney === null}
              onStart={() => void controller.startHand()}
              onSitIn={() => void controller.sitIn()}
              onTopUp={() => setPanel('topup')}
            />
            {hero !== null && !syncing && model.turn === null && (
              <PreActionBar
                spot={preActionSpot(st.view.state)}
                selected={st.preAction}
                onToggle={(kind) => controller.togglePreAction(kind)}
              />
            )}
          </>
        )}
      </div>

      <p className="visually-hidden" aria-live="polite" data-testid="announcer">
        {announcement}
      </p>

      <FairnessPanel open={panel === 'fairness'} hands={st.finished} onClose={() => setPanel('none')} />
      <SessionSummaryDialog open={panel === 'session'} summary={st.summary} onClose={() => setPanel('none')} />
      {model.role === 'player' && (
        <HistoryDrawer app={app} open={panel === 'history'} onClose={() => setPanel('none')} tableId={model.tableId} />
      )}
      {panel === 'topup' && room !== null && (
        <TopUpDialog
          app={app}
          room={room}
          stack={hero?.stack ?? 0}
          onClose={() => setPanel('none')}
          onDone={() => {
            setPanel('none');
            loadRoom();
          }}
        />
      )}
      <Dialog open={panel === 'leave'} title={t('table.leaveTitle')} onClose={() => setPanel('none')}>
        <div className="confirm">
          <p>{hero?.inHand === true && !hero.folded ? t('table.leaveInHand') : t('table.leaveIdle')}</p>
          <div className="form__actions">
            <button type="button" className="btn btn--ghost" onClick={() => setPanel('none')}>
              {t('table.stay')}
            </button>
            <button
              type="button"
              className="btn btn--danger"
              onClick={() => {
                app.lobby
                  .leaveRoom(controller.tableId)
                  .then((left) => {
                    app.toasts.show(
                      left.status === 'leaving'
                        ? translate('table.leavingAtEnd')
                        : translate('table.left', { amount: chips(left.refunded) }),
                      ToastKind.SUCCESS,
                    );
                    void app.refreshMe();
                    onExit();
                  })
                  .catch((err: unknown) => app.toasts.show(errorText(err)));
              }}
            >
              {t('table.leave')}
            </button>
          </div>
        </div>
      </Dialog>
    </Root>
  );
}

function meId(app: AppState): string | null {
  const a = app.auth.get();
  return a.status === 'signed_in' ? a.me.user.id : null;
}

function ConnectionIndicator({ st, onResync }: { readonly st: TableScreenState; readonly onResync: () => void }) {
  const t = useT();
  let state: 'live' | 'reconnecting' | 'syncing' | 'closed';
  if (st.session === 'closed') state = 'closed';
  else if (st.connection !== 'open') state = 'reconnecting';
  else if (st.session !== 'joined' || st.resyncing) state = 'syncing';
  else state = 'live';
  const text = {
    live: t('table.conn.live'),
    reconnecting: t('table.conn.reconnecting'),
    syncing: t('table.conn.syncing'),
    closed: st.closedReason ?? t('table.conn.disconnected'),
  }[state];
  return (
    <div className={`conn conn--${state}`} role="status" data-testid="connection" data-state={state}>
      <span className="conn__dot" aria-hidden="true" />
      <span className="conn__text">{text}</span>
      {state === 'live' && (
        <button
          type="button"
          className="btn btn--ghost btn--sm conn__resync"
          onClick={onResync}
          title={t('table.conn.resyncTitle')}
        >
          {t('table.conn.resync')}
        </button>
      )}
    </div>
  );
}

function HeroStatus({
  model,
  st,
  tournament,
  isHost,
  onStart,
  onSitIn,
  onTopUp,
}: {
  readonly model: TableModel;
  readonly st: TableScreenState;
  /** At a tournament's table: no rebuy, and between hands the break or hand-for-hand is said. */
  readonly tournament: TournamentView | null;
  readonly isHost: boolean;
  readonly onStart: () => void;
  readonly onSitIn: () => void;
  readonly onTopUp: () => void;
}) {
  const t = useT();
  const hero = model.hero;
  if (model.role === 'spectator' || hero === null) {
    return (
      <p className="hero-status" data-testid="hero-status">
        {t('table.hero.watching')}
      </p>
    );
  }
  const actor = model.seats.find((s) => s.isActor);
  let line: string;
  if (hero.sittingOut) line = hero.stack === 0 ? t('table.hero.noChips') : t('table.hero.sittingOut');
  else if (model.phase === 'waiting' && tournament?.break_ends_at != null) line = t('tournamentTable.onBreak');
  else if (model.phase === 'waiting' && tournament?.hand_for_hand === true) line = t('tournamentTable.handForHandWait');
  else if (model.phase === 'waiting')
    line = model.seats.filter((s) => !s.empty).length < 2 ? t('table.hero.waitingForPlayer') : t('table.hero.nextSoon');
  else if (model.phase === 'seeding') line = t('table.hero.shuffling');
  else if (model.phase === 'dealing' && model.dealing?.progress != null) line = model.dealing.progress.text;
  else if (actor !== undefined && !actor.isHero)
    line =
      actor.name !== null
        ? t('table.hero.waitingFor', { name: actor.name })
        : t('table.hero.waitingForSeat', { seat: actor.seat });
  else if (hero.folded) line = t('table.hero.folded');
  else line = '';
  return (
    <div className="hero-status" data-testid="hero-status">
      {line !== '' && <p>{line}</p>}
      <div className="hero-status__actions">
        {hero.sittingOut && hero.stack > 0 && (
          <button type="button" className="btn btn--primary" onClick={onSitIn} disabled={st.busy}>
            {t('table.sitIn')}
          </button>
        )}
        {hero.stack === 0 && tournament === null && (
          <button type="button" className="btn btn--primary" onClick={onTopUp}>
            {t('table.rebuy')}
          </button>
        )}
        {isHost && model.phase === 'waiting' && model.seats.filter((s) => !s.empty).length >= 2 && (
          <button
            type="button"
            className="btn btn--secondary"
            onClick={onStart}
            disabled={st.busy}
            data-testid="deal-now"
          >
            {t('table.dealNow')}
          </button>
        )}
      </div>
    </div>
  );
}

/** The current hand, line by line; the newest line is announced to screen readers by the log role. */
function HandLog({ model }: { readonly model: TableModel }) {
  const t = useT();
  const lines = model.log;
  return (
    <details className="hand-log" open>
      <summary>{t('table.handLog')}</summary>
      {lines.length === 0 ? (
        <p className="muted">{model.handId === null ? t('table.noHand') : t('table.joinedMidHand')}</p>
      ) : (
        <ol className="hand-log__lines" role="log" aria-live="off" data-testid="hand-log">
          {lines.map((l) => (
            <li key={l.key} className={`hand-log__line hand-log__line--${l.kind}`}>
              {l.text}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}

function TopUpDialog({
  app,
  room,
  stack,
  onClose,
  onDone,
}: {
  readonly app: AppState;
  readonly room: LobbyRoomDetail;
  readonly stack: number;
  readonly onClose: () => void;
  readonly onDone: () => void;
}) {
  const t = useT();
  const room_ = room;
  const most = Math.max(0, room_.buy_in.max - stack);
  const [amount, setAmount] = useState(String(most));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const key = useMemo(() => `topup-${room_.session_id}-${Date.now().toString(36)}`, [room_.session_id]);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await app.lobby.topUp(room_.session_id, Number(amount), key);
      app.toasts.show(
        r.status === 'applied'
          ? translate('table.added', { amount: chips(r.amount) })
          : translate('table.addedNext', { amount: chips(r.amount) }),
        ToastKind.SUCCESS,
      );
      void app.refreshMe();
      onDone();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open title={stack === 0 ? t('table.rebuy') : t('table.topUp')} onClose={onClose}>
      <form className="form" onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor={id}>{t('table.chipsToAdd')}</label>
          <input
            id={id}
            type="number"
            inputMode="numeric"
            min={1}
            max={most}
            step={1}
            required
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
          <p className="hint">{t('table.topUpHint', { max: chips(room_.buy_in.max), stack: chips(stack) })}</p>
        </div>
        {error !== null && (
          <p className="form__error" role="alert">
            {error}
          </p>
        )}
        <div className="form__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy || most === 0}>
            {t('table.addChips')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
