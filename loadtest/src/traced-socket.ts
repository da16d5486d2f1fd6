// The play runner's WebSocket factory for the SDK: the `ws` package with the session cookie and Origin
// (as the SDK's headerWebSocketFactory), plus what a load test must report and the SDK's connection
// hides behind its reconnects: whether each socket opened, and the HTTP status of a refused upgrade.
import type { WebSocketFactory } from '@felt/client';
import WebSocket from 'ws';

/** What became of the latest socket the factory opened. */
export interface SocketTrace {
  opened: boolean;
  /** The HTTP status the gateway answered the upgrade with instead of switching protocols. */
  refusedStatus: number | undefined;
}

export function tracedSocketFactory(
  options: { readonly cookie: string; readonly origin: string },
  onSocket: (trace: SocketTrace) => void,
): WebSocketFactory {
  return (url) => {
    const trace: SocketTrace = { opened: false, refusedStatus: undefined };
    onSocket(trace);
    const ws = new WebSocket(url, { headers: { cookie: options.cookie }, origin: options.origin });
    ws.once('open', () => {
      trace.opened = true;
    });
    ws.once('unexpected-response', (_req, res) => {
      trace.refusedStatus = res.statusCode;
      res.resume();
      // Ends the handshake: `ws` then emits error and close (1006), and the SDK reconnects with backoff.
      ws.terminate();
    });
    return ws;
  };
}

/** A short stable label for a socket that closed while the run still wanted it. */
export function closeKind(trace: SocketTrace | undefined, code: number): string {
  if (trace && !trace.opened) {
    return trace.refusedStatus !== undefined ? `ws_upgrade_refused_${trace.refusedStatus}` : 'ws_connect_failed';
  }
  return `ws_closed_${code}`;
}
