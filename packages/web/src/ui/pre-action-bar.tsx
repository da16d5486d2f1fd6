import { useT } from '../i18n/use-t.js';
import { chips } from '../lib/format.js';
import {
  PreActionKind,
  preActionOptions,
  type PreActionOption,
  type PreActionSelection,
  type PreActionSpot,
} from '../lib/pre-actions.js';

interface Props {
  readonly spot: PreActionSpot | null;
  readonly selected: PreActionSelection | null;
  readonly onToggle: (kind: PreActionKind) => void;
}

/**
 * The pre-actions offered before the hero's turn: toggle buttons (aria-pressed), at most one on.
 * The chosen one is sent by the table controller when your_turn arrives (lib/pre-actions.ts).
 */
export function PreActionBar({ spot, selected, onToggle }: Props) {
  const t = useT();
  const options = preActionOptions(spot);
  if (options.length === 0) return null;
  const label = (o: PreActionOption): string => {
    switch (o.kind) {
      case PreActionKind.CHECK_FOLD:
        return t('preAction.checkFold');
      case PreActionKind.CHECK:
        return t('preAction.check');
      case PreActionKind.CALL:
        return `${t('preAction.call', { amount: chips(o.amount) })}${spot?.callIsAllIn === true ? t('action.allInMark') : ''}`;
      case PreActionKind.CALL_ANY:
        return t('preAction.callAny');
    }
  };
  return (
    <div className="pre-actions" role="group" aria-label={t('preAction.group')} data-testid="pre-actions">
      {options.map((o) => {
        const on = selected !== null && selected.kind === o.kind;
        return (
          <button
            key={o.kind}
            type="button"
            className={`btn btn--sm pre-actions__choice${on ? ' pre-actions__choice--on' : ''}`}
            aria-pressed={on}
            data-pre-action={o.kind}
            onClick={() => onToggle(o.kind)}
          >
            <span className="pre-actions__box" aria-hidden="true" />
            {label(o)}
          </button>
        );
      })}
    </div>
  );
}
