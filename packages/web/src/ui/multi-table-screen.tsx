import type { FeltClient } from '@felt/client';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type TouchEvent,
} from 'react';
import { t as translate } from '../i18n/i18n.js';
import { useT } from '../i18n/use-t.js';
import { readClock, type ServerClock } from '../lib/clock.js';
import { errorText } from '../lib/error-text.js';
import { chips, clockText } from '../lib/format.js';
import {
  AUTO_FOCUS_GUARD_MS,
  closeTile,
  cycleFocus,
  deckKeyStep,
  deckMode,
  DeckMode,
  focusTile,
  FRESH_FOCUS,
  LAYOUT_STORAGE_KEY,
  moveTile,
  parseLayout,
  stepFocus,
  swipeStep,
  TableLayout,
  tileGrid,
  type Deck,
  type TileTurn,
  type TouchPoint,
} from '../lib/multi-table.js';
import { MAX_TABLES } from '../lib/routes.js';
import type { AppState } from '../state/app-state.js';
import { Store } from '../state/store.js';
import { TableController, type TournamentLink } from '../state/table-controller.js';
import { TableDeck, type DeckTile } from '../state/table-deck.js';
import { ToastKind } from '../state/toasts.js';
import { useNow, useStore } from './hooks.js';
import { TableRoom } from './table-screen.js';

interface Props {
  readonly app: AppState;
  readonly deck: Deck;
  /** A new deck: `push` for tiles opened or closed (a history entry), else only the focus moved. */
  readonly onDeck: (next: Deck, push: boolean) => void;
}

const NARROW = '(max-width: 640px)';
const NO_TILES = new Store<readonly DeckTile[]>([]);
const NO_TURNS = new Store<readonly TileTurn[]>([]);

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => typeof matchMedia === 'function' && matchMedia(NARROW).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const mq = matchMedia(NARROW);
    const on = (): void => setNarrow(mq.matches);
    on();
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return narrow;
}

function readLayout(): TableLayout {
  try {
    return parseLayout(localStorage.getItem(LAYOUT_STORAGE_KEY));
  } catch {
    return TableLayout.TILED;
  }
}

function useLayoutChoice(): [TableLayout, (l: TableLayout) => void] {
  const [layout, setLayout] = useState(readLayout);
  const choose = useCallback((l: TableLayout) => {
    setLayout(l);
    try {
      localStorage.setItem(LAYOUT_STORAGE_KEY, l);
    } catch {
      // Storage disabled: the choice lasts for this page.
    }
  }, []);
  return [layout, choose];
}

/** A dialog is open or the player is typing: the focus does not move by itself now. */
function focusHeld(): boolean {
  if (document.querySelector('dialog[open]') !== null) return true;
  const el = document.activeElement;
  if (el instanceof HTMLTextAreaElement) return true;
  return el instanceof HTMLInputElement && !['checkbox', 'radio', 'range', 'button', 'submit'].includes(el.type);
}

function inTextField(target: EventTarget | null): boolean {
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return (
    target instanceof HTMLInputElement && !['checkbox', 'radio', 'range', 'button', 'submit'].includes(target.type)
  );
}

/**
 * Every table open in the page, on the page's one SDK client: one table fills the screen as it always
 * did; several are tiled or stacked (the player's choice, kept in this browser), and on a phone shown
 * one at a time. The table that needs a decision comes forward (lib/multi-table.ts `stepFocus`), and
 * the action bar's shortcuts act only on the table in focus.
 */
