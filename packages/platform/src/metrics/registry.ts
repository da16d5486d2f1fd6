import { collectDefaultMetrics, Registry } from 'prom-client';
import { EVENT_LOOP_LAG_METRICS, registerEventLoopLag } from './event-loop-lag.js';

export type { Registry } from 'prom-client';

/**
 * A prom-client registry with Node's default metrics, labelled with the service name. Each service
 * keeps its own registry rather than the global one, so tests can build several in one process.
 */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // The standard names (process_cpu_seconds_total, nodejs_eventloop_lag_seconds, …), unprefixed, so
  // stock Node.js dashboards and alerts work as they are. prom-client's event-loop lag gauges give way
  // to Felt's (event-loop-lag.ts: the same names, sampled every 100 ms instead of every 10, the delay
  // alone); prom-client cannot leave them out, so its monitor samples once a minute, unread.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 60_000 });
  for (const name of EVENT_LOOP_LAG_METRICS) registry.removeSingleMetric(name);
  registerEventLoopLag(registry);
  return registry;
}
