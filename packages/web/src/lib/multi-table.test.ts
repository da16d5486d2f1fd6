import { describe, expect, it } from 'vitest';
import {
  closeTile,
  cycleFocus,
  deckKeyStep,
  deckMode,
  deckRoute,
  EMPTY_DECK,
  focusTile,
  FRESH_FOCUS,
  moveTile,
  openTile,
  parseLayout,
  sameDeck,
  stepFocus,
  swipeStep,
  tileGrid,
  tileKey,
  type Deck,
  type DeckKey,
  type FocusMemory,
  type TileTurn,
} from './multi-table.js';
import { MAX_TABLES, type TileRef } from './routes.js';

const play = (tableId: string): TileRef => ({ tableId, spectate: false });
const watch = (tableId: string): TileRef => ({ tableId, spectate: true });
const deckOf = (ids: string[], focus = 0): Deck => ({ tiles: ids.map(play), focus });

function opened(deck: Deck, tile: TileRef): Deck {
  const r = openTile(deck, tile);
  if (!r.ok) throw new Error('refused');
  return r.deck;
}

describe('a tournament moving the player', () => {
  it('puts the new table in the old one’s place, keeping the focus', () => {
    expect(moveTile(deckOf(['a', 'b', 'c'], 2), 'b', 'n')).toEqual({
      tiles: [play('a'), play('n'), play('c')],
      focus: 2,
    });
    expect(moveTile(deckOf(['a'], 0), 'a', 'n')).toEqual({ tiles: [play('n')], focus: 0 });
    // Watched there, played here: the move is the player's own.
    expect(moveTile({ tiles: [watch('a')], focus: 0 }, 'a', 'n')).toEqual({ tiles: [play('n')], focus: 0 });
  });

  it('closes the old tile and focuses the new table when it is open already', () => {
    expect(moveTile({ tiles: [play('a'), watch('n'), play('c')], focus: 2 }, 'a', 'n')).toEqual({
      tiles: [play('n'), play('c')],
      focus: 0,
    });
  });

  it('changes nothing for a table that is not open, or a move to the same table', () => {
    const d = deckOf(['a', 'b'], 1);
    expect(moveTile(d, 'x', 'n')).toBe(d);
    expect(moveTile(d, 'a', 'a')).toBe(d);
  });
});

