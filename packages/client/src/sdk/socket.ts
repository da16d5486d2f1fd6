/**
 * The slice of the WebSocket API the SDK uses. The browser's `WebSocket` and the `ws` package's
 * both satisfy it, so the SDK core imports neither: the caller injects a factory.
 */
import { CodedError } from '@felt/engine';

export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: SocketHandler<unknown> | null;
  onmessage: SocketHandler<{ readonly data: unknown }> | null;
  onclose: SocketHandler<{ readonly code: number; readonly reason: string }> | null;
  onerror: SocketHandler<unknown> | null;
}

/**
 * A handler type checked bivariantly (as methods are), so that implementations whose handlers take
 * richer event types (the DOM's MessageEvent, ws's CloseEvent) still satisfy {@link WebSocketLike}.
 */
export type SocketHandler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

/** Opens one socket to `url`. Called again for every reconnect. */
export type WebSocketFactory = (url: string) => WebSocketLike;

/** readyState values shared by every WebSocket implementation. */
export const ReadyState = { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 } as const;
export type ReadyState = (typeof ReadyState)[keyof typeof ReadyState];

export class NoWebSocketError extends CodedError<'no_websocket'> {
  override readonly name = 'NoWebSocketError';
  constructor() {
    super(
      'no_websocket',
      'globalThis.WebSocket is not available: pass a WebSocket factory (in Node, wrap the `ws` package)',
    );
  }
}

/**
 * The browser default: `new WebSocket(url)`. The browser sends the `felt_session` cookie and its
 * Origin on the upgrade by itself.
 */
export function browserWebSocketFactory(): WebSocketFactory {
  const Ctor = (globalThis as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
  if (Ctor === undefined) throw new NoWebSocketError();
  return (url) => new Ctor(url);
}

/** A constructor with the `ws` package's shape: `new WebSocket(url, { headers, origin })`. */
export type HeaderWebSocketConstructor = new (
  url: string,
  options: { headers: Record<string, string>; origin?: string },
) => WebSocketLike;

/**
 * For Node bots and load runners: pass the `ws` package's WebSocket and the session cookie
 * (`felt_session=<token>`, as the lobby's Set-Cookie gave it). `origin` is optional, since the
 * gateway only checks an Origin that is present.
 */
export function headerWebSocketFactory(
  WebSocketImpl: HeaderWebSocketConstructor,
  options: { readonly cookie?: string; readonly origin?: string; readonly headers?: Record<string, string> },
): WebSocketFactory {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie !== undefined) headers.cookie = options.cookie;
  return (url) =>
    new WebSocketImpl(url, { headers, ...(options.origin !== undefined ? { origin: options.origin } : {}) });
}

const decoder = new TextDecoder();

/** A text frame's payload as a string, whatever the implementation hands over. */
export function frameText(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return decoder.decode(new Uint8Array(data));
  if (ArrayBuffer.isView(data)) return decoder.decode(data);
  return undefined;
}
