/*
 * Starts and drives raw-uws-server.ts (the bare uWebSockets.js anchor) as a child process
 * (BenchChild: its pid for /proc, its ready line for the port).
 */
import { fileURLToPath } from 'node:url';
import { BenchChild } from './bench-child.js';

const SERVER = fileURLToPath(new URL('./raw-uws-server.ts', import.meta.url));

export class RawUwsServer {
  private constructor(private readonly proc: BenchChild) {}

  /** `env` adds to the app's environment (e.g. the bench preload's). */
  static async start(env: Record<string, string> = {}): Promise<RawUwsServer> {
    return new RawUwsServer(await BenchChild.start(SERVER, 'raw uWS app', env));
  }

  get port(): number {
    return this.proc.port;
  }

  get pid(): number {
    return this.proc.pid;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}/ws`;
  }

  async sockets(): Promise<number> {
    const res = await fetch(`http://127.0.0.1:${this.port}/stats`);
    return ((await res.json()) as { sockets: number }).sockets;
  }

  /** Publishes `rate` messages of `bytes` bytes a second to every socket for `seconds`; resolves when done. */
  async publish(rate: number, seconds: number, bytes: number): Promise<number> {
    const q = new URLSearchParams({ rate: String(rate), seconds: String(seconds), bytes: String(bytes) });
    const res = await fetch(`http://127.0.0.1:${this.port}/publish?${q.toString()}`);
    return ((await res.json()) as { published: number }).published;
  }

  stop(): Promise<void> {
    return this.proc.stop();
  }
}
