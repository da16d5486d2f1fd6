import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { runVerify, VERIFY_USAGE, type VerifyIo } from './verify-command.js';

const USAGE = `usage: felt <command> [options]

commands:
  verify   check reveal records against the felt-deck-v1 derivation (felt verify --help)`;

const io: VerifyIo = {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
  readFile: (path) => readFile(path, 'utf8'),
  readStdin: () => text(process.stdin),
  env: process.env,
};

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'verify':
      return runVerify(rest, io);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.out(USAGE);
      io.out('');
      io.out(VERIFY_USAGE);
      return command === undefined ? 2 : 0;
    default:
      io.err(`felt: unknown command "${command}"`);
      io.err(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`felt: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 2;
  },
);
