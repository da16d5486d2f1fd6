/*
 * CPU time and resident memory of a process from Linux's /proc, so the bench can charge each Felt
 * process (a child started by the test harness) for what it used during a measured window. The
 * parsers are pure and tested in test/bench-helpers.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** utime and stime of /proc/<pid>/stat, in clock ticks. */
export interface ProcTimes {
  readonly utimeTicks: number;
  readonly stimeTicks: number;
}

/**
 * Parses /proc/<pid>/stat. The second field (the command name) is in parentheses and may itself
 * contain spaces and parentheses, so the fields are counted from the last `)`.
 */
export function parseProcStat(text: string): ProcTimes {
  const close = text.lastIndexOf(')');
  if (close < 0) throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  // After ") ": field 3 (state) is index 0, so field N is index N - 3; utime is 14, stime 15.
  const fields = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const utimeTicks = Number(fields[11]);
  const stimeTicks = Number(fields[12]);
  if (!Number.isFinite(utimeTicks) || !Number.isFinite(stimeTicks)) {
    throw new Error(`no utime/stime in /proc/<pid>/stat: ${text.slice(0, 80)}`);
  }
  return { utimeTicks, stimeTicks };
}

/** VmRSS of /proc/<pid>/status, in bytes. */
export function parseVmRss(status: string): number {
  const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!m) throw new Error('no VmRSS line in /proc/<pid>/status');
  return Number(m[1]) * 1024;
}

let ticksPerSecond: number | undefined;

/** The kernel's USER_HZ (`getconf CLK_TCK`), 100 on every common Linux. */
export function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU seconds the process has used so far. */
export function cpuSeconds(pid: number): number {
  const t = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return (t.utimeTicks + t.stimeTicks) / clockTicksPerSecond();
}

/** The process's resident set size now, in bytes. */
export function rssBytes(pid: number): number {
  return parseVmRss(readFileSync(`/proc/${pid}/status`, 'utf8'));
}

/** CPU seconds of this (the bench's) process, every thread: the same scope as /proc's figures for a child. */
export function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** CPU seconds per named process between `start()` and `stop()`, and the wall time between them. */
export class CpuWindow {
  private startCpu: Record<string, number> = {};
  private startWall = 0;

  constructor(private readonly pids: Readonly<Record<string, number>>) {}

  private sample(): Record<string, number> {
    const out: Record<string, number> = { bench: ownCpuSeconds() };
    for (const [name, pid] of Object.entries(this.pids)) out[name] = cpuSeconds(pid);
    return out;
  }

  start(): void {
    this.startWall = performance.now();
    this.startCpu = this.sample();
  }

  /** CPU seconds each process (and `bench`, this one) used since start(), and `wall` seconds. */
  stop(): Record<string, number> {
    const end = this.sample();
    const used: Record<string, number> = { wall: (performance.now() - this.startWall) / 1000 };
    for (const [name, v] of Object.entries(end)) used[name] = v - (this.startCpu[name] ?? v);
    return used;
  }
}

/** The median of `samples` RSS readings `everyMs` apart: one reading can catch a GC mid-way. */
export async function settledRss(pid: number, samples = 5, everyMs = 200): Promise<number> {
  const seen: number[] = [];
  for (let i = 0; i < samples; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, everyMs));
    seen.push(rssBytes(pid));
  }
  seen.sort((a, b) => a - b);
  return seen[Math.floor(seen.length / 2)]!;
}
