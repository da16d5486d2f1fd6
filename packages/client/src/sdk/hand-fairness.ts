import type { SeedReveal } from '@felt/protocol';
import { verifyReveal, type VerifyResult } from '../fairness/verify.js';
import type { HandMarkers } from './reducer.js';

export const OwnSeedStatus = {
  /** Sent; no answer yet when the reveal came. */
  SENT: 'sent',
  /** The table acked it: it must be among the seeds mixed in. */
  ACCEPTED: 'accepted',
  /** Refused (late, or the window had closed): the hand is verified without it. */
  REFUSED: 'refused',
} as const;
export type OwnSeedStatus = (typeof OwnSeedStatus)[keyof typeof OwnSeedStatus];

export interface OwnSeed {
  readonly seat: number;
  /** 64 hex chars. */
  readonly seed: string;
  readonly status: OwnSeedStatus;
}

export const FairnessProblem = {
  /** No seed_commit (live or in a snapshot) was seen for the hand, so nothing pins the server seed. */
  NO_COMMIT: 'no_commit',
  /** The reveal's server seed or derivation did not check out (see `result.failures`). */
  VERIFY_FAILED: 'verify_failed',
  /** A card this client saw (own hole card, board, up card) is not among the reveal's dealt cards. */
  SEEN_CARD_NOT_DEALT: 'seen_card_not_dealt',
  /** The reveal is for another hand than the one the commit was for. */
  WRONG_HAND: 'wrong_hand',
} as const;
export type FairnessProblem = (typeof FairnessProblem)[keyof typeof FairnessProblem];

/** The fairness verdict on one hand, as the SDK surfaces it per hand. */
export interface HandFairness {
  readonly handId: string;
  /** Every check passed, with a commit seen for the hand. */
  readonly ok: boolean;
  /** The commitment the reveal was checked against: the one received, not the reveal's own copy. */
  readonly commit: string | null;
  /**
   * The commit arrived before any card of the hand. False when the client joined or resynced
   * mid-hand: the check then rests on a commit learned later (still published before the deal).
   */
  readonly commitSeenBeforeDeal: boolean;
  readonly ownSeed: OwnSeed | null;
  /** No client seed counted: proves only that the deck did not change after the commit. */
  readonly serverSeedOnly: boolean;
  readonly problems: readonly FairnessProblem[];
  /** Cards this client saw that the reveal does not list as dealt. */
  readonly unexplainedCards: readonly string[];
  readonly result: VerifyResult;
}

/** Every card value this client saw for a hand: own hole cards, board, up cards and shown hands. */
export function cardsSeen(hand: HandMarkers): string[] {
  const seen = new Set<string>(hand.holeCards);
  for (const e of hand.events) {
    if (e.type === 'street_revealed') {
      for (const c of e.board) seen.add(c);
      for (const u of e.up_cards) for (const c of u.cards) seen.add(c);
    } else if (e.type === 'hole_cards_dealt') {
      for (const c of e.cards) seen.add(c);
    }
  }
  for (const s of hand.shown) for (const c of s.cards) seen.add(c);
  return [...seen];
}

/**
 * Checks a hand's seed_reveal with the verifier (docs/fairness.md, "Verifying a hand") against the
 * commit this client received and the seed it had accepted, plus the cards it saw.
 */
export function assessHand(
  hand: HandMarkers,
  reveal: SeedReveal['reveal'],
  ownSeed: OwnSeed | null,
  extraSeenCards: readonly string[] = [],
): HandFairness {
  const problems: FairnessProblem[] = [];
  const commit = hand.seedCommit?.commit ?? null;
  if (commit === null) problems.push(FairnessProblem.NO_COMMIT);
  if (reveal.hand_id !== hand.handId) problems.push(FairnessProblem.WRONG_HAND);
  const result = verifyReveal(reveal, {
    ...(commit !== null ? { expectedCommit: commit } : {}),
    ...(ownSeed?.status === OwnSeedStatus.ACCEPTED ? { ownSeed: { seat: ownSeed.seat, seed: ownSeed.seed } } : {}),
  });
  if (!result.ok) problems.push(FairnessProblem.VERIFY_FAILED);
  const dealt = new Set(reveal.dealt.map((d) => d.card));
  const unexplainedCards = [...new Set([...cardsSeen(hand), ...extraSeenCards])].filter((c) => !dealt.has(c));
  if (unexplainedCards.length > 0) problems.push(FairnessProblem.SEEN_CARD_NOT_DEALT);
  return {
    handId: hand.handId,
    ok: problems.length === 0,
    commit,
    commitSeenBeforeDeal: hand.seedCommit?.beforeDeal ?? false,
    ownSeed,
    serverSeedOnly: result.serverSeedOnly,
    problems,
    unexplainedCards,
    result,
  };
}
