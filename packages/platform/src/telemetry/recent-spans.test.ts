import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { RecentSpansExporter } from './recent-spans.js';

const span = (i: number) => ({ name: `s${i}` }) as unknown as ReadableSpan;

describe('RecentSpansExporter', () => {
  it('keeps the newest spans only, oldest first, however many were exported', () => {
    const e = new RecentSpansExporter(100);
    for (let i = 0; i < 1_000; i++) e.export([span(i)], () => undefined);
    const kept = e.getFinishedSpans().map((s) => s.name);
    expect(kept).toHaveLength(100);
    expect(kept[0]).toBe('s900');
    expect(kept[99]).toBe('s999');
  });

  it('answers every export with success and forgets everything on shutdown', async () => {
    const e = new RecentSpansExporter(10);
    const codes: number[] = [];
    e.export([span(1), span(2)], (r) => codes.push(r.code));
    expect(codes).toEqual([0]);
    expect(e.getFinishedSpans()).toHaveLength(2);
    await e.shutdown();
    expect(e.getFinishedSpans()).toEqual([]);
  });
});
