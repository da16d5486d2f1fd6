// Hash routes: the lobby serves one index.html at `/`, and `#/table/<id>` survives a reload without
// any server-side route, so a reload mid-hand comes back to the same table.

export type Route =
  | { readonly name: 'lobby' }
  | { readonly name: 'wallet' }
  | { readonly name: 'table'; readonly tableId: string; readonly spectate: boolean };

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/^\/+/, '');
  const [head, id, ...rest] = path.split('/');
  if ((head === 'table' || head === 'watch') && id !== undefined && ID.test(id) && rest.length === 0) {
    return { name: 'table', tableId: id, spectate: head === 'watch' };
  }
  if (head === 'wallet' && id === undefined) return { name: 'wallet' };
  return { name: 'lobby' };
}

export function routeHash(route: Route): string {
  if (route.name === 'lobby') return '#/';
  if (route.name === 'wallet') return '#/wallet';
  return `#/${route.spectate ? 'watch' : 'table'}/${route.tableId}`;
}
