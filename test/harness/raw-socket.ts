import WebSocket from 'ws';
import { UpgradeRefused, type Closed } from './ws-client.js';

export interface RawConnectOptions {
  readonly cookie?: string;
  readonly origin?: string;
  /** Extra request headers for the upgrade, e.g. X-Forwarded-For. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Keep every message in `messages` (default); false only hands them to listeners (long runs). */
  readonly keepMessages?: boolean;
}

export type ServerMsg = Record<string, unknown> & { type?: unknown };

/**
 * A WebSocket test client that can set any upgrade header and send any bytes as a text or binary
 * frame; it records what the server sends and how the socket closed (1006 when the server dropped
 * the connection without a close frame).
 */
export class RawSocket {
  readonly messages: ServerMsg[] = [];
  readonly closed: Promise<Closed>;
  private closedWith: Closed | undefined;
  /** The last error the client library reported (e.g. ECONNRESET), for failure messages. */
  lastError: string | undefined;
  private readonly listeners = new Set<(m: ServerMsg) => void>();

  private constructor(
    readonly ws: WebSocket,
    private readonly keepMessages: boolean,
  ) {
    ws.on('message', (data, isBinary) => {
      const text = (data as Buffer).toString('utf8');
      let m: ServerMsg;
      try {
        m = JSON.parse(text) as ServerMsg;
      } catch {
        m = { type: '(not json)', isBinary, text: text.slice(0, 200) };
      }
      if (this.keepMessages) this.messages.push(m);
      for (const l of [...this.listeners]) l(m);
    });
    // A dropped connection can surface as an error before the close; the close event follows.
    ws.on('error', (err) => {
      this.lastError = err.message;
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        this.closedWith = { code, reason: reason.toString() };
        resolve(this.closedWith);
      }),
    );
  }

  static connect(url: string, options: RawConnectOptions = {}): Promise<RawSocket> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.cookie) headers.cookie = options.cookie;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers, ...(options.origin ? { origin: options.origin } : {}) });
      const socket = new RawSocket(ws, options.keepMessages ?? true);
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_req, res) => reject(new UpgradeRefused(res.statusCode ?? 0)));
      ws.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** How the socket closed, once it has. */
  get closeInfo(): Closed | undefined {
    return this.closedWith;
  }

  /** A JSON text frame. */
  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** These exact bytes, as a text frame (invalid UTF-8 included) or a binary one. */
  sendBytes(bytes: Uint8Array, binary: boolean): void {
    this.ws.send(bytes, { binary });
  }

  /** Calls `listener` with every message from now on; returns the function that stops it. */
  onMessage(listener: (m: ServerMsg) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The first message from index `from` matching `match`; rejects when the socket closes first or
   * after `timeoutMs`.
   */
  next(match: (m: ServerMsg) => boolean, timeoutMs = 10_000, from = 0): Promise<ServerMsg> {
    const hit = this.messages.slice(from).find(match);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        stop();
      };
      const stop = this.onMessage((m) => {
        if (!match(m)) return;
        done();
        resolve(m);
      });
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching message in ${timeoutMs} ms; last: ${JSON.stringify(this.messages.slice(-3))}`));
      }, timeoutMs);
      void this.closed.then((c) => {
        done();
        reject(new Error(`socket closed (${c.code} ${c.reason}) before a matching message`));
      });
    });
  }

  /**
   * Sends a ping and resolves with its pong, or with how the socket closed if it closed first:
   * a probe of whether the gateway kept the socket.
   */
  probe(timeoutMs = 10_000): Promise<{ pong: true } | { closed: Closed }> {
    if (this.closedWith) return Promise.resolve({ closed: this.closedWith });
    const nonce = Math.random().toString(36).slice(2);
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        stop();
      };
      const stop = this.onMessage((m) => {
        if (m.type !== 'pong' || m.nonce !== nonce) return;
        done();
        resolve({ pong: true });
      });
      const timer = setTimeout(() => {
        done();
        reject(new Error(`neither a pong nor a close in ${timeoutMs} ms`));
      }, timeoutMs);
      void this.closed.then((closed) => {
        done();
        resolve({ closed });
      });
      if (this.isOpen) this.send({ type: 'ping', nonce });
    });
  }

  close(): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close();
  }
}

/** The value of one Prometheus sample in `text` (0 when the series is absent). */
export function metricValue(text: string, name: string, labels: Readonly<Record<string, string>> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const open = line.indexOf('{');
    const close = line.lastIndexOf('}');
    const found: Record<string, string> = {};
    if (open === name.length && close > open) {
      for (const m of line.slice(open + 1, close).matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) found[m[1]!] = m[2]!;
    }
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) {
      return Number(line.slice((close > open ? close : name.length) + 1).trim());
    }
  }
  return 0;
}
