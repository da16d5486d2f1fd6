// Engine-blind dealing as the table draws it (docs/fairness.md, "Engine-blind dealing"): the room's
// badge, the progress of a hand's keys, shuffles and card openings, the banner once the table went back
// to standard dealing, the sentences that name a failed step and whom it blames, and what the player's
// own device knows of the hand (its decrypted hole cards, its audit). Pure, over the snapshot's
// `dealing` and that knowledge, so the same inputs always draw the same table.
import type { BlindFailureView, BlindHandView, HandVoided, TableState } from '@felt/protocol';
import { t } from '../i18n/i18n.js';

/**
 * A step of an engine-blind hand that the player's own device refused when it checked what the table
 * relayed (@felt/blind's `AuditFailure`): the device then stops answering, so the hand will fail at
 * the step's deadline and be voided.
 */
export interface BlindAuditFailure {
  /** What did not check out: a key, a shuffle, a share, or the table's copy of the deck. */
  readonly step: 'key' | 'shuffle' | 'shares' | 'deck';
  /** Whose step it was; null when it was the table's (the deck). */
  readonly seat: number | null;
  /** The check that failed, for developers (not shown). */
  readonly detail: string;
}

/** What the player's device knows of one engine-blind hand (state/blind-seat.ts reads it from the SDK). */
export interface BlindHeroKnowledge {
  readonly handId: string;
  /** The hero's hole cards, decrypted on this device, in dealing order; empty until they open. */
  readonly holeCards: readonly string[];
  readonly audit: BlindAuditFailure | null;
}

export const BlindProgressStep = {
  /** Every participant sends its public key for the hand. */
  KEYS: 'keys',
  /** Each participant shuffles the encrypted deck in turn. */
  SHUFFLE: 'shuffle',
  /** The participants send their shares of the cards being dealt (hole cards, then board cards). */
  CARDS: 'cards',
} as const;
export type BlindProgressStep = (typeof BlindProgressStep)[keyof typeof BlindProgressStep];

/** Where the dealing of an engine-blind hand stands, while the table waits on it (phase `dealing`). */
export interface BlindProgressModel {
  readonly step: BlindProgressStep;
  /** Keys received or shuffles done; 0 while cards open (the table does not count those for everyone). */
  readonly done: number;
  /** Keys or shuffles the hand needs (one per participant); 0 while cards open. */
  readonly total: number;
  /** The participants the step waits on, other than the hero, by seat. */
  readonly waitingFor: readonly number[];
  /** The step waits on the hero's own device (its key, its shuffle, its shares). */
  readonly heroOwes: boolean;
  /** "Shuffling 2/3 — waiting for bob", in the page's language. */
  readonly text: string;
}

export interface BlindDowngradeModel {
  /** The engine-blind hand that failed. */
  readonly handId: string;
  readonly failure: BlindFailureView;
  /** The banner: which step failed and whose, and that the table now deals standard hands. */
  readonly text: string;
}

/** Engine-blind dealing at a table whose room was created with it; null for every other table. */
export interface DealingModel {
  /** The table deals engine-blind now (the badge); false once it went back to standard dealing. */
  readonly engineBlind: boolean;
  /** The hand on the table is dealt engine-blind. */
  readonly blindHand: boolean;
  /** The hand's dealing while the table waits on it; null when nothing is being dealt. */
  readonly progress: BlindProgressModel | null;
  /** The table went back to standard dealing for the rest of its session. */
  readonly downgraded: BlindDowngradeModel | null;
  /** The player's device refused a step of the hand on the table: the warning, else null. */
  readonly audit: string | null;
}

/** Seat names as the table model keeps them; a seat without one is "Seat N", the hero "you". */
function seatText(seat: number, names: ReadonlyMap<number, string>, heroSeat: number | null): string {
  if (seat === heroSeat) return t('blind.you');
  return names.get(seat) ?? t('common.seat', { seat });
}

function seatsText(seats: readonly number[], names: ReadonlyMap<number, string>, heroSeat: number | null): string {
  if (seats.length === 0) return t('blind.someone');
  return seats.map((s) => seatText(s, names, heroSeat)).join(t('common.listSeparator'));
}

/** "the shuffle from bob did not verify": the failed step, whom it blames, and how it failed. */
export function blindFailureText(
  failure: BlindFailureView,
  names: ReadonlyMap<number, string>,
  heroSeat: number | null = null,
): string {
  return t(`blind.failure.${failure.reason}`, {
    step: t(`blind.step.${failure.step}`),
    seats: seatsText(failure.seats, names, heroSeat),
  });
}

/**
 * What a player is told when the server voids a hand: an engine-blind failure names the step and the
 * seats it blames; any other void says only that every stack went back.
 */
