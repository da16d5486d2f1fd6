import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from '../i18n/i18n.js';
import {
  appendPage,
  parseWalletHistoryPage,
  WALLET_ENTRY_KINDS,
  WALLET_PAGE_SIZE,
  walletHistoryPath,
  walletKindText,
  WalletHistoryShapeError,
  type WalletEntry,
} from './wallet-history.js';

const ROOM = { session_id: '6f9619ff-8b86-4011-b42d-00c04fc964ff', code: '042817' };

const entry = (over: Partial<WalletEntry> = {}): WalletEntry => ({
  id: '11111111-1111-4111-8111-111111111111',
  at: '2026-12-01T10:00:00.000Z',
  kind: 'buy_in',
  amount: -100,
  balance: 9_900,
  room: ROOM,
  ...over,
});

afterEach(() => applyLocale('en'));

describe('walletHistoryPath', () => {
  it('asks for a page, and the next one by its cursor, encoded', () => {
    expect(walletHistoryPath()).toBe(`/api/wallet/history?page_size=${WALLET_PAGE_SIZE}`);
    expect(walletHistoryPath('eyJzIjoiMTIifQ', 5)).toBe('/api/wallet/history?page_size=5&cursor=eyJzIjoiMTIifQ');
    expect(walletHistoryPath('a+b/c=&d')).toBe(
      `/api/wallet/history?page_size=${WALLET_PAGE_SIZE}&cursor=a%2Bb%2Fc%3D%26d`,
    );
  });
});

describe('parseWalletHistoryPage', () => {
  it('reads a page as the lobby sends it', () => {
    const body = {
      entries: [entry(), entry({ id: '2', kind: 'grant', amount: 10_000, balance: 10_000, room: null })],
      next: 'eyJzIjoiMTIifQ',
    };
    expect(parseWalletHistoryPage(JSON.parse(JSON.stringify(body)))).toEqual(body);
    expect(parseWalletHistoryPage({ entries: [], next: null })).toEqual({ entries: [], next: null });
  });

  it('keeps a kind it has no words for (a newer server)', () => {
    expect(parseWalletHistoryPage({ entries: [entry({ kind: 'jackpot' })], next: null }).entries[0]!.kind).toBe(
      'jackpot',
    );
  });

  it('refuses anything that is not a page, naming the field', () => {
    const bad: [unknown, RegExp][] = [
      [null, /entries/],
      ['<html>', /entries/],
      [{ entries: {} }, /entries/],
      [{ entries: [], next: 5 }, /next/],
      [{ entries: [], next: '' }, /next/],
      [{ entries: [], next: undefined }, /next/],
      [{ entries: [null], next: null }, /entries\[0\]/],
      [{ entries: [entry({ amount: 1.5 })], next: null }, /amount/],
      [{ entries: [entry({ amount: '5' as unknown as number })], next: null }, /amount/],
      [{ entries: [entry({ balance: -1 })], next: null }, /balance/],
      [{ entries: [entry({ at: 'yesterday' })], next: null }, /at/],
      [{ entries: [entry({ kind: '' })], next: null }, /kind/],
      [{ entries: [entry({ id: '' })], next: null }, /id/],
      [{ entries: [entry(), entry({ room: { session_id: 'x' } as never })], next: null }, /entries\[1\]\.room/],
    ];
    for (const [body, field] of bad) {
      expect(() => parseWalletHistoryPage(body), JSON.stringify(body)).toThrow(WalletHistoryShapeError);
      expect(() => parseWalletHistoryPage(body), JSON.stringify(body)).toThrow(field);
    }
  });
});

describe('walletKindText', () => {
  it('has words for every ledger kind in both languages, and one for an unknown kind', () => {
    for (const locale of ['en', 'zh-CN'] as const) {
      applyLocale(locale);
      const texts = WALLET_ENTRY_KINDS.map(walletKindText);
      expect(new Set(texts).size, locale).toBe(WALLET_ENTRY_KINDS.length);
      for (const text of texts) expect(text, locale).not.toMatch(/^wallet\./);
      expect(walletKindText('jackpot')).not.toMatch(/jackpot|wallet\./);
    }
    applyLocale('en');
    expect(walletKindText('buy_in')).toBe('Buy-in');
    expect(walletKindText('cash_out')).toBe('Cash-out');
    expect(walletKindText('jackpot')).toBe('Other');
    applyLocale('zh-CN');
    expect(walletKindText('buy_in')).toBe('买入');
  });
});

describe('appendPage', () => {
  it('adds the older page after the shown rows, without showing an entry twice', () => {
    const a = entry({ id: 'a' });
    const b = entry({ id: 'b' });
    const c = entry({ id: 'c' });
    expect(appendPage([a, b], { entries: [c], next: null }).map((e) => e.id)).toEqual(['a', 'b', 'c']);
    expect(appendPage([a, b], { entries: [b, c], next: null }).map((e) => e.id)).toEqual(['a', 'b', 'c']);
    expect(appendPage([], { entries: [a], next: 'x' }).map((e) => e.id)).toEqual(['a']);
  });
});
