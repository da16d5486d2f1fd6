import { useT } from '../i18n/use-t.js';
import { chips, signedChips } from '../lib/format.js';
import type { SessionSummary } from '../lib/session-summary.js';
import { Dialog } from './dialog.js';

/** The tab's session at this table: hands played, the net result, the biggest pot won. */
export function SessionSummaryView({ summary }: { readonly summary: SessionSummary }) {
  const t = useT();
  return (
    <div className="session-summary" data-testid="session-summary">
      <p className="muted">{t('session.lead')}</p>
      {summary.hands === 0 ? (
        <p>{t('session.empty')}</p>
      ) : (
        <dl className="session-summary__figures">
          <div>
            <dt>{t('session.hands')}</dt>
            <dd data-testid="session-hands">{chips(summary.hands)}</dd>
          </div>
          <div>
            <dt>{t('session.net')}</dt>
            <dd
              data-testid="session-net"
              className={summary.net > 0 ? 'net--up' : summary.net < 0 ? 'net--down' : undefined}
            >
              {signedChips(summary.net)}
            </dd>
          </div>
          <div>
            <dt>{t('session.biggestPot')}</dt>
            <dd data-testid="session-biggest-pot">
              {summary.biggestPot > 0 ? chips(summary.biggestPot) : t('session.none')}
            </dd>
          </div>
        </dl>
      )}
    </div>
  );
}

export function SessionSummaryDialog({
  open,
  summary,
  onClose,
}: {
  readonly open: boolean;
  readonly summary: SessionSummary;
  readonly onClose: () => void;
}) {
  const t = useT();
  return (
    <Dialog open={open} title={t('session.title')} onClose={onClose}>
      <SessionSummaryView summary={summary} />
    </Dialog>
  );
}
