import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export interface WebServer {
  /** http://127.0.0.1:<port>: the page's origin, which the gateways must allow. */
  readonly origin: string;
  /** Where /api/* goes from now on (the lobby starts after this server, which must know its port first). */
  setLobby(url: string): void;
  close(): Promise<void>;
}

/**
 * Serves the built client the way the lobby is to serve it: `dist/` at `/`, hashed `/assets/*`
 * cached for a year, everything else `no-cache`, unknown paths answered with index.html (SPA
 * fallback), and `/api/*` on the same origin (here proxied to the lobby), so the session cookie and
 * the gateway's Origin check work exactly as in production.
 */
export async function startWebServer(distDir: string): Promise<WebServer> {
  let lobby: URL | null = null;
  const root = normalize(distDir + sep);

  const proxy = (req: IncomingMessage, res: ServerResponse): void => {
    if (lobby === null) {
      res.writeHead(503).end();
      return;
    }
    const upstream = request(
      {
        host: lobby.hostname,
        port: lobby.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: lobby.host },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  };

  const serveFile = async (res: ServerResponse, path: string, immutable: boolean, method: string): Promise<boolean> => {
    try {
      const s = await stat(path);
      if (!s.isFile()) return false;
    } catch {
      return false;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
    });
    if (method === 'HEAD') res.end();
    else createReadStream(path).pipe(res);
    return true;
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      proxy(req, res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const file = normalize(join(root, decodeURIComponent(url.pathname)));
    void (async () => {
      if (file.startsWith(root) && url.pathname !== '/') {
        if (await serveFile(res, file, url.pathname.startsWith('/assets/'), req.method ?? 'GET')) return;
        if (url.pathname.startsWith('/assets/')) {
          res.writeHead(404).end();
          return;
        }
      }
      if (!(await serveFile(res, join(root, 'index.html'), false, req.method ?? 'GET'))) res.writeHead(404).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    setLobby: (url) => {
      lobby = new URL(url);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
