import { tileKey, type TileTurn } from '../lib/multi-table.js';
import type { TileRef } from '../lib/routes.js';
import { Store } from './store.js';
import type { TableController } from './table-controller.js';

/**
 * What the deck needs of a table's controller: its state (the pending decision, and the table a
 * tournament moved the player to) and an end.
 */
export interface TileController {
  readonly store: Store<{
    readonly model: { readonly turn: { readonly turnToken: string } | null } | null;
    readonly movedTo?: string | null;
  }>;
  dispose(): void;
}

/** A tournament moved the player from `tile`'s table to table `to`. */
export type TileMoved<C extends TileController> = (tile: DeckTile<C>, to: string) => void;

export interface DeckTile<C extends TileController = TableController> {
  readonly key: string;
  readonly ref: TileRef;
  readonly controller: C;
}

/**
 * The tables open in the page, each on its own controller over the page's one SDK client (one
 * WebSocket). `sync` opens the tiles that appeared and closes (detaches from) the ones that went,
 * keeping the others as they are; `turns` follows each tile's pending decision for the focus rule.
 * When a tournament moves the player, `onMoved` hears it once per tile: the page then syncs the new
 * table in place of the old one (joined first, the old one detached after, in the same `sync`).
 */
export class TableDeck<C extends TileController = TableController> {
  readonly tiles = new Store<readonly DeckTile<C>[]>([]);
  /** Each tile's pending decision, in tile order; replaced only when one of them changes. */
  readonly turns = new Store<readonly TileTurn[]>([]);
  private readonly offs = new Map<string, () => void>();
  /** The tiles whose move was told already. */
  private readonly moved = new Set<string>();

  constructor(
    private readonly open: (ref: TileRef) => C,
    private readonly onMoved: TileMoved<C> = () => undefined,
  ) {}

  sync(refs: readonly TileRef[]): void {
    const before = this.tiles.get();
    const have = new Map(before.map((x) => [x.key, x]));
    const next = refs.map((ref): DeckTile<C> => {
      const key = tileKey(ref);
      const open = have.get(key);
      if (open !== undefined) return open;
      const controller = this.open(ref);
      this.offs.set(
        key,
        controller.store.subscribe(() => {
          this.readTurns();
          this.readMove(key);
        }),
      );
      return { key, ref, controller };
    });
    const keep = new Set(next.map((x) => x.key));
    for (const x of before) {
      if (keep.has(x.key)) continue;
      this.offs.get(x.key)?.();
      this.offs.delete(x.key);
      this.moved.delete(x.key);
      x.controller.dispose();
    }
    if (next.length !== before.length || next.some((x, i) => x !== before[i])) this.tiles.set(next);
    this.readTurns();
    for (const x of next) this.readMove(x.key);
  }

  /** Closes every tile; the deck can be synced again afterwards. */
  dispose(): void {
    this.sync([]);
  }

  private readMove(key: string): void {
    if (this.moved.has(key)) return;
    const tile = this.tiles.get().find((x) => x.key === key);
    const to = tile?.controller.store.get().movedTo;
    if (tile === undefined || to === undefined || to === null) return;
    this.moved.add(key);
    this.onMoved(tile, to);
  }

  private readTurns(): void {
    const turns = this.tiles
      .get()
      .map((x): TileTurn => ({ key: x.key, turn: x.controller.store.get().model?.turn?.turnToken ?? null }));
    const now = this.turns.get();
    if (turns.length === now.length && turns.every((x, i) => x.key === now[i]!.key && x.turn === now[i]!.turn)) return;
    this.turns.set(turns);
  }
}
