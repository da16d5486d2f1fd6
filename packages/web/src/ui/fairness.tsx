import type { HandFairness, VerifyFailure } from '@felt/client';
import { useState } from 'react';
import { t } from '../i18n/i18n.js';
import { useT } from '../i18n/use-t.js';
import { cardsText, gameTitle, shortHex } from '../lib/format.js';
import type { FinishedHand } from '../state/table-controller.js';
import { Card } from './card.js';
import { Dialog } from './dialog.js';

export const FairnessStatus = { NONE: 'none', PENDING: 'pending', VERIFIED: 'verified', FAILED: 'failed' } as const;
export type FairnessStatus = (typeof FairnessStatus)[keyof typeof FairnessStatus];

/** Green only when the SDK's verifier passed on this hand's seed_reveal. */
export function fairnessStatus(hand: FinishedHand | undefined): FairnessStatus {
  if (hand === undefined) return FairnessStatus.NONE;
  if (hand.fairness === null) return FairnessStatus.PENDING;
  return hand.fairness.ok ? FairnessStatus.VERIFIED : FairnessStatus.FAILED;
}

function badgeText(status: FairnessStatus): string {
  return t(`fairness.badge.${status}`);
}

export function FairnessBadge({
  hand,
  onOpen,
}: {
  readonly hand: FinishedHand | undefined;
  readonly onOpen: () => void;
}) {
  const t = useT();
  const status = fairnessStatus(hand);
  return (
    <button
      type="button"
      className={`fairness-badge fairness-badge--${status}`}
      onClick={onOpen}
      data-testid="fairness-badge"
      data-status={status}
      data-hand-id={hand?.handId ?? ''}
      aria-label={t('fairness.badgeLabel', { status: badgeText(status) })}
    >
      <span className="fairness-badge__dot" aria-hidden="true" />
      {badgeText(status)}
    </button>
  );
}

const CHECKS = ['structure', 'version', 'commit', 'deckSeed', 'indices', 'cards', 'reshuffles', 'ownSeed'] as const;
type CheckName = (typeof CHECKS)[number];

function checkName(key: string): string {
  return (CHECKS as readonly string[]).includes(key) ? t(`fairness.check.${key as CheckName}`) : key;
}

function checkStatusText(status: string): string {
  switch (status) {
    case 'passed':
    case 'failed':
    case 'skipped':
      return t(`fairness.status.${status}`);
    case 'n/a':
      return t('fairness.status.na');
    default:
      return status;
  }
}

/** A failed check in the page's language, from its code and fields (the SDK's message is English). */
export function failureText(f: VerifyFailure): string {
  switch (f.code) {
    case 'malformed_field':
      return t('fairness.failure.malformed_field', { field: f.field });
    case 'unsupported_version':
      return t('fairness.failure.unsupported_version', { version: f.version });
    case 'commit_mismatch':
      return t(
        f.against === 'expected' ? 'fairness.failure.commit_mismatch_expected' : 'fairness.failure.commit_mismatch',
      );
    case 'deck_seed_mismatch':
      return t('fairness.failure.deck_seed_mismatch');
    case 'indices_not_contiguous':
      return t('fairness.failure.indices_not_contiguous');
    case 'card_mismatch':
      return t('fairness.failure.card_mismatch', { index: f.index });
    case 'reshuffle_invalid':
      return t('fairness.failure.reshuffle_invalid', { n: f.reshuffle });
    case 'own_seed_missing':
      return t('fairness.failure.own_seed_missing', { seat: f.seat });
  }
}

export function FairnessPanel({
  open,
  hands,
  onClose,
}: {
  readonly open: boolean;
  readonly hands: readonly FinishedHand[];
  readonly onClose: () => void;
}) {
  const t = useT();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const hand = hands.find((h) => h.handId === selectedId) ?? hands[0];
  return (
    <Dialog open={open} title={t('fairness.title')} onClose={onClose} variant="drawer">
      {hand === undefined ? (
        <p>{t('fairness.noHand')}</p>
      ) : (
        <div className="fairness">
          {hands.length > 1 && (
            <div className="field">
              <label htmlFor="fairness-hand">{t('fairness.hand')}</label>
              <select id="fairness-hand" value={hand.handId} onChange={(e) => setSelectedId(e.target.value)}>
                {hands.map((h, i) => (
                  <option key={h.handId} value={h.handId}>
                    {t('fairness.option', {
                      when: i === 0 ? t('fairness.lastHand') : t('fairness.handsAgo', { count: i + 1 }),
                      title: h.variant !== null ? gameTitle(h.variant.game, h.variant.limit) : '',
                      status: badgeText(fairnessStatus(h)),
                    })}
                  </option>
                ))}
              </select>
            </div>
          )}
          <FairnessDetail hand={hand} />
        </div>
      )}
    </Dialog>
  );
}

