// Regenerates src/gen/ from the .proto files: `npm run gen -w @felt/proto`.
// buf comes from npm (its binary is an optional dependency), ts-proto runs as a local plugin, so no
// protoc is needed. The output is committed, so builds never run this.
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const protoDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const buf = join(protoDir, '..', 'node_modules', '.bin', 'buf');

function run(args) {
  const r = spawnSync(buf, args, { cwd: protoDir, stdio: 'inherit' });
  if (r.error) throw r.error;
  if (r.status !== 0) process.exit(r.status ?? 1);
}

run(['lint']);
rmSync(join(protoDir, 'src', 'gen'), { recursive: true, force: true });
run(['generate']);
process.stdout.write('proto: generated src/gen\n');