describe('opening and closing tiles', () => {
  it('adds a table last and focuses it', () => {
    const d = opened(opened(EMPTY_DECK, play('a')), play('b'));
    expect(d).toEqual({ tiles: [play('a'), play('b')], focus: 1 });
  });

  it('focuses a table already open where it is, switching watch and play in place', () => {
    const d = deckOf(['a', 'b', 'c'], 2);
    expect(opened(d, play('a'))).toEqual({ tiles: d.tiles, focus: 0 });
    expect(opened({ tiles: [play('a'), watch('b')], focus: 0 }, play('b'))).toEqual({
      tiles: [play('a'), play('b')],
      focus: 1,
    });
  });

  it('refuses a ninth table and keeps the eight', () => {
    let d = EMPTY_DECK;
    for (let i = 0; i < MAX_TABLES; i++) d = opened(d, play(`t${i}`));
    expect(d.tiles).toHaveLength(8);
    expect(openTile(d, play('t8'))).toEqual({ ok: false, reason: 'full' });
    // Focusing one of the eight is still fine.
    expect(openTile(d, play('t3'))).toEqual({ ok: true, deck: { tiles: d.tiles, focus: 3 } });
  });

  it('closes a tile, keeping the focus on the same table', () => {
    expect(closeTile(deckOf(['a', 'b', 'c'], 2), 0)).toEqual(deckOf(['b', 'c'], 1));
    expect(closeTile(deckOf(['a', 'b', 'c'], 0), 2)).toEqual(deckOf(['a', 'b'], 0));
    // The focused one closes: its neighbour takes the focus.
    expect(closeTile(deckOf(['a', 'b', 'c'], 1), 1)).toEqual(deckOf(['a', 'c'], 1));
    expect(closeTile(deckOf(['a', 'b', 'c'], 2), 2)).toEqual(deckOf(['a', 'b'], 1));
    expect(closeTile(deckOf(['a'], 0), 0)).toEqual(EMPTY_DECK);
    expect(closeTile(deckOf(['a'], 0), 3)).toEqual(deckOf(['a'], 0));
  });

  it('cycles the focus round the ends and ignores tiles that are not there', () => {
    expect(cycleFocus(deckOf(['a', 'b', 'c'], 2), 1).focus).toBe(0);
    expect(cycleFocus(deckOf(['a', 'b', 'c'], 0), -1).focus).toBe(2);
    expect(cycleFocus(EMPTY_DECK, 1)).toBe(EMPTY_DECK);
    const d = deckOf(['a', 'b']);
    expect(focusTile(d, 5)).toBe(d);
    expect(focusTile(d, 1).focus).toBe(1);
  });

  it('compares decks and makes their routes', () => {
    expect(sameDeck(deckOf(['a', 'b'], 1), deckOf(['a', 'b'], 1))).toBe(true);
    expect(sameDeck(deckOf(['a', 'b'], 1), deckOf(['a', 'b'], 0))).toBe(false);
    expect(sameDeck({ tiles: [watch('a')], focus: 0 }, deckOf(['a']))).toBe(false);
    expect(tileKey(watch('a'))).not.toBe(tileKey(play('a')));
    expect(deckRoute(EMPTY_DECK)).toEqual({ name: 'lobby' });
    expect(deckRoute(deckOf(['a', 'b'], 1))).toEqual({ name: 'tables', tiles: [play('a'), play('b')], focus: 1 });
  });
});

describe('layout', () => {
  it('remembers tiled or stacked, tiled by default', () => {
    expect(parseLayout('stacked')).toBe('stacked');
    expect(parseLayout('tiled')).toBe('tiled');
    expect(parseLayout(null)).toBe('tiled');
    expect(parseLayout('grid')).toBe('tiled');
  });

  it('shows one table as before, one at a time on a narrow screen, else the chosen layout', () => {
    expect(deckMode(1, 'stacked', false)).toBe('single');
    expect(deckMode(1, 'tiled', true)).toBe('single');
    expect(deckMode(2, 'tiled', true)).toBe('phone');
    expect(deckMode(4, 'stacked', true)).toBe('phone');
    expect(deckMode(4, 'tiled', false)).toBe('tiled');
    expect(deckMode(4, 'stacked', false)).toBe('stacked');
  });

  it('grids 2, 4, 6 and 8 tables', () => {
    expect(tileGrid(2)).toEqual({ cols: 2, rows: 1 });
    expect(tileGrid(3)).toEqual({ cols: 2, rows: 2 });
    expect(tileGrid(4)).toEqual({ cols: 2, rows: 2 });
    expect(tileGrid(6)).toEqual({ cols: 3, rows: 2 });
    expect(tileGrid(7)).toEqual({ cols: 4, rows: 2 });
    expect(tileGrid(8)).toEqual({ cols: 4, rows: 2 });
  });
});

