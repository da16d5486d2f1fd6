import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useT } from '../i18n/use-t.js';

export interface DialogProps {
  readonly open: boolean;
  readonly title: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  /** A side drawer instead of a centred box. */
  readonly variant?: 'modal' | 'drawer';
  readonly className?: string;
}

/**
 * A modal on the native <dialog>: the browser traps focus inside it, Escape closes it, and focus
 * returns to whatever opened it.
 */
export function Dialog({ open, title, onClose, children, variant = 'modal', className }: DialogProps) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (d === null) return;
    if (open && !d.open) d.showModal();
    else if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`dialog dialog--${variant}${className !== undefined ? ` ${className}` : ''}`}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <div className="dialog__body">
          <header className="dialog__header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="btn btn--ghost btn--icon" onClick={onClose} aria-label={t('common.close')}>
              ×
            </button>
          </header>
          {children}
        </div>
      )}
    </dialog>
  );
}
