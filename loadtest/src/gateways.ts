import type { LoadConfig } from './args.js';

/**
 * The gateway URLs to spread users over: --gateway when given, otherwise the same-origin `/ws` of the
 * lobby, which is how the Kubernetes Ingress serves them (lobby at `/`, gateways at `/ws`).
 */
export function resolveGateways(config: LoadConfig, log: (line: string) => void): Promise<string[]> {
  if (config.gateways.length > 0) return Promise.resolve([...config.gateways]);
  const url = new URL('/ws', config.lobby);
  url.protocol = config.lobby.protocol === 'https:' ? 'wss:' : 'ws:';
  log(`load: no --gateway given; using the lobby's origin ${url.toString()}`);
  return Promise.resolve([url.toString()]);
}
