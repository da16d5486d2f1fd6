// `npm run tournaments`: an operator creates, lists and cancels tournaments directly in Postgres.
// The config is @felt/protocol's TournamentConfig, checked as a new tournament's (a start time in the
// future, totals within the chip bound) before anything is written. A cancellation refunds every entry.
//
//   DATABASE_URL=... npm run tournaments -- --create '{"name":"Sunday 60","format":"scheduled",...}'
//   DATABASE_URL=... npm run tournaments -- --create-file sunday.json
//   DATABASE_URL=... npm run tournaments -- --list
//   DATABASE_URL=... npm run tournaments -- --cancel <tournament id>
//
// Prints one `TOURNAMENT …` line per tournament created, listed or cancelled; exits 0, 1 when the
// database refused (e.g. cancelling a tournament that has started), 2 on bad arguments or an invalid
// config (each issue on stderr).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  cancelTournament,
  createPrisma,
  createTournament,
  newTournament,
  TournamentRefusedError,
  type PrismaClient,
} from '@felt/db';
import { createLogger } from '@felt/platform';
import { newTournamentIssues, safeParseTournamentConfig, type TournamentConfigIssue } from '@felt/protocol';
// The lobby's own reading of tournaments (a service, so no package entry): the list players see.
import { Tournaments } from '../services/lobby/src/tournaments.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/felt';

const USAGE = `usage: npm run tournaments -- --create JSON | --create-file PATH | --list | --cancel ID

  --create JSON        a TournamentConfig (docs/protocol.md and docs/operations.md, "Tournaments")
  --create-file PATH   the same, read from a file
  --list               registering and running tournaments, soonest start first (the first 200)
  --cancel ID          call a tournament off before its start and refund every entry

Writes to DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/felt).`;

class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Command =
  | { readonly kind: 'create'; readonly json: string }
  | { readonly kind: 'list' }
  | { readonly kind: 'cancel'; readonly id: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parse(argv: string[]): Command {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        create: { type: 'string' },
        'create-file': { type: 'string' },
        list: { type: 'boolean' },
        cancel: { type: 'string' },
      },
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const given = [values.create, values['create-file'], values.list, values.cancel].filter((v) => v !== undefined);
  if (given.length !== 1) throw new UsageError('give exactly one of --create, --create-file, --list, --cancel');
  if (values.create !== undefined) return { kind: 'create', json: values.create };
  if (values['create-file'] !== undefined) {
    try {
      return { kind: 'create', json: readFileSync(values['create-file'], 'utf8') };
    } catch (err) {
      throw new UsageError(`--create-file: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (values.cancel !== undefined) {
    if (!UUID.test(values.cancel)) throw new UsageError(`--cancel: expected a tournament id, got "${values.cancel}"`);
    return { kind: 'cancel', id: values.cancel };
  }
  return { kind: 'list' };
}

class InvalidConfigError extends Error {
  override readonly name = 'InvalidConfigError';
  constructor(readonly issues: readonly TournamentConfigIssue[]) {
    super('invalid tournament config');
  }
}

async function create(prisma: PrismaClient, json: string): Promise<string> {
  let input: unknown;
  try {
    input = JSON.parse(json);
  } catch (err) {
    throw new InvalidConfigError([
      { path: '', message: `not JSON: ${err instanceof Error ? err.message : String(err)}` },
    ]);
  }
  const parsed = safeParseTournamentConfig(input);
  if (!parsed.success) throw new InvalidConfigError(parsed.error.issues);
  const config = parsed.config;
  const issues = newTournamentIssues(config, Date.now());
  if (issues.length > 0) throw new InvalidConfigError(issues);
  const { id } = await createTournament(prisma, newTournament(config, null));
  return (
    `TOURNAMENT created id=${id} format=${config.format} game=${config.game} buy_in=${config.buyIn} fee=${config.fee} ` +
    `entrants=${config.entrants.min}..${config.entrants.max} starts_at=${config.startsAt ?? '-'} name=${JSON.stringify(config.name)}`
  );
}

async function list(prisma: PrismaClient): Promise<string[]> {
  // A stored config that does not parse is left out of the list, with a warning on stderr.
  const log = createLogger('tournaments', { level: 'warn', destination: process.stderr });
  const tournaments = new Tournaments(prisma, log);
  return (await tournaments.list(undefined, 200)).map(
    (t) =>
      `TOURNAMENT id=${t.id} status=${t.status} entrants=${t.entrants} prize_pool=${t.prize_pool} ` +
      `starts_at=${t.starts_at ?? '-'} name=${JSON.stringify(t.name)}`,
  );
}

async function main(): Promise<number> {
  let command: Command;
  try {
    command = parse(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`tournaments: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  const prisma = createPrisma(DATABASE_URL);
  try {
    if (command.kind === 'create') console.log(await create(prisma, command.json));
    if (command.kind === 'list') for (const line of await list(prisma)) console.log(line);
    if (command.kind === 'cancel') {
      const { refunded, replayed } = await cancelTournament(prisma, command.id);
      console.log(`TOURNAMENT cancelled id=${command.id} refunded=${refunded} replayed=${replayed}`);
    }
    return 0;
  } catch (err) {
    if (err instanceof InvalidConfigError) {
      for (const i of err.issues) console.error(`tournaments: ${i.path ? `${i.path}: ` : ''}${i.message}`);
      return 2;
    }
    if (err instanceof TournamentRefusedError) {
      console.error(`tournaments: refused (${err.reason}): ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await prisma.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`tournaments: failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
