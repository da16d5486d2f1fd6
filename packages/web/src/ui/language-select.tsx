import { useId } from 'react';
import { currentLocale, isLocale, LOCALES, type Locale } from '../i18n/i18n.js';
import { useT } from '../i18n/use-t.js';
import type { AppState } from '../state/app-state.js';

const LANGUAGE_NAME = { en: 'languages.en', 'zh-CN': 'languages.zhCN' } as const satisfies Record<Locale, string>;

/** The page's language: switches every text at once and is kept for the account and this browser. */
export function LanguageSelect({ app }: { readonly app: AppState }) {
  const t = useT();
  const id = useId();
  return (
    <div className="lang-select">
      <label htmlFor={id} className="visually-hidden">
        {t('app.language')}
      </label>
      <select
        id={id}
        value={currentLocale()}
        data-testid="language"
        onChange={(e) => {
          const value = e.target.value;
          if (isLocale(value)) void app.setLocale(value);
        }}
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {t(LANGUAGE_NAME[l])}
          </option>
        ))}
      </select>
    </div>
  );
}
