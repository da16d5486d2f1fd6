import { describe, expect, it } from 'vitest';
import { LoadStats, percentile } from './stats.js';

describe('percentile (nearest rank)', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it('picks the smallest value with at least p% of the sample at or below it', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 99.5)).toBe(100);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
    expect(percentile(hundred, 1)).toBe(1);
    expect(percentile(hundred, 1.01)).toBe(2);
  });

  it('handles tiny samples without interpolating', () => {
    expect(percentile([7], 50)).toBe(7);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([1, 2], 50)).toBe(1);
    expect(percentile([1, 2], 51)).toBe(2);
    expect(percentile([1, 2, 3, 4], 75)).toBe(3);
    expect(percentile([10, 20, 30], 99)).toBe(30);
  });

  it('has no value for an empty sample and refuses p outside 0..100', () => {
    expect(percentile([], 50)).toBeUndefined();
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], -1)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });
});

describe('LoadStats', () => {
  it('prints the summary line with sorted percentiles and totals', () => {
    const s = new LoadStats();
    // Recorded out of order: the summary must sort before ranking.
    for (const ms of [9, 1, 5, 3, 7, 2, 8, 4, 6, 10]) s.recordRtt(ms);
    s.connected = 3;
    s.msgsIn = 40;
    s.msgsOut = 25;
    s.recordError('ping_timeout');
    s.recordError('login_http_500');
    s.recordError('ping_timeout');
    expect(s.summaryLine(4)).toBe(
      'LOAD users=4 connected=3 msgs_in=40 msgs_out=25 errors=3 p50_rtt_ms=5.0 p99_rtt_ms=10.0',
    );
    expect([...s.errorBreakdown()]).toEqual([
      ['login_http_500', 1],
      ['ping_timeout', 2],
    ]);
  });

  it('prints na, not zero, when no round trip completed', () => {
    expect(new LoadStats().summaryLine(1)).toBe(
      'LOAD users=1 connected=0 msgs_in=0 msgs_out=0 errors=0 p50_rtt_ms=na p99_rtt_ms=na',
    );
  });

  it('reports progress with the joined count, which the summary leaves out', () => {
    const s = new LoadStats();
    s.connected = 5;
    s.joined = 4;
    s.recordRtt(1);
    s.recordError('join_timeout');
    expect(s.progressLine(12.4)).toBe('load: t=12s connected=5 joined=4 pings=1 errors=1');
    expect(s.summaryLine(5)).not.toContain('joined');
  });
});
