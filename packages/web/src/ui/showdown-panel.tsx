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

const SIDE_LABEL = { high: 'High', low: 'Low', uncontested: '' } as const;

/** Who won what: each pot with its winners (both halves in hi-lo games), the shown hands, the nets. */
export function ShowdownPanel({ showdown, canShow, heroSeat, busy, onShow, onMuck }: Props) {
  return (
    <section className="showdown" aria-label="Hand result" data-testid="showdown">
      <h2 className="showdown__title">Hand result</h2>
      <ul className="showdown__pots">
        {showdown.pots.map((p) => (
          <li key={p.label} className="showdown__pot" data-testid="pot-result">
            <span className="showdown__pot-name">
              {p.label} <strong>{chips(p.amount)}</strong>
              {p.rake > 0 && <span className="muted"> (rake {chips(p.rake)})</span>}
            </span>
            <ul className="showdown__winners">
              {p.winners.map((w, i) => (
                <li key={`${w.seat}-${w.side}-${i}`} className={`winner winner--${w.side}`} data-testid="winner">
                  {showdown.hiLo && w.side !== 'uncontested' && (
                    <span className={`half half--${w.side}`}>{SIDE_LABEL[w.side]}</span>
                  )}
                  <span className="winner__name">{w.seat === heroSeat ? 'You' : w.name}</span>
                  {w.seat === heroSeat ? ' win ' : ' wins '}
                  <strong>{chips(w.amount)}</strong>
                  {w.handName !== null && <span className="winner__hand"> with {w.handName}</span>}
                </li>
              ))}
              {p.noLow && <li className="muted">No qualifying low: the high hand takes the whole pot.</li>}
            </ul>
          </li>
        ))}
      </ul>
      {showdown.shown.length > 0 && (
        <div className="showdown__shown">
          <h3>Shown</h3>
          <ul>
            {showdown.shown.map((s) => (
              <li key={s.seat} data-testid="shown-hand">
                <span className="showdown__who">{s.seat === heroSeat ? 'You' : s.name}</span>
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
              {p.seat === heroSeat ? 'You' : p.name} {signedChips(p.net)}
            </li>
          ))}
      </ul>
      {canShow && (
        <div className="showdown__choice" role="group" aria-label="Show or muck your cards">
          <button type="button" className="btn btn--secondary btn--sm" onClick={onShow} disabled={busy}>
            Show my cards
          </button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={onMuck}>
            Muck
          </button>
        </div>
      )}
    </section>
  );
}
