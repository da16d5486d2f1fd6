import { debugSpans, type Registry, type RingView } from '@felt/platform';
import type uWS from 'uWebSockets.js';

export interface HttpRoutesOptions {
  readonly gatewayId: string;
  readonly ring: RingView;
  readonly metricsRegistry: Registry;
  /** FELT_DEBUG_ENDPOINTS: serve /debug/ring. */
  readonly debugEndpoints: boolean;
  readonly ready: () => { ready: boolean; checks: Record<string, boolean> };
}

/** The gateway's HTTP endpoints beside /ws: probes, metrics and the debug views. */
export function registerHttpRoutes(app: uWS.TemplatedApp, o: HttpRoutesOptions): void {
  app.get('/healthz', (res) => {
    res.writeHeader('content-type', 'application/json').end('{"ok":true}');
  });
  app.get('/readyz', (res) => {
    const report = o.ready();
    res
      .writeStatus(report.ready ? '200 OK' : '503 Service Unavailable')
      .writeHeader('content-type', 'application/json')
      .end(JSON.stringify(report));
  });
  app.get('/metrics', (res) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    o.metricsRegistry.metrics().then(
      (text) => {
        if (!aborted) res.cork(() => res.writeHeader('content-type', o.metricsRegistry.contentType).end(text));
      },
      () => {
        if (!aborted) res.cork(() => res.writeStatus('500 Internal Server Error').end());
      },
    );
  });
  app.get('/debug/spans', (res) => {
    const spans = debugSpans();
    if (spans === null) return void res.writeStatus('404 Not Found').end('{"error":"not_found"}');
    res.writeHeader('content-type', 'application/json').end(JSON.stringify(spans));
  });
  app.get('/debug/ring', (res, req) => {
    if (!o.debugEndpoints) return void res.writeStatus('404 Not Found').end('{"error":"not_found"}');
    const table = req.getQuery('table') ?? '';
    res.writeHeader('content-type', 'application/json').end(
      JSON.stringify({
        gatewayId: o.gatewayId,
        members: o.ring.current.members,
        owner: table ? (o.ring.ownerOf(table)?.id ?? null) : null,
      }),
    );
  });
  app.any('/*', (res) => {
    res.writeStatus('404 Not Found').writeHeader('content-type', 'application/json').end('{"error":"not_found"}');
  });
}
