import { describe, expect, it } from 'vitest';
import { PlayStats } from './play-stats.js';

const shape = { tables: 2, players: 6 };

describe('PlayStats', () => {
  it('prints the LOAD line with counts, rate and nearest-rank percentiles of what was measured', () => {
    const s = new PlayStats();
    s.startWindow(1000);
    s.recordHand('t1', 'h1');
    s.recordHand('t1', 'h1'); // seen by a second player: one hand
    s.recordHand('t1', 'h2');
    s.recordHand('t2', 'h1');
    for (const ms of [9, 1, 5, 3, 7, 2, 8, 4, 6, 10]) s.recordAck(ms);
    for (const ms of [12, 11]) s.recordBroadcast(ms);
    s.endWindow(5000);
    // Hands after the window closed don't count; errors always do.
    s.recordHand('t2', 'h2');
    s.recordError('ack_timeout');
    s.recordError('ws_closed_1006');
    s.recordError('ack_timeout');
    expect(s.summaryLine(shape, 9000)).toBe(
      'LOAD tables=2 players=6 hands=3 actions=10 hands_per_s=0.75 ack_p50_ms=5.0 ack_p99_ms=10.0 ' +
        'broadcast_p50_ms=11.0 broadcast_p99_ms=12.0 errors=3',
    );
    expect([...s.errorBreakdown()]).toEqual([
      ['ack_timeout', 2],
      ['ws_closed_1006', 1],
    ]);
  });

  it('prints na, never zero, for what it could not measure', () => {
    expect(new PlayStats().summaryLine(shape, 0)).toBe(
      'LOAD tables=2 players=6 hands=0 actions=0 hands_per_s=na ack_p50_ms=na ack_p99_ms=na ' +
        'broadcast_p50_ms=na broadcast_p99_ms=na errors=0',
    );
  });

  it('reports progress with joins, rebuys, losses, busy retries and errors by kind', () => {
    const s = new PlayStats();
    s.joined = 5;
    s.rebuys = 1;
    s.busyRetries = 2;
    s.losses = 3;
    s.recordAck(3);
    s.recordError('join_timeout');
    s.recordError('clock_acted');
    expect(s.progressLine(12.4, shape)).toBe(
      'load: t=12s joined=5/6 hands=0 actions=1 ack_p50_ms=3.0 ack_p99_ms=3.0 rebuys=1 losses=3 busy_retries=2 errors=2 ' +
        '(clock_acted=1 join_timeout=1)',
    );
  });
});
