import { describe, expect, it } from 'vitest';
import type { TileRef } from '../lib/routes.js';
import { Store } from './store.js';
import { TableDeck, type TileController } from './table-deck.js';

/** Each controller's life, in order: "open a", "close a". */
const life: string[] = [];

class FakeController implements TileController {
  readonly store = new Store<{
    readonly model: { readonly turn: { readonly turnToken: string } | null } | null;
    readonly movedTo?: string | null;
  }>({ model: null, movedTo: null });
  disposed = false;
  constructor(readonly ref: TileRef) {
    life.push(`open ${ref.tableId}`);
  }
  dispose(): void {
    this.disposed = true;
    life.push(`close ${this.ref.tableId}`);
  }
  turn(token: string | null): void {
    this.store.set({ ...this.store.get(), model: { turn: token === null ? null : { turnToken: token } } });
  }
  move(to: string): void {
    this.store.set({ ...this.store.get(), movedTo: to });
  }
}

const play = (tableId: string): TileRef => ({ tableId, spectate: false });

describe('TableDeck', () => {
  it('opens new tiles, keeps the ones still open and disposes the ones closed', () => {
    const made: FakeController[] = [];
    const deck = new TableDeck((ref) => {
      const c = new FakeController(ref);
      made.push(c);
      return c;
    });
    deck.sync([play('a'), play('b')]);
    expect(made.map((c) => c.ref.tableId)).toEqual(['a', 'b']);
    const [a, b] = made;
    deck.sync([play('b'), play('c')]);
    expect(made.map((c) => c.ref.tableId)).toEqual(['a', 'b', 'c']);
    expect(a!.disposed).toBe(true);
    expect(b!.disposed).toBe(false);
    expect(deck.tiles.get().map((x) => x.controller)).toEqual([b, made[2]]);
    // The same list again changes nothing.
    const tiles = deck.tiles.get();
    deck.sync([play('b'), play('c')]);
    expect(deck.tiles.get()).toBe(tiles);
    deck.dispose();
    expect(made.every((c) => c.disposed)).toBe(true);
    expect(deck.tiles.get()).toEqual([]);
  });

  it('follows each tile’s pending decision and stops listening to a closed one', () => {
    const made = new Map<string, FakeController>();
    const deck = new TableDeck((ref) => {
      const c = new FakeController(ref);
      made.set(ref.tableId, c);
      return c;
    });
    deck.sync([play('a'), play('b')]);
    expect(deck.turns.get().map((x) => x.turn)).toEqual([null, null]);
    made.get('b')!.turn('tok-1');
    expect(deck.turns.get()).toEqual([
      { key: 'table:a', turn: null },
      { key: 'table:b', turn: 'tok-1' },
    ]);
    // A change that leaves the turns as they were keeps the same value (nothing re-renders).
    const turns = deck.turns.get();
    made.get('b')!.turn('tok-1');
    expect(deck.turns.get()).toBe(turns);
    deck.sync([play('a')]);
    made.get('b')!.turn('tok-2');
    expect(deck.turns.get()).toEqual([{ key: 'table:a', turn: null }]);
  });

  it('tells a tournament’s move once per tile; the next sync joins the new table, then closes the old one', () => {
    const made = new Map<string, FakeController>();
    const moves: [string, string][] = [];
    const deck = new TableDeck(
      (ref) => {
        const c = new FakeController(ref);
        made.set(ref.tableId, c);
        return c;
      },
      (tile, to) => moves.push([tile.ref.tableId, to]),
    );
    deck.sync([play('a'), play('b')]);
    made.get('b')!.move('n');
    made.get('b')!.turn('tok-1');
    expect(moves).toEqual([['b', 'n']]);
    // The page puts the new table in the old one's place.
    life.length = 0;
    deck.sync([play('a'), play('n')]);
    expect(life).toEqual(['open n', 'close b']);
    expect(deck.tiles.get().map((x) => x.ref.tableId)).toEqual(['a', 'n']);
    expect(moves).toEqual([['b', 'n']]);
    // A tile opened on a controller that already knows its move is told at once.
    const early = new TableDeck(
      (ref) => {
        const c = new FakeController(ref);
        c.move('z');
        return c;
      },
      (tile, to) => moves.push([tile.ref.tableId, to]),
    );
    early.sync([play('y')]);
    expect(moves).toEqual([
      ['b', 'n'],
      ['y', 'z'],
    ]);
  });
});
