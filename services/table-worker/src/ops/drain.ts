#!/usr/bin/env node
// felt-worker-drain: starts this worker's drain and waits until its tables are handed over.
//
//   node dist/ops/drain.js            (inside the worker's container: the k8s preStop hook)
//
// It reads the drain token the worker wrote for its WORKER_ID, asks the worker's ops port
// (WORKER_HTTP_PORT on 127.0.0.1) to drain, and polls until every table has stopped at its hand
// boundary (or the worker's FELT_DRAIN_DEADLINE_MS passed). The SIGTERM that follows then only
// deregisters, releases the leases and exits. Exit status: 0 drained, 1 not drained in time, 2 usage.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { drainTokenPath } from '../config.js';

const workerId = process.env.WORKER_ID ?? hostname();
const port = Number(process.env.WORKER_HTTP_PORT ?? 9091);
const deadlineMs = Number(process.env.FELT_DRAIN_DEADLINE_MS ?? 20_000) + 5_000;

let token: string;
try {
  token = readFileSync(drainTokenPath(workerId), 'utf8').trim();
} catch {
  process.stderr.write(`no drain token for worker ${workerId}: is it running in this container?\n`);
  process.exit(2);
}

const until = Date.now() + deadlineMs;
for (;;) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/drain?token=${encodeURIComponent(token)}`);
    const body = (await res.json()) as { drained?: boolean; atBoundary?: number; atDeadline?: number };
    if (!res.ok) {
      process.stderr.write(`drain refused: HTTP ${res.status}\n`);
      process.exit(2);
    }
    if (body.drained) {
      process.stdout.write(
        `drained: ${body.atBoundary ?? 0} at a hand boundary, ${body.atDeadline ?? 0} at the deadline\n`,
      );
      process.exit(0);
    }
  } catch (err) {
    process.stderr.write(`worker not answering: ${(err as Error).message}\n`);
  }
  if (Date.now() > until) {
    process.stderr.write('not drained in time\n');
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 250));
}
