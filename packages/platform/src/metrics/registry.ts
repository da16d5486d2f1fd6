import { collectDefaultMetrics, Registry } from 'prom-client';

export type { Registry } from 'prom-client';

/**
 * A prom-client registry with Node's default metrics, labelled with the service name. Each service
 * keeps its own registry rather than the global one, so tests can build several in one process.
 */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // The standard names (process_cpu_seconds_total, nodejs_eventloop_lag_seconds, …), unprefixed, so
  // stock Node.js dashboards and alerts work as they are.
  collectDefaultMetrics({ register: registry });
  return registry;
}
