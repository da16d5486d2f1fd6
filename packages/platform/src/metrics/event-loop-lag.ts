import { createHistogram, performance } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

/**
 * How often the event loop's delay is sampled, in ms. A stall of 100 ms or more (the FeltEventLoopLag
 * alert's floor) is always seen; a shorter one when a sample falls due in it. Waking an idle process
 * is what costs: on the 2-vCPU machine prom-client's monitor (every 10 ms) takes about 4.5 ms of CPU a
 * second, this timer about 2.5 (each beside an empty process, 20 s).
 */
export const EVENT_LOOP_RESOLUTION_MS = 100;

/** The standard names of the event-loop lag gauges (prom-client's), which Felt sets itself. */
export const EVENT_LOOP_LAG_METRICS = [
  'nodejs_eventloop_lag_seconds',
  'nodejs_eventloop_lag_min_seconds',
  'nodejs_eventloop_lag_max_seconds',
  'nodejs_eventloop_lag_mean_seconds',
  'nodejs_eventloop_lag_stddev_seconds',
  'nodejs_eventloop_lag_p50_seconds',
  'nodejs_eventloop_lag_p90_seconds',
  'nodejs_eventloop_lag_p99_seconds',
] as const;

/** The timer behind a registry's lag gauges. */
export interface EventLoopLagMonitor {
  /** Samples taken since the last scrape. */
  readonly samples: () => number;
  /** Stops sampling (the gauges keep their last values). */
  readonly stop: () => void;
}

/**
 * The event-loop lag gauges under prom-client's standard names, from a timer due every
 * `resolutionMs` that records how late it ran: the delay alone (an idle loop reads about 0). Node's
 * `monitorEventLoopDelay`, which prom-client reads, records the interval and the delay together (an
 * idle loop sampled every 10 ms reads 10 ms), and starts afresh at its first sample after each scrape's
 * reset: a stall that begins before that sample, or that a scrape waiting behind it reads first, goes
 * unrecorded. This timer measures every stall from the sample before it. (Node's monitor at 100 ms
 * would cost half as much CPU, about 1.2 ms a second, at that price.) As prom-client's, each scrape
 * reads the samples since the one before, and `nodejs_eventloop_lag_seconds` is the time a callback
 * queued at the scrape waits to run.
 */
export function registerEventLoopLag(registry: Registry, resolutionMs = EVENT_LOOP_RESOLUTION_MS): EventLoopLagMonitor {
  const histogram = createHistogram();
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    // In ns, at least 1 (the histogram's floor): on time reads as no delay.
    histogram.record(Math.max(1, Math.round((now - last - resolutionMs) * 1e6)));
    last = now;
  }, resolutionMs).unref();
  const seconds = (ns: number): number => (ns <= 1 ? 0 : ns / 1e9);
  const gauge = (name: string, help: string, aggregator: 'average' | 'min' | 'max' = 'average'): Gauge =>
    new Gauge({ name, help, registers: [registry], aggregator });
  const [, minName, maxName, meanName, stddevName, p50Name, p90Name, p99Name] = EVENT_LOOP_LAG_METRICS;
  const min = gauge(minName, 'The minimum recorded event loop delay.', 'min');
  const max = gauge(maxName, 'The maximum recorded event loop delay.', 'max');
  const mean = gauge(meanName, 'The mean of the recorded event loop delays.');
  const stddev = gauge(stddevName, 'The standard deviation of the recorded event loop delays.');
  const p50 = gauge(p50Name, 'The 50th percentile of the recorded event loop delays.');
  const p90 = gauge(p90Name, 'The 90th percentile of the recorded event loop delays.');
  const p99 = gauge(p99Name, 'The 99th percentile of the recorded event loop delays.');
  const lag: Gauge = new Gauge({
    name: EVENT_LOOP_LAG_METRICS[0],
    help: 'Lag of event loop in seconds.',
    registers: [registry],
    aggregator: 'average',
    // One collect sets them all, as prom-client's does.
    collect() {
      const start = process.hrtime.bigint();
      setImmediate(() => lag.set(Number(process.hrtime.bigint() - start) / 1e9));
      // No sample since the last scrape (the loop blocked throughout): the gauges keep their values.
      if (histogram.count === 0) return;
      min.set(seconds(histogram.min));
      max.set(seconds(histogram.max));
      mean.set(seconds(histogram.mean));
      stddev.set(histogram.stddev / 1e9);
      p50.set(seconds(histogram.percentile(50)));
      p90.set(seconds(histogram.percentile(90)));
      p99.set(seconds(histogram.percentile(99)));
      histogram.reset();
    },
  });
  return { samples: () => histogram.count, stop: () => clearInterval(timer) };
}
