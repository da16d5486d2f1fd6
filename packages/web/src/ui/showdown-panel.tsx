import { useT } from '../i18n/use-t.js';
import { chips, signedChips } from '../lib/format.js';
import type { ShowdownModel } from '../lib/table-model.js';
import { Card } from './card.js';

interface Props {
  readonly showdown: ShowdownModel;
  /** The hero was dealt in and has not shown: offer the show-or-muck choice. */
  readonly canShow: boolean;
  readonly heroSeat: number | null;
  readonly busy: boolean;
  readonly onShow: () => void;
  readonly onMuck: () => void;
}

/** Who won what: each pot with its winners (both halves in hi-lo games), the shown hands, the nets. */
export function ShowdownPanel({ showdown, canShow, heroSeat, busy, onShow, onMuck }: Props) {
  const t = useT();
  const who = (seat: number, name: string): string => (seat === heroSeat ? t('common.you') : name);
  return (
    <section className="showdown" aria-label={t('showdown.title')} data-testid="showdown">
      <h2 className="showdown__title">{t('showdown.title')}</h2>
      <ul className="showdown__pots">
        {showdown.pots.map((p) => (
          <li key={p.label} className="showdown__pot" data-testid="pot-result">
            <span className="showdown__pot-name">
              {p.label} <strong>{chips(p.amount)}</strong>
              {p.rake > 0 && <span className="muted">{t('showdown.rake', { amount: chips(p.rake) })}</span>}
            </span>
            <ul className="showdown__winners">
              {p.winners.map((w, i) => (
                <li key={`${w.seat}-${w.side}-${i}`} className={`winner winner--${w.side}`} data-testid="winner">
                  {showdown.hiLo && w.side !== 'uncontested' && (
                    <span className={`half half--${w.side}`}>
                      {w.side === 'high' ? t('showdown.high') : t('showdown.low')}
                    </span>
                  )}
                  <span className="winner__name">{who(w.seat, w.name)}</span>
                  {` ${w.seat === heroSeat ? t('showdown.youWin') : t('showdown.wins')} `}
                  <strong>{chips(w.amount)}</strong>
                  {w.handName !== null && (
                    <span className="winner__hand">{t('showdown.withHand', { hand: w.handName })}</span>
                  )}
                </li>
              ))}
              {p.noLow && <li className="muted">{t('showdown.noLow')}</li>}
            </ul>
          </li>
        ))}
      </ul>
      {showdown.shown.length > 0 && (
        <div className="showdown__shown">
          <h3>{t('showdown.shown')}</h3>
          <ul>
            {showdown.shown.map((s) => (
              <li key={s.seat} data-testid="shown-hand">
                <span className="showdown__who">{who(s.seat, s.name)}</span>
                <span className="showdown__cards">
                  {s.cards.map((c, i) => (
                    <Card key={i} code={c} size="sm" />
                  ))}
                </span>
                {s.handNames.length > 0 && <span className="muted">{s.handNames.join(' / ')}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
      <ul className="showdown__nets">
        {showdown.players
          .filter((p) => p.net !== 0)
          .map((p) => (
            <li key={p.seat} className={p.net > 0 ? 'net net--up' : 'net net--down'}>
              {who(p.seat, p.name)} {signedChips(p.net)}
            </li>
          ))}
      </ul>
      {canShow && (
        <div className="showdown__choice" role="group" aria-label={t('showdown.choice')}>
          <button type="button" className="btn btn--secondary btn--sm" onClick={onShow} disabled={busy}>
            {t('showdown.show')}
          </button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={onMuck}>
            {t('showdown.muck')}
          </button>
        </div>
      )}
    </section>
  );
}