export function TablesScreen({ app, deck, onDeck }: Props) {
  const t = useT();
  const [client, setClient] = useState<FeltClient | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    app
      .feltClient()
      .then((c) => live && setClient(c))
      .catch((err: unknown) => live && setFailed(errorText(err)));
    return () => {
      live = false;
    };
  }, [app]);

  // The latest deck for the listeners below.
  const deckRef = useRef(deck);
  deckRef.current = deck;
  const onDeckRef = useRef(onDeck);
  onDeckRef.current = onDeck;

  const tableDeck = useMemo(() => {
    if (client === null) return null;
    const link: TournamentLink = {
      userId: meId(app),
      yourTable: (tournamentId) => app.tournaments.yourTable(tournamentId),
      readTournament: (tournamentId) => app.tournaments.read(tournamentId),
      lastRead: (tournamentId) => app.tournaments.lastRead(tournamentId),
      noteTable: (tableId, tournamentId) => app.tournaments.noteTable(tableId, tournamentId),
      tournamentOf: (tableId) => app.tournaments.tournamentOf(tableId),
      addOn: (tournamentId) => app.tournaments.addOn(tournamentId),
    };
    return new TableDeck(
      (ref) => new TableController(client, ref.tableId, ref.spectate, app.toasts, undefined, app.sound, link),
      // A tournament moved the player: the new table takes the old one's tile (joined, then the old
      // one detached), and the address follows without a new history entry.
      (tile, to) => {
        app.toasts.show(translate('tournamentTable.moved'), ToastKind.INFO);
        onDeckRef.current(moveTile(deckRef.current, tile.ref.tableId, to), false);
      },
    );
  }, [app, client]);
  useLayoutEffect(() => tableDeck?.sync(deck.tiles), [tableDeck, deck.tiles]);
  useEffect(() => () => tableDeck?.dispose(), [tableDeck]);
  const tiles = useStore(tableDeck?.tiles ?? NO_TILES);
  const turns = useStore(tableDeck?.turns ?? NO_TURNS);

  const [layout, setLayout] = useLayoutChoice();
  const narrow = useNarrow();
  const mode = deckMode(deck.tiles.length, layout, narrow);

  // Shortcuts wait a moment after the focus moved by itself (AUTO_FOCUS_GUARD_MS).
  const [guarded, setGuarded] = useState(false);
  const guardTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (guardTimer.current !== null) clearTimeout(guardTimer.current);
    },
    [],
  );

  // The focus rule, on every change of the tiles' turns or of the focus.
  const focusMemory = useRef(FRESH_FOCUS);
  useEffect(() => {
    if (turns.length !== tiles.length || tiles.some((x, i) => x.key !== turns[i]?.key)) return;
    if (tiles.length !== deck.tiles.length) return;
    const step = stepFocus(focusMemory.current, deck.focus, turns, focusHeld());
    focusMemory.current = step.memory;
    if (step.focus === deck.focus) return;
    if (guardTimer.current !== null) clearTimeout(guardTimer.current);
    setGuarded(true);
    guardTimer.current = setTimeout(() => setGuarded(false), AUTO_FOCUS_GUARD_MS);
    onDeck({ ...deck, focus: step.focus }, false);
  }, [turns, tiles, deck, onDeck]);

  const focus = useCallback((index: number) => {
    const next = focusTile(deckRef.current, index);
    if (next !== deckRef.current) onDeckRef.current(next, false);
  }, []);
  const close = useCallback((index: number) => onDeckRef.current(closeTile(deckRef.current, index), true), []);

  // Ctrl+→ and Ctrl+← move the focus.
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const step = deckKeyStep({
        key: e.key,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        altKey: e.altKey,
        shiftKey: e.shiftKey,
        inTextField: inTextField(e.target),
      });
      if (step === 0 || deckRef.current.tiles.length < 2) return;
      if (document.querySelector('dialog[open]') !== null) return;
      e.preventDefault();
      onDeckRef.current(cycleFocus(deckRef.current, step), false);
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);

  // Phone: a horizontal swipe over the table shows the next or the previous one.
  const touchStart = useRef<TouchPoint | null>(null);
  const onTouchStart = (e: TouchEvent): void => {
    const p = e.touches[0];
    touchStart.current =
      e.touches.length === 1 && p !== undefined ? { x: p.clientX, y: p.clientY, t: e.timeStamp } : null;
  };
  const onTouchEnd = (e: TouchEvent): void => {
    const start = touchStart.current;
    const p = e.changedTouches[0];
    touchStart.current = null;
    if (start === null || p === undefined) return;
    const step = swipeStep(start, { x: p.clientX, y: p.clientY, t: e.timeStamp });
    if (step !== 0) onDeckRef.current(cycleFocus(deckRef.current, step), false);
  };

  if (failed !== null) {
    return (
      <main className="table-screen table-screen--message">
        <p role="alert">{failed}</p>
        <a className="btn btn--primary" href="#/">
          {t('common.backToLobby')}
        </a>
      </main>
    );
  }
  if (tableDeck === null || tiles.length === 0) {
    return (
      <main className="table-screen table-screen--message" aria-busy="true">
        <p>{t('table.connecting')}</p>
      </main>
    );
  }

  if (mode === DeckMode.SINGLE) {
    const only = tiles[0]!;
    return <TableRoom key={only.key} app={app} controller={only.controller} onExit={() => close(0)} />;
  }

  const waiting = new Set(turns.flatMap((x, i) => (x.turn !== null ? [i] : [])));
  const grid = tileGrid(tiles.length);
  const oneAtATime = mode !== DeckMode.TILED;
  return (
    <main
      className={`deck deck--${mode}`}
      aria-label={t('tables.region')}
      data-testid="deck"
      data-mode={mode}
      data-count={tiles.length}
      data-focus={deck.focus}
    >
      <div className="deck-bar">
        <p className="deck-bar__count">{t('tables.count', { open: tiles.length, max: MAX_TABLES })}</p>
        {mode !== DeckMode.PHONE && (
          <div className="deck-bar__layout" role="group" aria-label={t('tables.layout')}>
            {[TableLayout.TILED, TableLayout.STACKED].map((l) => (
              <button
                key={l}
                type="button"
                className="btn btn--ghost btn--sm"
                aria-pressed={layout === l}
                onClick={() => setLayout(l)}
                data-layout={l}
              >
                {l === TableLayout.TILED ? t('tables.tiled') : t('tables.stacked')}
              </button>
            ))}
          </div>
        )}
        <a className="btn btn--ghost btn--sm" href="#/" data-testid="open-another">
          {t('tables.openAnother')}
        </a>
        <p className="deck-bar__hint hint">
          {mode === DeckMode.PHONE ? t('tables.swipeHint') : t('tables.keysHint', { prev: 'Ctrl+←', next: 'Ctrl+→' })}
        </p>
      </div>
      {oneAtATime && (
        <div
          className={`deck-tabs${mode === DeckMode.PHONE ? ' deck-tabs--dots' : ''}`}
          role="tablist"
          aria-label={t('tables.switcher')}
        >
          {tiles.map((tile, i) => (
            <TileTab
              key={tile.key}
              tile={tile}
              index={i}
              total={tiles.length}
              focused={i === deck.focus}
              needsAction={waiting.has(i)}
              dot={mode === DeckMode.PHONE}
              onPick={() => focus(i)}
            />
          ))}
        </div>
      )}
      <div
        className="deck-tiles"
        style={{ '--cols': grid.cols, '--rows': grid.rows } as CSSProperties}
        onTouchStart={mode === DeckMode.PHONE ? onTouchStart : undefined}
        onTouchEnd={mode === DeckMode.PHONE ? onTouchEnd : undefined}
        data-testid="deck-tiles"
      >
        {tiles.map((tile, i) => {
          const focused = i === deck.focus;
          const needsAction = waiting.has(i);
          return (
            <div
              key={tile.key}
              className={`tile${focused ? ' tile--focused' : ''}${needsAction ? ' tile--needs-action' : ''}`}
              hidden={oneAtATime && !focused}
              data-testid="tile"
              data-tile={i}
              data-table-id={tile.ref.tableId}
              data-focused={focused}
              data-needs-action={needsAction}
              data-keys={focused && !guarded ? 'on' : 'off'}
              onPointerDown={() => focus(i)}
              onFocusCapture={() => focus(i)}
            >
              {needsAction && mode === DeckMode.TILED && (
                <span className="tile__badge" data-testid="tile-turn">
                  {t('tables.yourTurn')}
                </span>
              )}
              <TableRoom
                app={app}
                controller={tile.controller}
                onExit={() => close(i)}
                tile={{
                  compact: mode === DeckMode.TILED,
                  shortcutsActive: focused && !guarded,
                  onClose: () => close(i),
                }}
              />
            </div>
          );
        })}
      </div>
    </main>
  );
}

