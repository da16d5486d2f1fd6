import { describe, expect, it } from 'vitest';
import { MAX_TABLES, parseRoute, routeHash } from './routes.js';

describe('routes', () => {
  it('round-trips table and watch routes', () => {
    const id = '6f9619ff-8b86-d011-b42d-00c04fc964ff';
    for (const spectate of [false, true]) {
      const r = { name: 'table', tableId: id, spectate } as const;
      expect(parseRoute(routeHash(r))).toEqual(r);
    }
    expect(routeHash({ name: 'lobby' })).toBe('#/');
  });

  it('round-trips the wallet history', () => {
    expect(routeHash({ name: 'wallet' })).toBe('#/wallet');
    expect(parseRoute('#/wallet')).toEqual({ name: 'wallet' });
    expect(parseRoute('#wallet')).toEqual({ name: 'wallet' });
    expect(parseRoute('#/wallet/')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/wallet/abc')).toEqual({ name: 'lobby' });
  });

  it('round-trips the tournaments tab and one tournament', () => {
    const id = '3d2c1b0a-8b86-4011-b42d-00c04fc964ff';
    expect(routeHash({ name: 'tournaments', tournamentId: null })).toBe('#/tournaments');
    expect(routeHash({ name: 'tournaments', tournamentId: id })).toBe(`#/tournaments/${id}`);
    expect(parseRoute('#/tournaments')).toEqual({ name: 'tournaments', tournamentId: null });
    expect(parseRoute('#/tournaments/')).toEqual({ name: 'tournaments', tournamentId: null });
    expect(parseRoute(`#/tournaments/${id}`)).toEqual({ name: 'tournaments', tournamentId: id });
    // Anything else there is the lobby.
    expect(parseRoute(`#/tournaments/${id}/extra`)).toEqual({ name: 'lobby' });
    expect(parseRoute('#/tournaments/not an id')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/tournaments?x=1')).toEqual({ name: 'lobby' });
  });

  it('round-trips several tiles with the one in focus', () => {
    const r = {
      name: 'tables',
      tiles: [
        { tableId: 'a1', spectate: false },
        { tableId: 'b2', spectate: true },
        { tableId: 'c3', spectate: false },
      ],
      focus: 2,
    } as const;
    expect(routeHash(r)).toBe('#/tables/a1,watch:b2,c3?focus=2');
    expect(parseRoute(routeHash(r))).toEqual(r);
    // Focus on the first tile is left out.
    expect(routeHash({ ...r, focus: 0 })).toBe('#/tables/a1,watch:b2,c3');
    expect(parseRoute('#/tables/a1,watch:b2,c3')).toEqual({ ...r, focus: 0 });
  });

  it('writes one tile as the old single-table route', () => {
    expect(routeHash({ name: 'tables', tiles: [{ tableId: 'a1', spectate: false }], focus: 0 })).toBe('#/table/a1');
    expect(routeHash({ name: 'tables', tiles: [{ tableId: 'a1', spectate: true }], focus: 0 })).toBe('#/watch/a1');
    expect(routeHash({ name: 'tables', tiles: [], focus: 0 })).toBe('#/');
    // A hand-written one-tile list still reads.
    expect(parseRoute('#/tables/a1')).toEqual({
      name: 'tables',
      tiles: [{ tableId: 'a1', spectate: false }],
      focus: 0,
    });
  });

  it('keeps each table once, at most the page holds, and a focus inside the list', () => {
    const ids = Array.from({ length: MAX_TABLES + 3 }, (_, i) => `t${i}`);
    const many = parseRoute(`#/tables/${ids.join(',')}`);
    expect(many.name === 'tables' && many.tiles.map((x) => x.tableId)).toEqual(ids.slice(0, MAX_TABLES));
    const dup = parseRoute('#/tables/a1,watch:a1,b2');
    expect(dup).toEqual({
      name: 'tables',
      tiles: [
        { tableId: 'a1', spectate: false },
        { tableId: 'b2', spectate: false },
      ],
      focus: 0,
    });
    const far = parseRoute('#/tables/a1,b2?focus=9');
    expect(far.name === 'tables' && far.focus).toBe(1);
  });

  it('sends anything else to the lobby', () => {
    expect(parseRoute('')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/table/')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/table/<script>')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/table/abc/extra')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/tables/')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/tables/a1,,b2')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/tables/a1,<b>')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/tables/a1,b2?focus=x')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/tables/a1,b2?other=1')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/tables/a1/b2')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/table/a1?focus=1')).toEqual({ name: 'lobby' });
  });
});
