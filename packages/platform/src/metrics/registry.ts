import { collectDefaultMetrics, Registry } from 'prom-client';

export type { Registry } from 'prom-client';

/**
 * A prom-client registry with Node's default metrics, labelled with the service name. Each service
 * keeps its own registry rather than the global one, so tests can build several in one process.
 */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, prefix: 'felt_' });
  return registry;
}
