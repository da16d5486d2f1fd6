import { useTranslation } from 'react-i18next';
import { t, type MessageKey } from './i18n.js';

/**
 * The catalog's `t` for a component: the component renders again when the language changes, and
 * its keys are checked against the catalog at compile time.
 */
export function useT(): (key: MessageKey, options?: Parameters<typeof t>[1]) => string {
  useTranslation();
  return t;
}
