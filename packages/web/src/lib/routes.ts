// Hash routes: the lobby serves one index.html at `/`, and `#/table/<id>` survives a reload without
// any server-side route, so a reload mid-hand comes back to the same table.
//
// Several tables in one page (lib/multi-table.ts) are `#/tables/<tile>,<tile>,...?focus=<n>`, a tile
// being `<id>` to play or `watch:<id>` to watch, so a reload brings every tile back with the same one
// in focus. One tile keeps the old `#/table/<id>` (or `#/watch/<id>`), which is also what the lobby
// links to: opening that route adds the table to the tiles already open.
//
// The lobby's tournaments tab is `#/tournaments`, and one tournament's detail `#/tournaments/<id>`, so
// a reload (or the browser's back button) keeps the tab and the tournament shown.

/** The most tables one page holds. */
export const MAX_TABLES = 8;

/** A table shown in the page, to play at or to watch. */
export interface TileRef {
  readonly tableId: string;
  readonly spectate: boolean;
}

export type Route =
  | { readonly name: 'lobby' }
  | { readonly name: 'wallet' }
  /** The lobby with its tournaments tab: the list, or one tournament's detail. */
  | { readonly name: 'tournaments'; readonly tournamentId: string | null }
  /** Open this table (as one more tile when others are open). */
  | { readonly name: 'table'; readonly tableId: string; readonly spectate: boolean }
  /** Exactly these tiles, `focus` the index of the one in focus. */
  | { readonly name: 'tables'; readonly tiles: readonly TileRef[]; readonly focus: number };

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const WATCH = 'watch:';
const FOCUS = /^focus=(\d{1,2})$/;

function parseTiles(list: string): TileRef[] | null {
  const tiles: TileRef[] = [];
  for (const item of list.split(',')) {
    const spectate = item.startsWith(WATCH);
    const tableId = spectate ? item.slice(WATCH.length) : item;
    if (!ID.test(tableId)) return null;
    // A table is open once; more than the page holds are dropped.
    if (tiles.some((x) => x.tableId === tableId) || tiles.length === MAX_TABLES) continue;
    tiles.push({ tableId, spectate });
  }
  return tiles.length > 0 ? tiles : null;
}

export function parseRoute(hash: string): Route {
  const full = hash.replace(/^#/, '').replace(/^\/+/, '');
  const q = full.indexOf('?');
  const path = q === -1 ? full : full.slice(0, q);
  const query = q === -1 ? null : full.slice(q + 1);
  const [head, id, ...rest] = path.split('/');
  if (
    query === null &&
    (head === 'table' || head === 'watch') &&
    id !== undefined &&
    ID.test(id) &&
    rest.length === 0
  ) {
    return { name: 'table', tableId: id, spectate: head === 'watch' };
  }
  if (head === 'tables' && id !== undefined && rest.length === 0) {
    const tiles = parseTiles(id);
    const focusMatch = query === null ? null : FOCUS.exec(query);
    if (tiles !== null && (query === null || focusMatch !== null)) {
      const focus = Math.min(Number(focusMatch?.[1] ?? 0), tiles.length - 1);
      return { name: 'tables', tiles, focus };
    }
  }
  if (head === 'wallet' && id === undefined && query === null) return { name: 'wallet' };
  if (head === 'tournaments' && query === null && rest.length === 0) {
    if (id === undefined || id === '') return { name: 'tournaments', tournamentId: null };
    if (ID.test(id)) return { name: 'tournaments', tournamentId: id };
  }
  return { name: 'lobby' };
}

function singleHash(tile: TileRef): string {
  return `#/${tile.spectate ? 'watch' : 'table'}/${tile.tableId}`;
}

export function routeHash(route: Route): string {
  if (route.name === 'lobby') return '#/';
  if (route.name === 'wallet') return '#/wallet';
  if (route.name === 'tournaments') {
    return route.tournamentId === null ? '#/tournaments' : `#/tournaments/${route.tournamentId}`;
  }
  if (route.name === 'table') return singleHash(route);
  const [first] = route.tiles;
  if (first === undefined) return '#/';
  if (route.tiles.length === 1) return singleHash(first);
  const list = route.tiles.map((x) => (x.spectate ? `${WATCH}${x.tableId}` : x.tableId)).join(',');
  return route.focus > 0 ? `#/tables/${list}?focus=${route.focus}` : `#/tables/${list}`;
}
