// The one message catalog of the web client (i18next, with react-i18next for the components): the
// page's language, how it is chosen (the account's choice, else this browser's last choice, else the
// browser's languages), and the locale-aware number and date formats.
import { LOCALES, type Locale } from '@felt/protocol';
import i18next, { type TOptions } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en, type Catalog } from './en.js';
import { zhCN } from './zh-CN.js';

export type { Locale } from '@felt/protocol';
export { LOCALES } from '@felt/protocol';

export const CATALOGS: Readonly<Record<Locale, Catalog>> = { en, 'zh-CN': zhCN };

export const DEFAULT_LOCALE: Locale = 'en';

/** Where this browser keeps the last language chosen on it (before sign-in, and as a cache after). */
export const LOCALE_STORAGE_KEY = 'felt.locale';

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: Object.fromEntries(Object.entries(CATALOGS).map(([lng, catalog]) => [lng, { translation: catalog }])),
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: LOCALES,
  // Resources are bundled: initialise synchronously, so the first render already has its texts.
  initAsync: false,
  // React escapes what it renders; i18next must not escape it a second time.
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: false },
});

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * The language for a browser's `navigator.languages`: the first that the client speaks (any zh* is
 * Simplified Chinese, any en* English), else English.
 */
export function localeFromBrowser(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const lower = tag.toLowerCase();
    if (lower === 'zh' || lower.startsWith('zh-')) return 'zh-CN';
    if (lower === 'en' || lower.startsWith('en-')) return 'en';
  }
  return DEFAULT_LOCALE;
}

export function currentLocale(): Locale {
  const lng = i18n.language;
  return isLocale(lng) ? lng : DEFAULT_LOCALE;
}

/** Switches every text on the page (and the document's `lang`). */
export function applyLocale(locale: Locale): void {
  if (i18n.language !== locale) void i18n.changeLanguage(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
type WithoutPlural<K extends string> = K extends `${infer B}_other` ? B : K extends `${infer B}_one` ? B : K;

/** Every key of the catalog (a plural pair by its base key, used with `count`): a typo does not compile. */
export type MessageKey = WithoutPlural<Leaves<Catalog>>;

/** A text from the catalog in the page's language. */
export function t(key: MessageKey, options?: TOptions): string {
  return i18n.t(key, options ?? {});
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Whole numbers with the locale's grouping: 1,250. */
export function formatInteger(n: number): string {
  const locale = currentLocale();
  let f = numberFormats.get(locale);
  if (f === undefined) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    numberFormats.set(locale, f);
  }
  return f.format(Math.trunc(n));
}

/** A short date and time in the page's language: "Jan 1, 09:30 AM", "1月1日 09:30". */
export function formatDateTime(date: Date): string {
  return date.toLocaleString(currentLocale(), { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** A time of day in the page's language: "09:30 AM", "09:30". */
export function formatTime(date: Date): string {
  return date.toLocaleTimeString(currentLocale(), { hour: '2-digit', minute: '2-digit' });
}
