import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Cluster, TEST_ORIGIN } from '../../../../test/harness/cluster.js';
import { ServiceProcess } from '../../../../test/harness/service-process.js';
import { startWebServer, type WebServer } from './web-server.js';

export const WEB_DIST = fileURLToPath(new URL('../../dist', import.meta.url));

export interface WebCluster {
  readonly cluster: Cluster;
  readonly web: WebServer;
  /** The page's origin: open `${origin}/` in the browser. */
  readonly origin: string;
  stop(): Promise<void>;
}

/**
 * A real cluster (test/harness) behind the built web client. The harness's gateways allow only its
 * own test origin, so this adds a gateway that also allows the page's origin (the same settings as
 * the harness's, plus that origin), then starts the lobby that hands its URL to the browser.
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
    const id = `g1-${randomBytes(2).toString('hex')}`;
    const proc = await ServiceProcess.start('gateway', id, {
      ...cluster.commonEnv(),
      GATEWAY_ID: id,
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: '0',
      GATEWAY_ALLOWED_ORIGINS: `${TEST_ORIGIN},${web.origin}`,
      GATEWAY_SESSION_CHECK_MS: '1000',
    });
    const port = Number(proc.ready.port);
    cluster.gateways.push({ id, proc, wsUrl: `ws://127.0.0.1:${port}/ws`, httpUrl: `http://127.0.0.1:${port}` });
    await cluster.waitReady(`http://127.0.0.1:${port}`);
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
    stop: async () => {
      await web.close();
      await c.stop();
    },
  };
}
