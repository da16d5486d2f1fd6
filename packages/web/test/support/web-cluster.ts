import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Cluster, TEST_ORIGIN, type GatewayHandle } from '../../../../test/harness/cluster.js';
import { ServiceProcess } from '../../../../test/harness/service-process.js';
import { startWebServer, type WebServer } from './web-server.js';

export const WEB_DIST = fileURLToPath(new URL('../../dist', import.meta.url));

export interface WebCluster {
  readonly cluster: Cluster;
  readonly web: WebServer;
  /** The page's origin: open `${origin}/` in the browser. */
  readonly origin: string;
  /**
   * Kills the first gateway, the one clients dial first (SIGKILL: sockets drop as in a crash); the
   * lobby listed both, so clients move to the other one.
   */
  killFirstGateway(): Promise<void>;
  stop(): Promise<void>;
}

async function startGateway(cluster: Cluster, origin: string): Promise<GatewayHandle> {
  const id = `g-${randomBytes(3).toString('hex')}`;
  const proc = await ServiceProcess.start('gateway', id, {
    ...cluster.commonEnv(),
    // The workers' gRPC requires the cluster's mutual TLS: the gateway's certificate.
    ...cluster.certs?.gateway,
    GATEWAY_ID: id,
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: '0',
    GATEWAY_ALLOWED_ORIGINS: `${TEST_ORIGIN},${origin}`,
    GATEWAY_SESSION_CHECK_MS: '1000',
  });
  const bound = Number(proc.ready.port);
  const handle: GatewayHandle = { id, proc, wsUrl: `ws://127.0.0.1:${bound}/ws`, httpUrl: `http://127.0.0.1:${bound}` };
  try {
    await cluster.waitReady(handle.httpUrl);
  } catch (err) {
    // Not ready: it would outlive the suite otherwise (the cluster does not know this process).
    await proc.stop();
    throw err;
  }
  return handle;
}

/**
 * A real cluster (test/harness) behind the built web client. The harness's gateways allow only its
 * own test origin, so this starts two gateways that also allow the page's origin (otherwise the
 * harness's settings), then the lobby that hands their URLs to the browser.
 */
export async function startWebCluster(env: Record<string, string> = {}): Promise<WebCluster> {
  if (!existsSync(`${WEB_DIST}/index.html`)) {
    throw new Error(
      `${WEB_DIST}/index.html is missing: run \`npm run build:web -w @felt/web\` (npm run test:browser does)`,
    );
  }
  const web = await startWebServer(WEB_DIST);
  let cluster: Cluster | undefined;
  try {
    cluster = await Cluster.start({ workers: 1, gateways: 0, lobby: false, persister: true, env });
    for (let i = 0; i < 2; i++) cluster.gateways.push(await startGateway(cluster, web.origin));
    await cluster.startLobby();
    web.setLobby(cluster.lobby!.url);
  } catch (err) {
    await cluster?.stop();
    await web.close();
    throw err;
  }
  const c = cluster;
  return {
    cluster: c,
    web,
    origin: web.origin,
    killFirstGateway: async () => {
      await c.gateways[0]!.proc.kill('SIGKILL');
    },
    stop: async () => {
      await web.close();
      await c.stop();
    },
  };
}
