import { useT } from '../i18n/use-t.js';
import type { Toasts } from '../state/toasts.js';
import { useStore } from './hooks.js';

/** Plain-language notices in a live region: errors are announced at once, the rest politely. */
export function ToastsView({ toasts }: { readonly toasts: Toasts }) {
  const tr = useT();
  const list = useStore(toasts.store);
  return (
    <div className="toasts" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} className={`toast toast--${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
          <span className="toast__text">{t.text}</span>
          <button
            type="button"
            className="btn btn--ghost btn--icon"
            onClick={() => toasts.dismiss(t.id)}
            aria-label={tr('common.dismiss')}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
