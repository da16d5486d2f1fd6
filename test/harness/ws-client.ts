import WebSocket from 'ws';

export interface ConnectOptions {
  readonly cookie?: string;
  readonly origin?: string;
}

export interface Closed {
  readonly code: number;
  readonly reason: string;
}

/**
 * A test client over the `ws` package: records every server message and lets a test wait for the
 * one it expects.
 */
export class TestSocket {
  readonly messages: Record<string, unknown>[] = [];
  readonly closed: Promise<Closed>;
  private readonly listeners = new Set<() => void>();

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse((data as Buffer).toString('utf8')) as Record<string, unknown>);
      for (const l of this.listeners) l();
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static connect(url: string, options: ConnectOptions = {}): Promise<TestSocket> {
    const headers: Record<string, string> = {};
    if (options.cookie) headers.cookie = options.cookie;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers, ...(options.origin ? { origin: options.origin } : {}) });
      const socket = new TestSocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_req, res) => reject(new UpgradeRefused(res.statusCode ?? 0)));
      ws.once('error', reject);
    });
  }

  /** The HTTP status of a refused upgrade (throws if the upgrade succeeded). */
  static async refusal(url: string, options: ConnectOptions = {}): Promise<number> {
    try {
      const s = await TestSocket.connect(url, options);
      s.close();
    } catch (err) {
      if (err instanceof UpgradeRefused) return err.status;
      throw err;
    }
    throw new Error('the upgrade was accepted');
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  sendRaw(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** The first message (from index `from`) matching `match`, waiting up to `timeoutMs`. */
  next(match: (m: Record<string, unknown>) => boolean, timeoutMs = 10_000, from = 0): Promise<Record<string, unknown>> {
    const find = () => this.messages.slice(from).find(match);
    const hit = find();
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const listener = () => {
        const m = find();
        if (m) {
          cleanup();
          resolve(m);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(-5))}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      this.listeners.add(listener);
      void this.closed.then(() => {
        if (!find()) {
          cleanup();
          reject(new Error(`socket closed before a matching message; got ${JSON.stringify(this.messages.slice(-5))}`));
        }
      });
    });
  }

  close(): void {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close();
  }
}

export class UpgradeRefused extends Error {
  constructor(readonly status: number) {
    super(`upgrade refused with HTTP ${status}`);
    this.name = 'UpgradeRefused';
  }
}
