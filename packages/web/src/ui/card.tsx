import { useT } from '../i18n/use-t.js';
import { cardFace } from '../lib/format.js';

export interface CardProps {
  /** The card, or null for a face-down card this viewer may not see. */
  readonly code: string | null;
  /** Dealt face up (Stud): drawn with a marker so up and down cards read apart. */
  readonly up?: boolean;
  /** A down card only its owner sees (the hero's own Stud down cards). */
  readonly privateDown?: boolean;
  readonly size?: 'sm' | 'md' | 'lg';
  readonly dim?: boolean;
}

/** One playing card: a face with rank and suit (four-colour deck), or a back. */
export function Card({ code, up = false, privateDown = false, size = 'md', dim = false }: CardProps) {
  const t = useT();
  const face = code === null ? null : cardFace(code);
  const cls = [
    'card',
    `card--${size}`,
    dim ? 'card--dim' : '',
    up ? 'card--up' : '',
    privateDown ? 'card--private' : '',
  ]
    .filter(Boolean)
    .join(' ');
  if (face === null) {
    return (
      <span
        className={`${cls} card--back`}
        role="img"
        aria-label={t('card.faceDown')}
        data-card="hidden"
        data-up={up}
      />
    );
  }
  const label = up
    ? t('card.faceUp', { card: face.name })
    : privateDown
      ? t('card.privateDown', { card: face.name })
      : face.name;
  return (
    <span className={`${cls} suit-${face.suit}`} role="img" aria-label={label} data-card={code} data-up={up}>
      <span className="card__rank" aria-hidden="true">
        {face.rank}
      </span>
      <span className="card__suit" aria-hidden="true">
        {face.symbol}
      </span>
    </span>
  );
}

/** An empty place on the board for a card still to come. */
export function CardSlot({ size = 'md' }: { readonly size?: 'sm' | 'md' | 'lg' }) {
  return <span className={`card card--${size} card--slot`} aria-hidden="true" />;
}
