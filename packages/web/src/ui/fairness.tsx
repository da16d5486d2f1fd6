import type { HandFairness } from '@felt/client';
import { useState } from 'react';
import { cardsText, shortHex } from '../lib/format.js';
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

const BADGE_TEXT: Readonly<Record<FairnessStatus, string>> = {
  none: 'No hand checked yet',
  pending: 'Checking deal…',
  verified: 'Fair deal verified',
  failed: 'Deal check failed',
};

export function FairnessBadge({
  hand,
  onOpen,
}: {
  readonly hand: FinishedHand | undefined;
  readonly onOpen: () => void;
}) {
  const status = fairnessStatus(hand);
  return (
    <button
      type="button"
      className={`fairness-badge fairness-badge--${status}`}
      onClick={onOpen}
      data-testid="fairness-badge"
      data-status={status}
      data-hand-id={hand?.handId ?? ''}
      aria-label={`Fairness of the last hand: ${BADGE_TEXT[status]}. Open the fairness panel.`}
    >
      <span className="fairness-badge__dot" aria-hidden="true" />
      {BADGE_TEXT[status]}
    </button>
  );
}

const CHECK_NAMES: Readonly<Record<string, string>> = {
  structure: 'The record is well formed',
  version: 'Known derivation (felt-deck-v1)',
  commit: 'The server seed matches the commitment sent before the deal',
  deckSeed: 'The deck seed recomputes from the seeds and hand id',
  indices: 'Dealt cards use deck positions 0, 1, 2… with none skipped',
  cards: 'Each dealt card is at its position in the rebuilt deck',
  reshuffles: 'Draw-game reshuffles rebuild correctly',
  ownSeed: 'Your own seed was mixed in',
};

const STATUS_TEXT: Readonly<Record<string, string>> = {
  passed: 'passed',
  failed: 'FAILED',
  skipped: 'not checked',
  'n/a': 'not needed',
};

export function FairnessPanel({
  open,
  hands,
  onClose,
}: {
  readonly open: boolean;
  readonly hands: readonly FinishedHand[];
  readonly onClose: () => void;
}) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const hand = hands.find((h) => h.handId === selectedId) ?? hands[0];
  return (
    <Dialog open={open} title="Fairness" onClose={onClose} variant="drawer">
      {hand === undefined ? (
        <p>No hand has finished at this table since you opened it. Each finished hand is checked here.</p>
      ) : (
        <div className="fairness">
          {hands.length > 1 && (
            <div className="field">
              <label htmlFor="fairness-hand">Hand</label>
              <select id="fairness-hand" value={hand.handId} onChange={(e) => setSelectedId(e.target.value)}>
                {hands.map((h, i) => (
                  <option key={h.handId} value={h.handId}>
                    {i === 0 ? 'Last hand' : `${i + 1} hands ago`}: {h.title} ({fairnessStatus(h)})
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
  return (
    <div className="hex-row">
      <dt>{label}</dt>
      <dd>
        {value === null ? (
          <span className="muted">not received</span>
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
  const status = fairnessStatus(hand);
  return (
    <>
      <p className={`fairness__verdict fairness__verdict--${status}`} data-testid="fairness-verdict">
        {status === 'verified'
          ? 'This deal checks out: the deck was fixed before the first card and the cards you saw came from it.'
          : status === 'failed'
            ? 'This deal did NOT check out. See the failed checks below.'
            : 'Waiting for the server to reveal this hand’s seeds.'}
      </p>
      <p className="muted mono">Hand {hand.handId}</p>
      {verdict !== null && (
        <>
          <h3>Checks</h3>
          <ul className="checks">
            {(Object.entries(verdict.result.checks) as [string, string][]).map(([k, v]) => (
              <li key={k} className={`check-item check-item--${v === 'n/a' ? 'na' : v}`}>
                <span>{CHECK_NAMES[k] ?? k}</span>
                <span className="check-item__status">{STATUS_TEXT[v] ?? v}</span>
              </li>
            ))}
            <li className={`check-item check-item--${verdict.unexplainedCards.length === 0 ? 'passed' : 'failed'}`}>
              <span>Every card you saw is among the dealt cards</span>
              <span className="check-item__status">{verdict.unexplainedCards.length === 0 ? 'passed' : 'FAILED'}</span>
            </li>
          </ul>
          {verdict.result.failures.length > 0 && (
            <ul className="failures">
              {verdict.result.failures.map((f, i) => (
                <li key={i}>{f.message}</li>
              ))}
            </ul>
          )}
          {verdict.unexplainedCards.length > 0 && (
            <p className="form__error">
              Cards you saw that the reveal does not list: {cardsText(verdict.unexplainedCards)}
            </p>
          )}
          <h3>What this proves</h3>
          <ul className="notes">
            {verdict.serverSeedOnly ? (
              <li>
                No player seed was mixed into this hand, so it proves only that the deck was not changed after the
                commitment, not that the server did not choose its seed.
              </li>
            ) : (
              <li>
                {verdict.result.clientSeedCount} player seed{verdict.result.clientSeedCount === 1 ? ' was' : 's were'}{' '}
                mixed in after the commitment, so the server could not pick the deck in advance.
              </li>
            )}
            {!verdict.commitSeenBeforeDeal && (
              <li>You joined after this hand was dealt: the commitment was learned from a later snapshot.</li>
            )}
            <li>
              Revealing the server seed reveals the whole deck, so folded hands can be rebuilt afterwards. That is the
              price of checkable dealing.
            </li>
          </ul>
        </>
      )}
      <h3>Seeds</h3>
      <dl className="hexes">
        <Hex label="Commitment (before the deal)" value={hand.seedCommit} />
        <Hex label="Server seed" value={reveal?.server_seed ?? null} />
        <Hex label="Deck seed" value={reveal?.deck_seed ?? null} />
        <div className="hex-row">
          <dt>Player seeds</dt>
          <dd>
            {reveal === null ? (
              <span className="muted">not received</span>
            ) : reveal.client_seeds.length === 0 ? (
              <span className="muted">none</span>
            ) : (
              <ul className="seed-list">
                {reveal.client_seeds.map((s) => (
                  <li key={s.seat}>
                    Seat {s.seat}
                    {verdict?.ownSeed?.seat === s.seat ? ' (yours)' : ''}:{' '}
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
            <dt>Derivation</dt>
            <dd>
              {reveal.version}, {reveal.deck === 'short36' ? 'short deck (36 cards)' : 'standard deck (52 cards)'}
            </dd>
          </div>
        )}
      </dl>
      {reveal !== null && (
        <>
          <h3>Dealt cards by deck position</h3>
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
