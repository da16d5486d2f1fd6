/*
 * A script of scripts/bench/ run as its own process (`node --import tsx`), the way the test harness's
 * ServiceProcess runs a service: its pid for /proc, the port from its one JSON ready line
 * (`{"event":"ready","port":N}`), and stopped by the bench's cleanup even when the bench fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { onCleanup } from './cleanup.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export class BenchChild {
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

  /** Starts `script` (a path) with only PATH and `env`; `what` names it in errors. */
  static async start(script: string, what: string, env: Record<string, string> = {}): Promise<BenchChild> {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
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
      const timer = setTimeout(() => reject(new Error(`${what} not ready:\n${lines.join('\n')}`)), 30_000);
      child.once('exit', (code) => reject(new Error(`${what} exited with ${code}:\n${lines.join('\n')}`)));
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
    return new BenchChild(child, port);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** SIGTERM, then SIGKILL if it has not exited 5 s later. */
  async stop(): Promise<void> {
    this.forget();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await this.exited;
    clearTimeout(timer);
  }
}
