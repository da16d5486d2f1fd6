import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { debugSpans } from '../telemetry/handle.js';

export interface ReadyReport {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, boolean>>;
}

export type OpsRoute = (url: URL) => Promise<{ status: number; body: unknown }> | { status: number; body: unknown };

export interface OpsServerOptions {
  readonly host: string;
  readonly port: number;
  readonly registry: Registry;
  readonly ready: () => ReadyReport | Promise<ReadyReport>;
  /** Extra GET routes by exact path, e.g. `/debug/ring`. */
  readonly routes?: Readonly<Record<string, OpsRoute>>;
}

export interface OpsServer {
  readonly port: number;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: string, type: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

/**
 * The operations port of a service without a public HTTP server of its own (workers, persister):
 * `/healthz` (the process answers), `/readyz` (its dependencies answer), `/metrics`, and
 * `/debug/spans` when FELT_TRACE_MEMORY=1.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://ops');
    if (req.method !== 'GET') return send(res, 405, '{"error":"method_not_allowed"}', 'application/json');
    switch (url.pathname) {
      case '/healthz':
        return send(res, 200, '{"ok":true}', 'application/json');
      case '/readyz': {
        const report = await options.ready();
        return send(res, report.ready ? 200 : 503, JSON.stringify(report), 'application/json');
      }
      case '/metrics':
        return send(res, 200, await options.registry.metrics(), options.registry.contentType);
      case '/debug/spans': {
        const spans = debugSpans();
        if (spans === null) return send(res, 404, '{"error":"not_found"}', 'application/json');
        return send(res, 200, JSON.stringify(spans), 'application/json');
      }
      default: {
        const route = options.routes?.[url.pathname];
        if (!route) return send(res, 404, '{"error":"not_found"}', 'application/json');
        const out = await route(url);
        return send(res, out.status, JSON.stringify(out.body), 'application/json');
      }
    }
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, '{"error":"internal"}', 'application/json');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
