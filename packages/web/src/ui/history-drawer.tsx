import type { HandDetail, HandSummary } from '@felt/protocol';
import { useEffect, useMemo, useState } from 'react';
import { currentLocale } from '../i18n/i18n.js';
import { useT } from '../i18n/use-t.js';
import { errorText } from '../lib/error-text.js';
import { chips, dateTimeText, gameShortTitle, signedChips } from '../lib/format.js';
import { buildReplay, voidedReasonText, voidedText } from '../lib/replay.js';
import type { AppState } from '../state/app-state.js';
import { Card, CardSlot } from './card.js';
import { Dialog } from './dialog.js';

interface Props {
  readonly app: AppState;
  readonly open: boolean;
  readonly onClose: () => void;
  /** Hands of this table first; the list covers every table the player sat at. */
  readonly tableId: string;
}

/** The player's hand history from the lobby, with a step-by-step replay of any hand. */
export function HistoryDrawer({ app, open, onClose, tableId }: Props) {
  const t = useT();
  const [hands, setHands] = useState<readonly HandSummary[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [detail, setDetail] = useState<HandDetail | null>(null);
  const [loadingId, setLoadingId] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setDetail(null);
    app
      .historyPage()
      .then((p) => {
        if (!live) return;
        setHands(p.hands);
        setNext(p.next);
        setError(null);
      })
      .catch((err: unknown) => live && setError(errorText(err)));
    return () => {
      live = false;
    };
  }, [app, open]);

  const more = (): void => {
    if (next === null) return;
    app
      .historyPage(next)
      .then((p) => {
        setHands((h) => [...(h ?? []), ...p.hands]);
        setNext(p.next);
      })
      .catch((err: unknown) => setError(errorText(err)));
  };

  const openHand = (id: string): void => {
    setLoadingId(id);
    app
      .handDetail(id)
      .then(setDetail)
      .catch((err: unknown) => setError(errorText(err)))
      .finally(() => setLoadingId(null));
  };

  return (
    <Dialog
      open={open}
      title={detail === null ? t('history.title') : t('history.replay')}
      onClose={onClose}
      variant="drawer"
    >
      {error !== null && (
        <p className="form__error" role="alert">
          {error}
        </p>
      )}
      {detail !== null ? (
        detail.voided_reason !== undefined ? (
          <VoidedHand detail={detail} onBack={() => setDetail(null)} />
        ) : (
          <Replay detail={detail} onBack={() => setDetail(null)} />
        )
      ) : hands === null ? (
        <p aria-busy="true">{t('history.loading')}</p>
      ) : hands.length === 0 ? (
        <p className="muted">{t('history.empty')}</p>
      ) : (
        <>
          <ul className="history" data-testid="history-list">
            {[...hands]
              .sort((a, b) => Number(b.session_id === tableId) - Number(a.session_id === tableId))
              .map((h) => (
                <li key={h.hand_id}>
                  <HistoryRow hand={h} busy={loadingId === h.hand_id} onOpen={openHand} />
                </li>
              ))}
          </ul>
          {next !== null && (
            <button type="button" className="btn btn--ghost btn--block" onClick={more}>
              {t('history.older')}
            </button>
          )}
        </>
      )}
    </Dialog>
  );
}

/**
 * One finished hand in the list: game, number, your cards and your result. A voided hand has no
 * result: it says so and why, in place of the net.
 */
export function HistoryRow({
  hand: h,
  busy,
  onOpen,
}: {
  readonly hand: HandSummary;
  readonly busy: boolean;
  readonly onOpen: (handId: string) => void;
}) {
  const t = useT();
  const voided = voidedText(h);
  return (
    <button
      type="button"
      className={`history__row${voided !== null ? ' history__row--voided' : ''}`}
      onClick={() => onOpen(h.hand_id)}
      aria-busy={busy}
      data-hand-id={h.hand_id}
    >
      <span className="history__game">
        {gameShortTitle(h.game, h.limit as 'nl' | 'pl' | 'fl')}
        {h.hand_no !== null ? t('history.handNo', { n: h.hand_no }) : ''}
      </span>
      <span className="history__cards">
        {h.cards.map((c, i) => (
          <Card key={i} code={c} size="sm" />
        ))}
      </span>
      {voided !== null ? (
        <span className="history__net history__voided muted" title={voided} data-testid="history-voided">
          {t('history.voided')}
        </span>
      ) : (
        <span className={`history__net ${h.net > 0 ? 'net--up' : h.net < 0 ? 'net--down' : ''}`}>
          {signedChips(h.net)}
        </span>
      )}
      <span className="history__when muted">
        {dateTimeText(h.ended_at)}
        {h.voided_reason !== undefined ? ` · ${voidedReasonText(h.voided_reason)}` : ''}
      </span>
    </button>
  );
}

