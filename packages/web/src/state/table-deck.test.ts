import { describe, expect, it } from 'vitest';
import type { TileRef } from '../lib/routes.js';
import { Store } from './store.js';
import { TableDeck, type TileController } from './table-deck.js';

class FakeController implements TileController {
  readonly store = new Store<{ readonly model: { readonly turn: { readonly turnToken: string } | null } | null }>({
    model: null,
  });
  disposed = false;
  constructor(readonly ref: TileRef) {}
  dispose(): void {
    this.disposed = true;
  }
  turn(token: string | null): void {
    this.store.set({ model: { turn: token === null ? null : { turnToken: token } } });
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
});
