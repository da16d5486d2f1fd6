import { lobbyGatewayUrls } from './lobby.js';

/**
 * The gateway URLs to spread players over: --gateway when given, else the ones the lobby hands to
 * clients (GET /api/config), else the lobby's own origin with `/ws`, which is how the Kubernetes
 * Ingress serves them.
 */
export async function resolveGateways(
  config: { readonly lobby: URL; readonly gateways: readonly string[]; readonly timeoutMs: number },
  log: (line: string) => void,
): Promise<string[]> {
  if (config.gateways.length > 0) return [...config.gateways];
  try {
    const urls = await lobbyGatewayUrls(config.lobby, config.timeoutMs);
    log(`load: gateways from the lobby: ${urls.join(' ')}`);
    return urls;
  } catch (err) {
    const url = new URL('/ws', config.lobby);
    url.protocol = config.lobby.protocol === 'https:' ? 'wss:' : 'ws:';
    log(`load: the lobby gave no gateway URLs (${(err as Error).message}); using ${url.toString()}`);
    return [url.toString()];
  }
}