describe('the focus rule', () => {
  const tiles = (...turns: (string | null)[]): TileTurn[] => turns.map((turn, i) => ({ key: `k${i}`, turn }));

  /** Runs the rule over successive turn lists, as the page does, and returns each focus. */
  function run(start: number, steps: { turns: (string | null)[]; hold?: boolean; pick?: number }[]): number[] {
    let memory: FocusMemory = FRESH_FOCUS;
    let focus = start;
    const out: number[] = [];
    for (const s of steps) {
      if (s.pick !== undefined) focus = s.pick;
      const r = stepFocus(memory, focus, tiles(...s.turns), s.hold ?? false);
      memory = r.memory;
      focus = r.focus;
      out.push(focus);
    }
    return out;
  }

  it('lists the waiting tables, the one that has waited longest first', () => {
    let r = stepFocus(FRESH_FOCUS, 0, tiles(null, 'x', null), false);
    r = stepFocus(r.memory, r.focus, tiles('y', 'x', 'z'), false);
    expect(r.waiting).toEqual([1, 0, 2]);
    // A later decision at the same table waits from its own arrival.
    r = stepFocus(r.memory, r.focus, tiles('y', 'x2', 'z'), false);
    expect(r.waiting).toEqual([0, 2, 1]);
  });

  it('brings a table that needs a decision forward', () => {
    expect(run(0, [{ turns: [null, null, null] }, { turns: [null, null, 't1'] }])).toEqual([0, 2]);
  });

  it('does not move while the focused table itself waits for a decision', () => {
    expect(run(0, [{ turns: ['a', null] }, { turns: ['a', 'b'] }])).toEqual([0, 0]);
  });

  it('moves on to the next waiting table when the focused decision is made', () => {
    expect(run(0, [{ turns: ['a', null, null] }, { turns: ['a', 'b', 'c'] }, { turns: [null, 'b', 'c'] }])).toEqual([
      0, 0, 1,
    ]);
  });

  it('leaves a table the player picked in focus until something new happens', () => {
    const r = run(0, [
      { turns: [null, 'b', null] }, // b arrives: focus moves to 1
      { turns: [null, 'b', null], pick: 2 }, // the player looks at tile 2
      { turns: [null, 'b', null] }, // nothing new: stays on 2
      { turns: ['a', 'b', null] }, // a new decision: the longest-waiting one comes forward
    ]);
    expect(r).toEqual([1, 2, 2, 1]);
  });

  it('holds while a dialog is open or the player types', () => {
    expect(run(0, [{ turns: [null, null] }, { turns: [null, 'b'], hold: true }])).toEqual([0, 0]);
  });

  it('keeps the focus inside the tiles when one closes', () => {
    const r = stepFocus(FRESH_FOCUS, 5, tiles(null, null), false);
    expect(r.focus).toBe(1);
    expect(stepFocus(FRESH_FOCUS, 0, [], false).focus).toBe(0);
  });

  it('says when it moved by itself', () => {
    const a = stepFocus(FRESH_FOCUS, 0, tiles(null, 'b'), false);
    expect(a.moved).toBe(true);
    expect(stepFocus(a.memory, a.focus, tiles(null, 'b'), false).moved).toBe(false);
  });
});

describe('keys and swipes', () => {
  const key = (k: string, over: Partial<DeckKey> = {}): DeckKey => ({
    key: k,
    ctrlKey: true,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    inTextField: false,
    ...over,
  });

  it('moves the focus with Ctrl+arrows only', () => {
    expect(deckKeyStep(key('ArrowRight'))).toBe(1);
    expect(deckKeyStep(key('ArrowLeft'))).toBe(-1);
    expect(deckKeyStep(key('ArrowUp'))).toBe(0);
    expect(deckKeyStep(key('ArrowRight', { ctrlKey: false }))).toBe(0);
    expect(deckKeyStep(key('ArrowRight', { shiftKey: true }))).toBe(0);
    expect(deckKeyStep(key('ArrowRight', { altKey: true }))).toBe(0);
    expect(deckKeyStep(key('ArrowRight', { inTextField: true }))).toBe(0);
  });

  it('tells a horizontal swipe from a tap, a slow drag and a scroll', () => {
    const at = (x: number, y: number, t: number) => ({ x, y, t });
    expect(swipeStep(at(300, 400, 0), at(120, 420, 250))).toBe(1);
    expect(swipeStep(at(100, 400, 0), at(300, 380, 250))).toBe(-1);
    expect(swipeStep(at(300, 400, 0), at(295, 401, 80))).toBe(0);
    expect(swipeStep(at(300, 400, 0), at(100, 400, 2_000))).toBe(0);
    expect(swipeStep(at(300, 400, 0), at(220, 150, 300))).toBe(0);
  });
});
