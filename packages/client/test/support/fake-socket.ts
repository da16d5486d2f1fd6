import { ReadyState, type WebSocketLike } from '../../src/sdk/socket.js';

/** An in-memory WebSocket: the test opens, feeds and closes it, and reads what the client sent. */
export class FakeSocket implements WebSocketLike {
  readyState: number = ReadyState.CONNECTING;
  readonly sent: Record<string, unknown>[] = [];
  closedWith: { code?: number; reason?: string } | undefined;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { readonly data: unknown }) => void) | null = null;
  onclose: ((event: { readonly code: number; readonly reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== ReadyState.OPEN) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close(code?: number, reason?: string): void {
    this.closedWith = { ...(code !== undefined ? { code } : {}), ...(reason !== undefined ? { reason } : {}) };
    this.readyState = ReadyState.CLOSED;
  }

  /** Server side: the upgrade succeeded. */
  acceptOpen(): void {
    this.readyState = ReadyState.OPEN;
    this.onopen?.({});
  }

  /** Server side: one JSON text frame. */
  deliver(message: unknown): void {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }

  /** Server or network side: the socket ends. */
  serverClose(code = 1006, reason = ''): void {
    this.readyState = ReadyState.CLOSED;
    this.onerror?.({});
    this.onclose?.({ code, reason });
  }

  framesOfType(type: string): Record<string, unknown>[] {
    return this.sent.filter((f) => f.type === type);
  }
}

/** A socket factory that keeps every socket it made. */
export class FakeSocketFactory {
  readonly sockets: FakeSocket[] = [];
  readonly create = (url: string): FakeSocket => {
    const s = new FakeSocket(url);
    this.sockets.push(s);
    return s;
  };

  get last(): FakeSocket {
    const s = this.sockets.at(-1);
    if (!s) throw new Error('no socket was created');
    return s;
  }
}
