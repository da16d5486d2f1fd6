// The player's session at one table, from the hand results this page received: hands played, the
// net result and the biggest pot won. It lasts as long as the browser tab (sessionStorage), so a
// reload or a trip to the lobby and back keeps it, and a new tab starts afresh.
import type { HandResult } from '@felt/protocol';

export interface SessionSummary {
  /** Hands the player was dealt into. */
  readonly hands: number;
  /** Chips won (positive) or lost over those hands. */
  readonly net: number;
  /** The most the player took from the pots of one hand (rake off); 0 until they win one. */
  readonly biggestPot: number;
  /**
   * The latest hands counted, oldest first: a result the page sees again (a reload, a resync, the
   * same hand's later snapshots) is not counted twice. Bounded by {@link REMEMBERED_HANDS}.
   */
  readonly counted: readonly string[];
}

export const EMPTY_SESSION_SUMMARY: SessionSummary = { hands: 0, net: 0, biggestPot: 0, counted: [] };

/** More than one page ever sees again: a resync brings back the current hand, not older ones. */
export const REMEMBERED_HANDS = 50;

/** Adds a settled hand, seen by the player at `heroSeat` (null for a spectator: nothing is added). */
export function recordHandResult(
  summary: SessionSummary,
  handId: string,
  result: Pick<HandResult, 'pots' | 'players'>,
  heroSeat: number | null,
): SessionSummary {
  if (heroSeat === null || summary.counted.includes(handId)) return summary;
  const me = result.players.find((p) => p.seat === heroSeat);
  if (me === undefined) return summary;
  let taken = 0;
  for (const pot of result.pots) for (const w of pot.winners) if (w.seat === heroSeat) taken += w.amount;
  return {
    hands: summary.hands + 1,
    net: summary.net + me.net,
    biggestPot: Math.max(summary.biggestPot, taken),
    counted: [...summary.counted, handId].slice(-REMEMBERED_HANDS),
  };
}

/** Where the tab keeps one table's summary. */
export function sessionSummaryKey(tableId: string): string {
  return `felt.session.${tableId}`;
}

export function serializeSessionSummary(summary: SessionSummary): string {
  return JSON.stringify(summary);
}

const whole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** A stored summary, or the empty one for anything else (nothing stored, a damaged or older value). */
export function parseSessionSummary(raw: string | null): SessionSummary {
  if (raw === null) return EMPTY_SESSION_SUMMARY;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return EMPTY_SESSION_SUMMARY;
  }
  if (typeof v !== 'object' || v === null) return EMPTY_SESSION_SUMMARY;
  const { hands, net, biggestPot, counted } = v as Record<string, unknown>;
  if (!whole(hands) || hands < 0 || !whole(net) || !whole(biggestPot) || biggestPot < 0) return EMPTY_SESSION_SUMMARY;
  if (!Array.isArray(counted) || !counted.every((id): id is string => typeof id === 'string')) {
    return EMPTY_SESSION_SUMMARY;
  }
  return { hands, net, biggestPot, counted: counted.slice(-REMEMBERED_HANDS) };
}
