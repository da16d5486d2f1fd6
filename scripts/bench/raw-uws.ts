/*
 * Starts and drives raw-uws-server.ts (the bare uWebSockets.js anchor) as a child process, the way
 * the test harness's ServiceProcess runs a service: its pid for /proc, its ready line for the port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { onCleanup } from './cleanup.js';

const SERVER = fileURLToPath(new URL('./raw-uws-server.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export class RawUwsServer {
  private readonly exited: Promise<void>;
  private readonly forget: () => void;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    this.forget = onCleanup(() => this.stop());
  }

  /** `env` adds to the app's environment (e.g. the bench preload's). */
  static async start(env: Record<string, string> = {}): Promise<RawUwsServer> {
    const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Interrupted before it is ready, it is killed all the same.
    const forget = onCleanup(() => {
      child.kill('SIGKILL');
      return Promise.resolve();
    });
    const lines: string[] = [];
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`raw uWS app not ready:\n${lines.join('\n')}`)), 30_000);
      child.once('exit', (code) => reject(new Error(`raw uWS app exited with ${code}:\n${lines.join('\n')}`)));
      createInterface({ input: child.stderr }).on('line', (l) => lines.push(l));
      createInterface({ input: child.stdout }).on('line', (l) => {
        lines.push(l);
        try {
          const m = JSON.parse(l) as { event?: unknown; port?: unknown };
          if (m.event === 'ready' && typeof m.port === 'number') {
            clearTimeout(timer);
            resolve(m.port);
          }
        } catch {
          // not the ready line
        }
      });
    })
      .catch((err: unknown) => {
        child.kill('SIGKILL');
        throw err;
      })
      .finally(forget);
    return new RawUwsServer(child, port);
  }

  get pid(): number {
    return this.child.pid!;
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

  async stop(): Promise<void> {
    this.forget();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await this.exited;
    clearTimeout(timer);
  }
}
