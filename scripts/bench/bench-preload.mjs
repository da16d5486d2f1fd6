// A preload for the processes a bench measures (`NODE_OPTIONS=--import=<this file>`: the test harness
// starts services with no other way to add node flags), acting on SIGUSR2 as FELT_BENCH_SIGNAL says:
//
//   profile   the first SIGUSR2 starts V8's sampling profiler, the next one stops it and writes
//             <FELT_CPU_PROF_DIR>/CPU.<pid>.<n>.cpuprofile, as `node --cpu-prof --cpu-prof-dir` would
//             for the whole run (Node 20 does not take --cpu-prof from NODE_OPTIONS);
//             FELT_CPU_PROF_INTERVAL_US sets the sampling interval (default 1000, --cpu-prof's)
//   gc        each SIGUSR2 runs a full garbage collection, so a memory reading that follows counts
//             what the process holds, not garbage it has yet to collect
//
// Plain JavaScript: it runs in the built services, which load no TypeScript.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import process from 'node:process';

const mode = process.env.FELT_BENCH_SIGNAL;
const dir = process.env.FELT_CPU_PROF_DIR;

if (mode === 'profile' && dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: Number(process.env.FELT_CPU_PROF_INTERVAL_US ?? 1000) });
  let running = false;
  let written = 0;
  // A session in this thread answers at once, so this also works in an 'exit' listener.
  const stop = () => {
    if (!running) return;
    running = false;
    session.post('Profiler.stop', (err, result) => {
      if (err) process.stderr.write(`cpu profile not written: ${err.message}\n`);
      else writeFileSync(join(dir, `CPU.${process.pid}.${++written}.cpuprofile`), JSON.stringify(result.profile));
    });
  };
  process.on('SIGUSR2', () => {
    if (running) return stop();
    session.post('Profiler.start');
    running = true;
  });
  process.on('exit', stop);
} else if (mode === 'gc') {
  const session = new Session();
  session.connect();
  process.on('SIGUSR2', () => session.post('HeapProfiler.collectGarbage'));
}
