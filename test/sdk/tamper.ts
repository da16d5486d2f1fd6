// A socket factory that sits between a real `ws` socket and the SDK and may drop or rewrite incoming
// frames: a lossy pub/sub path or a corrupted frame, reproduced on purpose against the real cluster.
import { type SocketHandler, type WebSocketFactory, type WebSocketLike } from '@felt/client';
import WebSocket from 'ws';

/** Decides each incoming frame's fate: return it (possibly changed), or null to drop it. */
export type FrameFilter = (frame: Record<string, unknown>) => Record<string, unknown> | null;

export class TamperingFactory {
  /** Replace to change what happens to the next frames. */
  filter: FrameFilter = (f) => f;
  readonly sockets: WebSocket[] = [];

  constructor(private readonly cookie: string) {}

  readonly create: WebSocketFactory = (url) => {
    const ws = new WebSocket(url, { headers: { cookie: this.cookie } });
    this.sockets.push(ws);
    let onmessage: SocketHandler<{ readonly data: unknown }> | null = null;
    ws.onmessage = (event) => {
      if (!onmessage) return;
      const text = typeof event.data === 'string' ? event.data : Buffer.from(event.data as Buffer).toString('utf8');
      const out = this.filter(JSON.parse(text) as Record<string, unknown>);
      if (out !== null) onmessage({ data: JSON.stringify(out) });
    };
    const proxy: WebSocketLike = {
      get readyState() {
        return ws.readyState;
      },
      send: (data) => ws.send(data),
      close: (code, reason) => ws.close(code, reason),
      get onopen() {
        return ws.onopen;
      },
      set onopen(h) {
        ws.onopen = h;
      },
      get onmessage() {
        return onmessage;
      },
      set onmessage(h) {
        onmessage = h;
      },
      get onclose() {
        return ws.onclose;
      },
      set onclose(h) {
        ws.onclose = h;
      },
      get onerror() {
        return ws.onerror;
      },
      set onerror(h) {
        ws.onerror = h;
      },
    };
    return proxy;
  };

  /** Ends the current socket abruptly, as a network failure would (the SDK sees code 1006). */
  cut(): void {
    this.sockets.at(-1)?.terminate();
  }
}
