// Several tables in one page: which tiles are open and which one is in focus, how they are laid out,
// which table waits for the player's decision and when the focus moves to it by itself, and the
// gestures and keys that move it. Pure functions; the page (ui/multi-table-screen.tsx) holds the state.

import { MAX_TABLES, type Route, type TileRef } from './routes.js';

/** The open tiles, in the order they were opened, and the index of the one in focus. */
export interface Deck {
  readonly tiles: readonly TileRef[];
  readonly focus: number;
}

export const EMPTY_DECK: Deck = { tiles: [], focus: 0 };

/** A stable key for a tile: a table is open at most once, to play or to watch. */
export function tileKey(tile: TileRef): string {
  return `${tile.spectate ? 'watch' : 'table'}:${tile.tableId}`;
}

export function sameDeck(a: Deck, b: Deck): boolean {
  return (
    a.focus === b.focus &&
    a.tiles.length === b.tiles.length &&
    a.tiles.every((x, i) => tileKey(x) === tileKey(b.tiles[i]!))
  );
}

/** The route that shows `deck` (the lobby when nothing is open). */
export function deckRoute(deck: Deck): Route {
  return deck.tiles.length === 0 ? { name: 'lobby' } : { name: 'tables', tiles: deck.tiles, focus: deck.focus };
}

export type OpenResult = { readonly ok: true; readonly deck: Deck } | { readonly ok: false; readonly reason: 'full' };

/**
 * Opens a table as a tile and puts it in focus. A table already open is focused where it is (and
 * turns from watching to playing, or back, in place); a new one goes last, unless the page already
 * holds {@link MAX_TABLES}.
 */
export function openTile(deck: Deck, tile: TileRef): OpenResult {
  const at = deck.tiles.findIndex((x) => x.tableId === tile.tableId);
  if (at !== -1) {
    const tiles = deck.tiles.map((x, i) => (i === at ? tile : x));
    return { ok: true, deck: { tiles, focus: at } };
  }
  if (deck.tiles.length >= MAX_TABLES) return { ok: false, reason: 'full' };
  return { ok: true, deck: { tiles: [...deck.tiles, tile], focus: deck.tiles.length } };
}

/** Closes the tile at `index`; the focus stays on the same table, or goes to the one that took its place. */
export function closeTile(deck: Deck, index: number): Deck {
  if (index < 0 || index >= deck.tiles.length) return deck;
  const tiles = deck.tiles.filter((_, i) => i !== index);
  let focus = deck.focus;
  if (index < focus) focus--;
  else if (index === focus) focus = Math.min(focus, tiles.length - 1);
  return { tiles, focus: Math.max(0, focus) };
}

/**
 * A tournament moved the player from table `from` to table `to`: the tile at `from` becomes `to`,
 * to play, where it was and with the focus where it was. When `to` is open already, the `from` tile
 * just closes and the focus goes to `to`; when `from` is not open, nothing changes.
 */
export function moveTile(deck: Deck, from: string, to: string): Deck {
  const at = deck.tiles.findIndex((x) => x.tableId === from);
  if (at === -1 || from === to) return deck;
  const there = deck.tiles.findIndex((x) => x.tableId === to);
  if (there !== -1) {
    const closed = closeTile(deck, at);
    const focus = closed.tiles.findIndex((x) => x.tableId === to);
    return { tiles: closed.tiles.map((x, i) => (i === focus ? { tableId: to, spectate: false } : x)), focus };
  }
  return { ...deck, tiles: deck.tiles.map((x, i) => (i === at ? { tableId: to, spectate: false } : x)) };
}

export function focusTile(deck: Deck, index: number): Deck {
  if (index < 0 || index >= deck.tiles.length || index === deck.focus) return deck;
  return { ...deck, focus: index };
}

/** The next (+1) or previous (-1) tile, round the end. */
export function cycleFocus(deck: Deck, step: number): Deck {
  const n = deck.tiles.length;
  if (n === 0 || step === 0) return deck;
  return focusTile(deck, (((deck.focus + step) % n) + n) % n);
}

// ---- layout ------------------------------------------------------------------------------------

export const TableLayout = {
  /** Every table at once in a grid. */
  TILED: 'tiled',
  /** The table in focus large, the others as tabs above it. */
  STACKED: 'stacked',
} as const;
export type TableLayout = (typeof TableLayout)[keyof typeof TableLayout];

/** Where the browser keeps the player's layout choice (localStorage). */
export const LAYOUT_STORAGE_KEY = 'felt.tableLayout';

export function parseLayout(stored: string | null | undefined): TableLayout {
  return stored === TableLayout.STACKED ? TableLayout.STACKED : TableLayout.TILED;
}

export const DeckMode = {
  /** One table: the table screen as it always was. */
  SINGLE: 'single',
  TILED: 'tiled',
  STACKED: 'stacked',
  /** A narrow screen: one table at a time, swiped or picked with the dots. */
  PHONE: 'phone',
} as const;
export type DeckMode = (typeof DeckMode)[keyof typeof DeckMode];

