// The ping scenario's WebSocket: the bare `ws` package behind the JsonSocket port below. The play
// scenario connects with the @felt/client SDK instead; this one stays because the ping scenario
// measures and reports what the SDK's reconnecting connection hides on purpose (the HTTP status of a
// refused upgrade, the first close and its code, raw pong round trips).
import WebSocket from 'ws';

export const TransportErrorCode = {
  /** The gateway answered the upgrade with an HTTP status instead of switching protocols. */
  UPGRADE_REFUSED: 'upgrade_refused',
  /** No open within the timeout. */
  CONNECT_TIMEOUT: 'connect_timeout',
  /** The socket failed before opening (DNS, refused connection, TLS). */
  CONNECT_FAILED: 'connect_failed',
} as const;
export type TransportErrorCode = (typeof TransportErrorCode)[keyof typeof TransportErrorCode];

export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(
    readonly code: TransportErrorCode,
    readonly url: string,
    /** The HTTP status of a refused upgrade. */
    readonly status: number | undefined,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface CloseInfo {
  readonly code: number;
  readonly reason: string;
}

/** A connected socket that carries JSON text frames. */
export interface JsonSocket {
  /** Serializes and sends one frame; a closed socket drops it and returns false. */
  send(frame: object): boolean;
  /** Every frame that arrives, parsed; a frame that is not JSON is passed as the raw string. */
  onMessage(handler: (message: unknown) => void): void;
  close(code?: number, reason?: string): void;
  /** Settles once the socket is closed, by either side. */
  readonly closed: Promise<CloseInfo>;
}

export interface OpenOptions {
  readonly url: string;
  /** Upgrade request headers: Cookie and Origin for the gateway. */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

export function openJsonSocket(options: OpenOptions): Promise<JsonSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(options.url, { headers: { ...options.headers }, handshakeTimeout: options.timeoutMs });
    const handlers: ((message: unknown) => void)[] = [];
    let opened = false;
    const closed = new Promise<CloseInfo>((resolveClosed) => {
      ws.on('close', (code, reason) => resolveClosed({ code, reason: reason.toString('utf8') }));
    });

    ws.on('unexpected-response', (_req, res) => {
      reject(
        new TransportError(
          TransportErrorCode.UPGRADE_REFUSED,
          options.url,
          res.statusCode,
          `upgrade refused with HTTP ${res.statusCode}`,
        ),
      );
      res.resume();
      ws.terminate();
    });
    ws.on('error', (err) => {
      if (opened) return; // after open, a failure shows up as 'close'
      const timedOut = /timed out/i.test(err.message);
      reject(
        new TransportError(
          timedOut ? TransportErrorCode.CONNECT_TIMEOUT : TransportErrorCode.CONNECT_FAILED,
          options.url,
          undefined,
          err.message,
          { cause: err },
        ),
      );
    });
    ws.on('message', (data, isBinary) => {
      const bytes = Buffer.isBuffer(data)
        ? data
        : Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.from(new Uint8Array(data));
      const text = isBinary ? '' : bytes.toString('utf8');
      let message: unknown = text;
      try {
        message = JSON.parse(text);
      } catch {
        // Passed on raw: the scenario counts it as a protocol error.
      }
      for (const h of handlers) h(message);
    });
    ws.on('open', () => {
      opened = true;
      resolve({
        send(frame) {
          if (ws.readyState !== WebSocket.OPEN) return false;
          ws.send(JSON.stringify(frame));
          return true;
        },
        onMessage(handler) {
          handlers.push(handler);
        },
        close(code = 1000, reason = '') {
          if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code, reason);
        },
        closed,
      });
    });
  });
}
