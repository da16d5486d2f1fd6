import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export type ServiceKind = 'gateway' | 'table-worker' | 'lobby' | 'persister';

/** The JSON log line a service writes once it has bound its ports (docs/dev/contracts.md). */
export type ReadyLine = Record<string, unknown> & { event: 'ready' };

/**
 * One built service running as its own process, the way production runs it:
 * `node --import dist/telemetry.js dist/main.js` in the service's directory.
 */
export class ServiceProcess {
  private exitCode: number | null | undefined;
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly ready: ReadyLine,
    /** Every line the process wrote so far, stdout and stderr. */
    readonly logs: string[],
  ) {
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
    });
    void this.exited.then((code) => {
      this.exitCode = code;
    });
  }

  static async start(
    kind: ServiceKind,
    name: string,
    env: Record<string, string>,
    options: { readyTimeoutMs?: number; echo?: boolean } = {},
  ): Promise<ServiceProcess> {
    const dir = join(repoRoot, 'services', kind);
    const main = join(dir, 'dist', 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: run \`npx tsc -b\` (npm test builds first)`);
    const preload = join(dir, 'dist', 'telemetry.js');
    const child = spawn(process.execPath, [...(existsSync(preload) ? ['--import', preload] : []), main], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const logs: string[] = [];
    const echo = options.echo ?? process.env.FELT_TEST_ECHO === '1';
    let onReady: ((line: ReadyLine) => void) | undefined;
    const readyLine = new Promise<ReadyLine>((resolve, reject) => {
      onReady = resolve;
      child.once('exit', (code) =>
        reject(new Error(`${name} exited with ${code} before it was ready:\n${logs.slice(-20).join('\n')}`)),
      );
      setTimeout(
        () =>
          reject(
            new Error(`${name} not ready after ${options.readyTimeoutMs ?? 30_000} ms:\n${logs.slice(-20).join('\n')}`),
          ),
        options.readyTimeoutMs ?? 30_000,
      ).unref();
    });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        logs.push(line);
        if (echo) process.stdout.write(`${name} | ${line}\n`);
        if (line.includes('"event":"ready"')) {
          try {
            const parsed = JSON.parse(line) as Record<string, unknown>;
            if (parsed.event === 'ready') onReady?.(parsed as ReadyLine);
          } catch {
            // not a JSON line
          }
        }
      });
    }
    let ready: ReadyLine;
    try {
      ready = await readyLine;
    } catch (err) {
      child.kill('SIGKILL');
      throw err;
    }
    return new ServiceProcess(name, child, ready, logs);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** True while the process runs. */
  get alive(): boolean {
    return this.exitCode === undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Log lines parsed as JSON (non-JSON lines skipped). */
  jsonLogs(): Record<string, unknown>[] {
    return this.logs.flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  }

  /** Stops the process where it stands (SIGSTOP), or lets it go on (SIGCONT): it neither exits nor notices. */
  pause(paused: boolean): void {
    if (this.alive) this.child.kill(paused ? 'SIGSTOP' : 'SIGCONT');
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> {
    if (this.alive) this.child.kill(signal);
    return this.exited;
  }

  /** SIGTERM, then SIGKILL after `graceMs`. Resolves with the exit code (null when killed). */
  async stop(graceMs = 5_000): Promise<number | null> {
    if (!this.alive) return this.exited;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