export function voidText(
  event: HandVoided | null,
  names: ReadonlyMap<number, string>,
  heroSeat: number | null = null,
): string {
  if (event?.reason === 'engine_blind_failed' && event.blind_failure !== undefined) {
    return t('blind.voided', { failure: blindFailureText(event.blind_failure, names, heroSeat) });
  }
  return t('log.voided');
}

/** Seats whose share of a card still being opened has not come, other than the hero. */
function cardsWaitingFor(blind: BlindHandView, heroSeat: number | null): number[] {
  const waiting = new Set<number>();
  for (const p of blind.positions) {
    if (p.card !== undefined) continue;
    // Who sent what is known for a board card, and for the hero's own hole cards (the others' shares
    // of them come to the hero alone); another seat's hole card shows no shares to this viewer.
    if (p.to !== 'board' && p.to !== heroSeat) continue;
    for (const s of blind.seats) {
      if (s === heroSeat || s === p.to || p.shares[String(s)] !== undefined) continue;
      waiting.add(s);
    }
  }
  return [...waiting].sort((a, b) => a - b);
}

function progressModel(
  blind: BlindHandView,
  names: ReadonlyMap<number, string>,
  heroSeat: number | null,
): BlindProgressModel | null {
  const participants = blind.seats.length;
  let step: BlindProgressStep;
  let done: number;
  let total: number;
  let waitingFor: number[];
  let heroOwes: boolean;
  let base: string;
  switch (blind.phase) {
    case 'keys':
      step = BlindProgressStep.KEYS;
      total = participants;
      done = blind.seats.filter((s) => blind.keys[String(s)] !== undefined).length;
      waitingFor = blind.seats.filter((s) => s !== heroSeat && blind.keys[String(s)] === undefined);
      heroOwes = blind.owed?.key === true;
      base = t('blind.progress.keys', { done, total });
      break;
    case 'shuffle':
      step = BlindProgressStep.SHUFFLE;
      total = participants;
      done = Math.min(blind.shuffled, total);
      waitingFor = blind.shuffler !== null && blind.shuffler !== heroSeat ? [blind.shuffler] : [];
      heroOwes = heroSeat !== null && blind.shuffler === heroSeat;
      // The shuffle under way, counted from 1: "Shuffling 2/3" while the second participant shuffles.
      base = t('blind.progress.shuffle', { n: Math.min(done + 1, total), total });
      break;
    case 'play':
      step = BlindProgressStep.CARDS;
      done = 0;
      total = 0;
      waitingFor = cardsWaitingFor(blind, heroSeat);
      heroOwes = (blind.owed?.positions.length ?? 0) > 0;
      base = t('blind.progress.cards');
      break;
    case 'failed':
      return null;
  }
  const text = heroOwes
    ? t('blind.progress.yourDevice', { step: base })
    : waitingFor.length > 0
      ? t('blind.progress.waitingFor', { step: base, names: seatsText(waitingFor, names, heroSeat) })
      : base;
  return { step, done, total, waitingFor, heroOwes, text };
}

function auditText(audit: BlindAuditFailure, names: ReadonlyMap<number, string>, heroSeat: number | null): string {
  const step = t(`blind.auditStep.${audit.step}`);
  return audit.seat === null
    ? t('blind.auditTable', { step })
    : t('blind.audit', { step, seat: seatText(audit.seat, names, heroSeat) });
}

/**
 * The dealing model of a snapshot, or null when its room does not deal engine-blind (no `dealing`).
 * `names`: the seats' names; `hero`: what the player's device knows of the hand on the table.
 */
export function dealingModel(
  state: TableState,
  names: ReadonlyMap<number, string>,
  hero: BlindHeroKnowledge | null,
): DealingModel | null {
  const dealing = state.dealing;
  if (dealing === undefined) return null;
  const heroSeat = state.hero?.seat ?? null;
  const blind = dealing.blind;
  const blindHand = blind !== null && state.hand_id !== undefined && blind.hand_id === state.hand_id;
  const knowledge = blindHand && hero !== null && hero.handId === state.hand_id ? hero : null;
  return {
    engineBlind: dealing.mode === 'engine_blind',
    blindHand,
    progress: blindHand && state.phase === 'dealing' ? progressModel(blind, names, heroSeat) : null,
    downgraded:
      dealing.downgraded === null
        ? null
        : {
            handId: dealing.downgraded.hand_id,
            failure: dealing.downgraded.failure,
            text: t('blind.downgraded', { failure: blindFailureText(dealing.downgraded.failure, names, heroSeat) }),
          },
    audit: knowledge?.audit != null ? auditText(knowledge.audit, names, heroSeat) : null,
  };
}