export function deckMode(count: number, layout: TableLayout, narrow: boolean): DeckMode {
  if (count <= 1) return DeckMode.SINGLE;
  if (narrow) return DeckMode.PHONE;
  return layout === TableLayout.STACKED ? DeckMode.STACKED : DeckMode.TILED;
}

/** The tiled grid: 2 side by side, 4 as 2×2, 6 as 3×2, 8 as 4×2 (odd counts leave a cell empty). */
export function tileGrid(count: number): { readonly cols: number; readonly rows: number } {
  if (count <= 1) return { cols: 1, rows: 1 };
  if (count === 2) return { cols: 2, rows: 1 };
  if (count <= 4) return { cols: 2, rows: 2 };
  if (count <= 6) return { cols: 3, rows: 2 };
  return { cols: 4, rows: 2 };
}

// ---- needs action and focus ------------------------------------------------------------------

/**
 * What the focus rule remembers between steps: when each pending turn was first seen (so the table
 * that has waited longest comes first), and the focused tile's turn (to see it end).
 */
export interface FocusMemory {
  readonly arrivals: ReadonlyMap<string, number>;
  readonly next: number;
  readonly focused: { readonly key: string; readonly turn: string | null } | null;
}

export const FRESH_FOCUS: FocusMemory = { arrivals: new Map(), next: 0, focused: null };

/** A tile as the focus rule sees it: its key and the turn token of the player's pending decision. */
export interface TileTurn {
  readonly key: string;
  readonly turn: string | null;
}

export interface FocusStep {
  readonly memory: FocusMemory;
  /** The tile in focus after this step. */
  readonly focus: number;
  /** The tiles waiting for the player's decision, the one that has waited longest first. */
  readonly waiting: readonly number[];
  /** The focus moved by itself in this step. */
  readonly moved: boolean;
}

/**
 * The focus rule, run on every change of the tiles' turns. The focus moves by itself to the table
 * that has waited longest for a decision when a new decision arrives or the focused table's own
 * decision ends, never while the focused table itself waits for one (the player is acting there) or
 * while `hold` is set (a dialog is open, the player is typing). Between those moments a tile the
 * player picked stays in focus, so they can look at any table while another one waits.
 */
export function stepFocus(memory: FocusMemory, focus: number, tiles: readonly TileTurn[], hold: boolean): FocusStep {
  const arrivals = new Map<string, number>();
  let next = memory.next;
  let arrived = false;
  for (const tile of tiles) {
    if (tile.turn === null) continue;
    const seen = memory.arrivals.get(tile.turn);
    if (seen === undefined) arrived = true;
    arrivals.set(tile.turn, seen ?? next++);
  }
  const waiting = tiles
    .map((tile, i) => ({ i, at: tile.turn === null ? null : arrivals.get(tile.turn)! }))
    .filter((x): x is { i: number; at: number } => x.at !== null)
    .sort((a, b) => a.at - b.at)
    .map((x) => x.i);
  const current = tiles[focus];
  const ended =
    current !== undefined &&
    memory.focused !== null &&
    memory.focused.key === current.key &&
    memory.focused.turn !== null &&
    current.turn !== memory.focused.turn;
  let to = Math.min(Math.max(0, focus), Math.max(0, tiles.length - 1));
  const first = waiting[0];
  if (current?.turn == null && !hold && (arrived || ended) && first !== undefined) to = first;
  const now = tiles[to];
  return {
    memory: { arrivals, next, focused: now === undefined ? null : { key: now.key, turn: now.turn } },
    focus: to,
    waiting,
    moved: to !== focus,
  };
}

/**
 * After the focus moved by itself, the single-letter shortcuts wait this long before they act on the
 * newly focused table, so a key pressed twice for the table just played does not also act on the next.
 */
export const AUTO_FOCUS_GUARD_MS = 400;

// ---- keys and gestures ---------------------------------------------------------------------------

export interface DeckKey {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
  /** The key went to a text field (Ctrl+arrows move by words there). */
  readonly inTextField: boolean;
}

/** Ctrl+→ focuses the next table, Ctrl+← the previous one: +1, -1, or 0 for any other key. */
export function deckKeyStep(e: DeckKey): number {
  if (!e.ctrlKey || e.metaKey || e.altKey || e.shiftKey || e.inTextField) return 0;
  if (e.key === 'ArrowRight') return 1;
  if (e.key === 'ArrowLeft') return -1;
  return 0;
}

export interface TouchPoint {
  readonly x: number;
  readonly y: number;
  /** ms */
  readonly t: number;
}

/** The shortest swipe, px, and the longest, ms. */
export const SWIPE_MIN_PX = 60;
export const SWIPE_MAX_MS = 800;

/**
 * A horizontal swipe between two touch points: a swipe to the left shows the next table (+1), to
 * the right the previous one (-1); 0 for a tap, a slow drag or a mostly vertical move (scrolling).
 */
export function swipeStep(start: TouchPoint, end: TouchPoint): number {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  if (end.t - start.t > SWIPE_MAX_MS) return 0;
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) < 2 * Math.abs(dy)) return 0;
  return dx < 0 ? 1 : -1;
}
