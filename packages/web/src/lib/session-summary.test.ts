import type { HandResult } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_SESSION_SUMMARY,
  parseSessionSummary,
  recordHandResult,
  REMEMBERED_HANDS,
  serializeSessionSummary,
  sessionSummaryKey,
  type SessionSummary,
} from './session-summary.js';

type Result = Pick<HandResult, 'pots' | 'players'>;

const win = (seat: number, amount: number, side: 'high' | 'low' | 'uncontested' = 'high') => ({ seat, amount, side });

/** Seats 1 and 2 heads-up; seat 3 sat the hand out. */
function result(pots: Result['pots'], nets: Record<number, number>): Result {
  return {
    pots,
    players: Object.entries(nets).map(([seat, net]) => ({ seat: Number(seat), net, stack: 1_000 + net })),
  };
}

const pot = (amount: number, winners: ReturnType<typeof win>[], rake = 0): Result['pots'][number] => ({
  index: 0,
  amount,
  rake,
  eligible: [1, 2],
  winners,
});

describe('recordHandResult', () => {
  it('counts the hands the player was dealt into, their net, and the most they took from one hand', () => {
    let s = EMPTY_SESSION_SUMMARY;
    s = recordHandResult(s, 'h1', result([pot(200, [win(2, 200)])], { 1: -100, 2: 100 }), 2);
    s = recordHandResult(s, 'h2', result([pot(60, [win(1, 60)])], { 1: 30, 2: -30 }), 2);
    // A main pot and a side pot: together the hand's take, rake off.
    s = recordHandResult(
      s,
      'h3',
      result([pot(300, [win(2, 285)], 15), { ...pot(120, [win(2, 120)]), index: 1 }], { 1: -210, 2: 195 }),
      2,
    );
    expect(s).toEqual({ hands: 3, net: 265, biggestPot: 405, counted: ['h1', 'h2', 'h3'] });
  });

  it('counts the player’s share of a split pot, not the whole pot', () => {
    const s = recordHandResult(
      EMPTY_SESSION_SUMMARY,
      'h1',
      result([pot(400, [win(1, 200, 'high'), win(2, 200, 'low')])], { 1: 0, 2: 0 }),
      2,
    );
    expect(s).toMatchObject({ hands: 1, net: 0, biggestPot: 200 });
  });

  it('counts a hand seen again once', () => {
    const r = result([pot(200, [win(2, 200)])], { 1: -100, 2: 100 });
    const once = recordHandResult(EMPTY_SESSION_SUMMARY, 'h1', r, 2);
    expect(recordHandResult(once, 'h1', r, 2)).toBe(once);
  });

  it('adds nothing for a spectator or a hand the player was not dealt into', () => {
    const r = result([pot(200, [win(2, 200)])], { 1: -100, 2: 100 });
    expect(recordHandResult(EMPTY_SESSION_SUMMARY, 'h1', r, null)).toBe(EMPTY_SESSION_SUMMARY);
    expect(recordHandResult(EMPTY_SESSION_SUMMARY, 'h1', r, 3)).toBe(EMPTY_SESSION_SUMMARY);
  });

  it('keeps a loss-only session’s biggest pot at 0', () => {
    const s = recordHandResult(EMPTY_SESSION_SUMMARY, 'h1', result([pot(40, [win(1, 40)])], { 1: 20, 2: -20 }), 2);
    expect(s).toMatchObject({ hands: 1, net: -20, biggestPot: 0 });
  });

  it('remembers a bounded number of hands', () => {
    let s = EMPTY_SESSION_SUMMARY;
    for (let i = 0; i < REMEMBERED_HANDS + 10; i++) {
      s = recordHandResult(s, `h${i}`, result([pot(2, [win(2, 2)])], { 1: -1, 2: 1 }), 2);
    }
    expect(s.hands).toBe(REMEMBERED_HANDS + 10);
    expect(s.net).toBe(REMEMBERED_HANDS + 10);
    expect(s.counted).toHaveLength(REMEMBERED_HANDS);
    expect(s.counted.at(-1)).toBe(`h${REMEMBERED_HANDS + 9}`);
  });
});

describe('the stored summary', () => {
  it('round-trips, one key per table', () => {
    const s: SessionSummary = { hands: 4, net: -35, biggestPot: 120, counted: ['a', 'b'] };
    expect(parseSessionSummary(serializeSessionSummary(s))).toEqual(s);
    expect(sessionSummaryKey('t1')).not.toBe(sessionSummaryKey('t2'));
  });

  it('reads anything damaged as an empty session', () => {
    for (const raw of [
      null,
      '',
      'not json',
      'null',
      '[]',
      '{"hands":1}',
      '{"hands":-1,"net":0,"biggestPot":0,"counted":[]}',
      '{"hands":1.5,"net":0,"biggestPot":0,"counted":[]}',
      '{"hands":1,"net":"5","biggestPot":0,"counted":[]}',
      '{"hands":1,"net":5,"biggestPot":-2,"counted":[]}',
      '{"hands":1,"net":5,"biggestPot":2,"counted":[3]}',
    ]) {
      expect(parseSessionSummary(raw), String(raw)).toEqual(EMPTY_SESSION_SUMMARY);
    }
  });
});
