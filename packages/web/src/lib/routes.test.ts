import { describe, expect, it } from 'vitest';
import { parseRoute, routeHash } from './routes.js';

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

  it('sends anything else to the lobby', () => {
    expect(parseRoute('')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/table/')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/table/<script>')).toEqual({ name: 'lobby' });
    expect(parseRoute('#/table/abc/extra')).toEqual({ name: 'lobby' });
  });
});
