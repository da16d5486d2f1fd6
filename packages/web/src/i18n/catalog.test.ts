// The catalog is complete in every language: the same keys both ways, no empty text, the same
// placeholders and markup tags in each translation of a key, plural pairs whole. Then the language
// choice: the browser's languages, and i18next answering in the chosen language.
import { afterEach, describe, expect, it } from 'vitest';
import { en } from './en.js';
import {
  applyLocale,
  CATALOGS,
  currentLocale,
  formatInteger,
  isLocale,
  LOCALES,
  localeFromBrowser,
  t,
} from './i18n.js';
import { zhCN } from './zh-CN.js';

type Tree = { readonly [key: string]: string | Tree };

/** Every leaf of a catalog by its dotted key. */
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = `${prefix}${k}`;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, `${key}.`)) out.set(kk, vv);
  }
  return out;
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
const tags = (text: string): string[] => [...text.matchAll(/<\/?(\w+)>/g)].map((m) => m[0]).sort();

const catalogs = Object.entries(CATALOGS).map(([locale, c]) => [locale, flatten(c as Tree)] as const);
const english = flatten(en);

afterEach(() => applyLocale('en'));

describe('the message catalog', () => {
  it('has a catalog for every language the contract lists, and no other', () => {
    expect(Object.keys(CATALOGS).sort()).toEqual([...LOCALES].sort());
    expect(LOCALES).toEqual(['en', 'zh-CN']);
  });

  it.each(catalogs)('%s has exactly the English keys', (_locale, flat) => {
    const missing = [...english.keys()].filter((k) => !flat.has(k));
    const extra = [...flat.keys()].filter((k) => !english.has(k));
    expect(missing).toEqual([]);
    expect(extra).toEqual([]);
  });

  it.each(catalogs)('%s has no empty text and no untrimmed sentence', (_locale, flat) => {
    for (const [key, text] of flat) {
      expect(text.trim(), key).not.toBe('');
      // Leading or trailing spaces are deliberate only where a fragment joins another text.
      if (text !== text.trim()) expect(FRAGMENTS, `${key}: ${JSON.stringify(text)}`).toContain(key);
    }
  });

  it.each(catalogs)('%s uses the same placeholders and tags as English in every text', (_locale, flat) => {
    for (const [key, text] of flat) {
      const source = english.get(key)!;
      expect(placeholders(text), key).toEqual(placeholders(source));
      expect(tags(text), key).toEqual(tags(source));
      // i18next's nesting syntax would pull another key into a translation by accident.
      expect(text, key).not.toContain('$t(');
    }
  });

  it('keeps plural forms in pairs, each with its count', () => {
    for (const key of english.keys()) {
      const one = /^(.*)_one$/.exec(key);
      const other = /^(.*)_other$/.exec(key);
      if (one) expect(english.has(`${one[1]}_other`), key).toBe(true);
      if (other) expect(english.has(`${other[1]}_one`), key).toBe(true);
      if (one || other) expect(placeholders(english.get(key)!), key).toContain('count');
    }
  });

  it('translates: the Chinese catalog is not a copy of the English one', () => {
    const zh = flatten(zhCN);
    const same = [...zh].filter(([k, v]) => english.get(k) === v).map(([k]) => k);
    // Names that stay as they are in Chinese: the brand, each language's own name, the file formats.
    expect(same.sort()).toEqual(['app.brand', 'history.ohh', 'history.phh', 'languages.en', 'languages.zhCN']);
    // Everything else reads as Chinese: what is left of a text without its placeholders has Han
    // characters wherever it has letters, and Latin words only where Chinese keeps them too.
    for (const [key, text] of zh) {
      if (same.includes(key)) continue;
      const rest = text.replace(/\{\{\s*\w+\s*\}\}/g, '').replace(/<\/?\w+>/g, '');
      if (/\p{L}/u.test(rest) && !/^card\.ranks?\./.test(key)) expect(rest, key).toMatch(/\p{Script=Han}/u);
      for (const word of rest.match(/[A-Za-z][A-Za-z-]*/g) ?? [])
        expect(LATIN_IN_CHINESE, `${key}: ${word}`).toContain(word);
    }
  });
});

/** Latin words a Chinese text may keep: the brand, the mix's name, the fairness derivation's name, card ranks. */
const LATIN_IN_CHINESE = ['Felt', 'HORSE', 'felt-deck-v', 'A', 'K', 'Q', 'J'];

/** Keys whose text is a fragment joined to another, so it starts or ends with a space. */
const FRAGMENTS = [
  'common.listSeparator',
  'common.sentenceSeparator',
  'table.inHands_one',
  'table.inHands_other',
  'felt.toDiscard',
  'action.allInMark',
  'action.timedOut',
  'showdown.rake',
  'showdown.withHand',
  'fairness.yours',
  'history.handNo',
  'history.won',
  'replay.andAllIn',
  'replay.timedOut',
];

describe('the page’s language', () => {
  it('follows the browser: any zh is Simplified Chinese, any en English, else English', () => {
    expect(localeFromBrowser(['zh-CN'])).toBe('zh-CN');
    expect(localeFromBrowser(['zh-TW', 'en'])).toBe('zh-CN');
    expect(localeFromBrowser(['zh'])).toBe('zh-CN');
    expect(localeFromBrowser(['fr-FR', 'zh-Hans-CN', 'en'])).toBe('zh-CN');
    expect(localeFromBrowser(['en-GB', 'zh-CN'])).toBe('en');
    expect(localeFromBrowser(['de', 'fr'])).toBe('en');
    expect(localeFromBrowser([])).toBe('en');
    expect(localeFromBrowser(['ZH-cn'])).toBe('zh-CN');
    expect(localeFromBrowser(['zhx'])).toBe('en');
  });

  it('accepts only the languages it speaks', () => {
    expect(isLocale('en')).toBe(true);
    expect(isLocale('zh-CN')).toBe(true);
    for (const v of ['zh', 'EN', 'fr', '', null, 7]) expect(isLocale(v)).toBe(false);
  });

  it('answers in the chosen language, numbers included', () => {
    expect(currentLocale()).toBe('en');
    expect(t('action.fold')).toBe('Fold');
    expect(t('action.pickDiscards', { count: 1 })).toBe('Pick up to 1 card to throw away, then draw.');
    expect(t('action.pickDiscards', { count: 3 })).toBe('Pick up to 3 cards to throw away, then draw.');
    expect(formatInteger(1234567.9)).toBe('1,234,567');
    applyLocale('zh-CN');
    expect(currentLocale()).toBe('zh-CN');
    expect(t('action.fold')).toBe('弃牌');
    expect(t('action.pickDiscards', { count: 1 })).toBe('最多选 1 张要换掉的牌，然后换牌。');
    expect(t('common.chips', { amount: formatInteger(12500) })).toBe('12,500 筹码');
  });
});