function Hex({ label, value }: { readonly label: string; readonly value: string | null }) {
  const t = useT();
  return (
    <div className="hex-row">
      <dt>{label}</dt>
      <dd>
        {value === null ? (
          <span className="muted">{t('fairness.notReceived')}</span>
        ) : (
          <code title={value} className="hex">
            {value}
          </code>
        )}
      </dd>
    </div>
  );
}

function FairnessDetail({ hand }: { readonly hand: FinishedHand }) {
  const verdict: HandFairness | null = hand.fairness;
  const reveal = hand.reveal;
  const t = useT();
  const status = fairnessStatus(hand);
  return (
    <>
      <p className={`fairness__verdict fairness__verdict--${status}`} data-testid="fairness-verdict">
        {status === 'verified'
          ? t('fairness.verified')
          : status === 'failed'
            ? t('fairness.failed')
            : t('fairness.waiting')}
      </p>
      <p className="muted mono">{t('fairness.handId', { id: hand.handId })}</p>
      {verdict !== null && (
        <>
          <h3>{t('fairness.checks')}</h3>
          <ul className="checks">
            {(Object.entries(verdict.result.checks) as [string, string][]).map(([k, v]) => (
              <li key={k} className={`check-item check-item--${v === 'n/a' ? 'na' : v}`}>
                <span>{checkName(k)}</span>
                <span className="check-item__status">{checkStatusText(v)}</span>
              </li>
            ))}
            <li className={`check-item check-item--${verdict.unexplainedCards.length === 0 ? 'passed' : 'failed'}`}>
              <span>{t('fairness.check.seenCards')}</span>
              <span className="check-item__status">
                {checkStatusText(verdict.unexplainedCards.length === 0 ? 'passed' : 'failed')}
              </span>
            </li>
          </ul>
          {verdict.result.failures.length > 0 && (
            <ul className="failures">
              {verdict.result.failures.map((f, i) => (
                <li key={i}>{failureText(f)}</li>
              ))}
            </ul>
          )}
          {verdict.unexplainedCards.length > 0 && (
            <p className="form__error">{t('fairness.unexplained', { cards: cardsText(verdict.unexplainedCards) })}</p>
          )}
          <h3>{t('fairness.proves')}</h3>
          <ul className="notes">
            {verdict.serverSeedOnly ? (
              <li>{t('fairness.serverSeedOnly')}</li>
            ) : (
              <li>{t('fairness.playerSeeds', { count: verdict.result.clientSeedCount })}</li>
            )}
            {!verdict.commitSeenBeforeDeal && <li>{t('fairness.lateJoin')}</li>}
            <li>{t('fairness.revealLimit')}</li>
          </ul>
        </>
      )}
      <h3>{t('fairness.seeds')}</h3>
      <dl className="hexes">
        <Hex label={t('fairness.commitment')} value={hand.seedCommit} />
        <Hex label={t('fairness.serverSeed')} value={reveal?.server_seed ?? null} />
        <Hex label={t('fairness.deckSeed')} value={reveal?.deck_seed ?? null} />
        <div className="hex-row">
          <dt>{t('fairness.playerSeedsTitle')}</dt>
          <dd>
            {reveal === null ? (
              <span className="muted">{t('fairness.notReceived')}</span>
            ) : reveal.client_seeds.length === 0 ? (
              <span className="muted">{t('fairness.none')}</span>
            ) : (
              <ul className="seed-list">
                {reveal.client_seeds.map((s) => (
                  <li key={s.seat}>
                    {t('fairness.seedSeat', { seat: s.seat })}
                    {verdict?.ownSeed?.seat === s.seat ? t('fairness.yours') : ''}:{' '}
                    <code className="hex" title={s.seed}>
                      {shortHex(s.seed)}
                    </code>
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        {reveal !== null && (
          <div className="hex-row">
            <dt>{t('fairness.derivation')}</dt>
            <dd>
              {reveal.version}
              {t('common.listSeparator')}
              {reveal.deck === 'short36' ? t('fairness.deckShort') : t('fairness.deckStandard')}
            </dd>
          </div>
        )}
      </dl>
      {reveal !== null && (
        <>
          <h3>{t('fairness.dealt')}</h3>
          <ol className="dealt" data-testid="dealt-cards">
            {reveal.dealt.map((d) => (
              <li key={d.index}>
                <span className="dealt__index">{d.index}</span>
                <Card code={d.card} size="sm" />
              </li>
            ))}
          </ol>
        </>
      )}
    </>
  );
}