/** A voided hand: nothing to replay and no result, only why, and the stacks every seat got back. */
export function VoidedHand({ detail, onBack }: { readonly detail: HandDetail; readonly onBack: () => void }) {
  const t = useT();
  return (
    <div className="replay" data-testid="replay">
      <button type="button" className="btn btn--ghost btn--sm" onClick={onBack}>
        {t('history.allHands')}
      </button>
      <p className="replay__meta">
        {t('history.meta', {
          game: gameShortTitle(detail.game, detail.limit as 'nl' | 'pl' | 'fl'),
          date: dateTimeText(detail.started_at),
        })}
      </p>
      <p className="replay__caption" role="note" data-testid="replay-voided">
        {voidedText(detail)}
      </p>
      <ul className="replay__seats">
        {detail.players.map((p) => (
          <li key={p.seat} className={`replay__seat${p.seat === detail.viewer_seat ? ' replay__seat--hero' : ''}`}>
            <span className="replay__name">
              {p.seat === detail.viewer_seat ? t('common.youSuffix', { name: p.name }) : p.name}
            </span>
            <span className="replay__stack">{chips(p.final_stack)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Replay({ detail, onBack }: { readonly detail: HandDetail; readonly onBack: () => void }) {
  const t = useT();
  const locale = currentLocale();
  // The captions are sentences: a language switch writes them again.
  const frames = useMemo(() => buildReplay(detail), [detail, locale]);
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  const last = frames.length - 1;
  const frame = frames[Math.min(step, last)]!;

  useEffect(() => {
    if (!playing) return;
    if (step >= last) {
      setPlaying(false);
      return;
    }
    const t = setTimeout(() => setStep((s) => Math.min(last, s + 1)), 900);
    return () => clearTimeout(t);
  }, [playing, step, last]);

  const hasBoard = frames.some((f) => f.board.length > 0);
  return (
    <div className="replay" data-testid="replay">
      <button type="button" className="btn btn--ghost btn--sm" onClick={onBack}>
        {t('history.allHands')}
      </button>
      <p className="replay__meta">
        {t('history.metaPot', {
          game: gameShortTitle(detail.game, detail.limit as 'nl' | 'pl' | 'fl'),
          date: dateTimeText(detail.started_at),
          amount: chips(detail.pot_total),
        })}
      </p>
      {hasBoard && (
        <div className="board board--small" aria-label={t('felt.board')}>
          {Array.from({ length: 5 }, (_, i) => {
            const c = frame.board[i];
            return c !== undefined ? <Card key={i} code={c} size="sm" /> : <CardSlot key={i} size="sm" />;
          })}
        </div>
      )}
      <p className="replay__caption" aria-live="polite" data-testid="replay-caption">
        {frame.street !== '' && <span className="muted">{frame.street}: </span>}
        {frame.caption}
      </p>
      <p className="muted">
        {t('history.pot', { amount: chips(frame.pot + frame.seats.reduce((n, s) => n + s.bet, 0)) })}
      </p>
      <ul className="replay__seats">
        {frame.seats.map((s) => (
          <li
            key={s.seat}
            className={`replay__seat${s.folded ? ' replay__seat--folded' : ''}${s.seat === detail.viewer_seat ? ' replay__seat--hero' : ''}`}
          >
            <span className="replay__name">
              {s.seat === detail.viewer_seat ? t('common.youSuffix', { name: s.name }) : s.name}
            </span>
            <span className="replay__cards">
              {s.cards.map((c, i) => (
                <Card key={i} code={c} size="sm" dim={s.folded} />
              ))}
            </span>
            <span className="replay__stack">{chips(s.stack)}</span>
            <span className="replay__action muted">
              {s.bet > 0 ? t('history.betIn', { amount: chips(s.bet) }) : ''} {s.lastAction ?? ''}
              {s.won > 0 ? t('history.won', { amount: chips(s.won) }) : ''}
            </span>
          </li>
        ))}
      </ul>
      <div className="replay__controls" role="group" aria-label={t('history.controls')}>
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          onClick={() => setStep(0)}
          disabled={step === 0}
          aria-label={t('history.first')}
        >
          «
        </button>
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          onClick={() => setStep((s) => Math.max(0, s - 1))}
          disabled={step === 0}
          aria-label={t('history.previous')}
        >
          ‹
        </button>
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          onClick={() => setPlaying((p) => !p)}
          disabled={step >= last && !playing}
        >
          {playing ? t('history.pause') : t('history.play')}
        </button>
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          onClick={() => setStep((s) => Math.min(last, s + 1))}
          disabled={step >= last}
          aria-label={t('history.next')}
        >
          ›
        </button>
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          onClick={() => setStep(last)}
          disabled={step >= last}
          aria-label={t('history.last')}
        >
          »
        </button>
        <label className="visually-hidden" htmlFor="replay-step">
          {t('history.step')}
        </label>
        <input
          id="replay-step"
          type="range"
          min={0}
          max={last}
          value={step}
          onChange={(e) => setStep(Number(e.target.value))}
          aria-valuetext={t('history.stepText', { n: step + 1, total: last + 1, caption: frame.caption })}
        />
        <span className="muted">
          {step + 1}/{last + 1}
        </span>
      </div>
      <p className="replay__links">
        {t('history.download')}{' '}
        <a href={`/api/hands/${detail.hand_id}/ohh`} download={`${detail.hand_id}.ohh.json`}>
          {t('history.ohh')}
        </a>{' '}
        ·{' '}
        <a href={`/api/hands/${detail.hand_id}/phh`} download={`${detail.hand_id}.phh`}>
          {t('history.phh')}
        </a>{' '}
        ·{' '}
        {detail.dealing === 'engine_blind' ? (
          // The players dealt it: no seed exists, so there is nothing to verify against one.
          <span className="muted" title={t('history.noRevealWhy')} data-testid="replay-no-reveal">
            {t('history.noReveal')}
          </span>
        ) : (
          <a href={`/api/hands/${detail.hand_id}/reveal`} target="_blank" rel="noreferrer">
            {t('history.reveal')}
          </a>
        )}
      </p>
    </div>
  );
}
