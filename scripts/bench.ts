// `npm run bench [name ...]`: runs every scripts/bench/*.bench.ts (or those whose name contains one of
// the arguments) against the built packages, printing `BENCH <figure> key=value ...` lines. A goal that
// is missed is a figure (`ok=false`), not a failure: the exit status is non-zero only on an error.
// Whatever a bench started (clusters, processes, sockets) is cleaned up on an error or Ctrl-C too.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchFields, BenchModule, BenchReporter } from './bench/bench-api.js';
import { runCleanups } from './bench/cleanup.js';

const dir = fileURLToPath(new URL('./bench/', import.meta.url));
const filters = process.argv.slice(2);
const SUFFIX = '.bench.ts';

const reporter: BenchReporter = {
  figure(figure: string, fields: BenchFields) {
    const pairs = Object.entries(fields).map(([k, v]) => `${k}=${v}`);
    console.log(['BENCH', figure, ...pairs].join(' '));
  },
  info(text: string) {
    console.log(`# ${text}`);
  },
};

const modules = (await readdir(dir))
  .filter((f) => f.endsWith(SUFFIX))
  .map((f) => ({ file: f, name: f.slice(0, -SUFFIX.length) }))
  .filter(({ name }) => filters.length === 0 || filters.some((x) => name.includes(x)))
  .sort((a, b) => a.name.localeCompare(b.name));

if (modules.length === 0) {
  console.error(`no bench module matches ${filters.join(', ')}`);
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`bench: ${signal}: cleaning up`);
    void runCleanups().finally(() => process.exit(130));
  });
}

try {
  for (const { file, name } of modules) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as Partial<BenchModule>;
    if (typeof mod.run !== 'function') throw new Error(`${file} does not export run(report)`);
    reporter.info(`${name}`);
    await mod.run(reporter);
  }
} catch (err) {
  console.error('bench failed:', err);
  process.exitCode = 1;
} finally {
  await runCleanups();
}
// Clients and timers a failed bench left behind must not keep the process alive.
process.exit(process.exitCode ?? 0);
