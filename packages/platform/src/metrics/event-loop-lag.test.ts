import { Registry } from 'prom-client';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { EVENT_LOOP_LAG_METRICS, EVENT_LOOP_RESOLUTION_MS, registerEventLoopLag } from './event-loop-lag.js';
import { createMetricsRegistry } from './registry.js';

/** The gauge's value after a scrape of the registry (which sets every lag gauge; each reads 0 before). */
async function scrapedValue(registry: Registry, name: string): Promise<number> {
  return vi.waitFor(
    async () => {
      await registry.metrics();
      const value = (await registry.getSingleMetric(name)!.get()).values[0]?.value;
      if (value === undefined) throw new Error(`${name} has no value yet`);
      return value;
    },
    { timeout: 10_000, interval: 3 * EVENT_LOOP_RESOLUTION_MS },
  );
}

/** Keeps the event loop busy for `ms`: the stall the gauges are for (no timer runs meanwhile). */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

describe('event-loop lag gauges', () => {
  it('a service registry has each standard lag gauge once, with its service label, prom-client’s left out', async () => {
    const registry = createMetricsRegistry('lag-test');
    const text = await registry.metrics();
    for (const name of EVENT_LOOP_LAG_METRICS) {
      expect(text.match(new RegExp(`^# TYPE ${name} gauge$`, 'gm')), name).toHaveLength(1);
    }
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds\{service="lag-test"\} /m);
    // The rest of the defaults are still there.
    expect(text).toMatch(/^process_cpu_seconds_total\{service="lag-test"\} /m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes\{service="lag-test"\} /m);
  });

  it('reads an idle loop’s delay without the sampling interval (Node’s monitor reads both together)', async () => {
    const registry = new Registry();
    const monitor = registerEventLoopLag(registry);
    onTestFinished(monitor.stop);
    // A gauge reads 0 before its first value: read it once samples were taken.
    await vi.waitFor(
      () => {
        if (monitor.samples() < 3) throw new Error(`${monitor.samples()} samples`);
      },
      { timeout: 10_000, interval: EVENT_LOOP_RESOLUTION_MS },
    );
    // monitorEventLoopDelay's record of an idle loop is the interval itself, 100 ms; its delay is about 0.
    const p50 = await scrapedValue(registry, 'nodejs_eventloop_lag_p50_seconds');
    expect(p50).toBeGreaterThanOrEqual(0);
    expect(p50).toBeLessThan(EVENT_LOOP_RESOLUTION_MS / 2 / 1000);
  });

  it('reads a stalled loop’s delay', async () => {
    const registry = new Registry();
    onTestFinished(registerEventLoopLag(registry).stop);
    // Right after a scrape's reset, as an alert would need it (Node's monitor loses this stall).
    await scrapedValue(registry, 'nodejs_eventloop_lag_p50_seconds');
    block(400);
    const max = await vi.waitFor(
      async () => {
        const value = await scrapedValue(registry, 'nodejs_eventloop_lag_max_seconds');
        if (value < 0.2) throw new Error(`max ${value}`);
        return value;
      },
      { timeout: 10_000, interval: 50 },
    );
    // At least the stall less one interval (the sample may have been due just before it began).
    expect(max).toBeGreaterThanOrEqual(0.4 - EVENT_LOOP_RESOLUTION_MS / 1000 - 0.01);
    expect(max).toBeLessThan(2);
  });
});