function meId(app: AppState): string | null {
  const a = app.auth.get();
  return a.status === 'signed_in' ? a.me.user.id : null;
}

/** A stacked table's tab (a dot on a phone): its room, and your turn with its countdown. */
function TileTab({
  tile,
  index,
  total,
  focused,
  needsAction,
  dot,
  onPick,
}: {
  readonly tile: DeckTile;
  readonly index: number;
  readonly total: number;
  readonly focused: boolean;
  readonly needsAction: boolean;
  readonly dot: boolean;
  readonly onPick: () => void;
}) {
  const t = useT();
  const st = useStore(tile.controller.store);
  const model = st.model;
  const name = model?.game.room ?? t('table.joining');
  const label = t('tables.tabLabel', { name, n: index + 1, total });
  let status: string;
  if (model?.hero == null) status = t('tables.watching');
  else if (needsAction) status = t('tables.yourTurn');
  else status = t('common.chips', { amount: chips(model.hero.stack) });
  return (
    <button
      type="button"
      role="tab"
      aria-selected={focused}
      aria-label={dot ? `${label}${needsAction ? t('common.sentenceSeparator') + t('tables.yourTurn') : ''}` : label}
      className={`deck-tab${focused ? ' deck-tab--focused' : ''}${needsAction ? ' deck-tab--needs-action' : ''}`}
      onClick={onPick}
      data-testid="deck-tab"
      data-tile={index}
      data-needs-action={needsAction}
    >
      {dot ? (
        <span className="deck-tab__dot" aria-hidden="true" />
      ) : (
        <>
          <span className="deck-tab__name">{name}</span>
          <span className="deck-tab__status">
            {status}
            {needsAction && model?.clock != null && (
              <TabClock
                deadline={model.clock.deadline}
                timeBankMs={model.clock.timeBankMs}
                clock={tile.controller.clock}
              />
            )}
          </span>
        </>
      )}
    </button>
  );
}

function TabClock({
  deadline,
  timeBankMs,
  clock,
}: {
  readonly deadline: number;
  readonly timeBankMs: number;
  readonly clock: ServerClock;
}) {
  const now = useCallback(() => clock.now(), [clock]);
  const at = useNow(now, 250);
  const c = readClock(deadline, timeBankMs, at, 0);
  return <span className={`deck-tab__clock clock--${c.phase}`}>{clockText(c.remainingMs)}</span>;
}
