// `npm run accounts -- --create N [--prefix P]`: creates load accounts P1 … PN directly in Postgres,
// as the lobby's sign-up does (the same scrypt hash, the user row, the wallet and the sign-up grant
// in one transaction), so that a load run logs in instead of starting with a sign-up storm. Names
// that exist already are left alone, so the command can be run again. Prints one `ACCOUNTS …` line;
// exits 0, 1 when some account could not be made, 2 on bad arguments.
//
//   DATABASE_URL=... npm run accounts -- --create 1000 --prefix load- [--password-scheme '{name}:secret']
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createPrisma, grant, isUniqueViolation, openWallet, withTransaction, type PrismaClient } from '@felt/db';
import {
  AccountSchemeError,
  DEFAULT_ACCOUNT_PREFIX,
  DEFAULT_PASSWORD_SCHEME,
  PASSWORD_SCHEME_ENV,
  accountName,
  checkAccounts,
  passwordFor,
} from '@felt/loadtest';
// The lobby's own hashing (a service, so no package entry): the same parameters and format, by construction.
import { DEFAULT_SCRYPT, hashPassword } from '../services/lobby/src/passwords.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/felt';
/** The lobby's default FELT_SIGNUP_GRANT (services/lobby config). */
const LOBBY_DEFAULT_GRANT = 10_000;

const USAGE = `usage: npm run accounts -- --create N [--prefix P] [--password-scheme T] [--grant CHIPS] [--concurrency K]

  --create N            accounts P1 … PN (1..100000); names that exist are left as they are
  --prefix P            account name prefix (default ${DEFAULT_ACCOUNT_PREFIX})
  --password-scheme T   password template, {name} and {n} replaced (default: $${PASSWORD_SCHEME_ENV}, else ${DEFAULT_PASSWORD_SCHEME})
  --grant CHIPS         sign-up grant per new account (default: $FELT_SIGNUP_GRANT, else ${LOBBY_DEFAULT_GRANT}); 0 for none
  --concurrency K       password hashes at once (default: the CPUs, at most 8); accounts are written
                        max(K, 8) at a time

A template without {name} or {n} (the default) gives every account the same password, which is
hashed once; with one, each account costs a scrypt hash (about 0.1-0.2 s of CPU).

Writes to DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/felt).`;

class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'bad_usage';
}

interface AccountsArgs {
  readonly count: number;
  readonly prefix: string;
  readonly scheme: string;
  readonly grant: bigint;
  readonly concurrency: number;
}

function whole(option: string, raw: string, min: number, max: number): number {
  if (!/^\d{1,12}$/.test(raw)) throw new UsageError(`--${option}: expected a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`--${option}: expected ${min}..${max}, got ${n}`);
  return n;
}

function parse(argv: string[]): AccountsArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        create: { type: 'string' },
        prefix: { type: 'string' },
        'password-scheme': { type: 'string' },
        grant: { type: 'string' },
        concurrency: { type: 'string' },
      },
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.create === undefined) throw new UsageError('--create N is required');
  const count = whole('create', values.create, 1, 100_000);
  const prefix = values.prefix ?? DEFAULT_ACCOUNT_PREFIX;
  const scheme = values['password-scheme'] ?? process.env[PASSWORD_SCHEME_ENV] ?? DEFAULT_PASSWORD_SCHEME;
  const grantRaw = values.grant ?? process.env.FELT_SIGNUP_GRANT ?? String(LOBBY_DEFAULT_GRANT);
  const grantChips = whole(
    values.grant !== undefined ? 'grant' : 'grant (FELT_SIGNUP_GRANT)',
    grantRaw,
    0,
    1_000_000_000,
  );
  const concurrency =
    values.concurrency === undefined
      ? Math.min(8, availableParallelism())
      : whole('concurrency', values.concurrency, 1, 64);
  try {
    checkAccounts(prefix, scheme, 1, count);
  } catch (err) {
    if (err instanceof AccountSchemeError) throw new UsageError(`--${err.subject}: ${err.message}`);
    throw err;
  }
  return { count, prefix, scheme, grant: BigInt(grantChips), concurrency };
}

const Outcome = { CREATED: 'created', EXISTING: 'existing' } as const;
type Outcome = (typeof Outcome)[keyof typeof Outcome];

/** At most `limit` of the calls at once. */
class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * The lobby's hashPassword, at most `concurrency` at once, once per distinct password: accounts that
 * share a password (a template without placeholders) share its hash, which reveals nothing the
 * template does not.
 */
function passwordHasher(concurrency: number): (password: string) => Promise<string> {
  const gate = new Gate(concurrency);
  const hashes = new Map<string, Promise<string>>();
  return (password) => {
    let hash = hashes.get(password);
    if (!hash) {
      hash = gate.run(() => hashPassword(password, DEFAULT_SCRYPT));
      hashes.set(password, hash);
    }
    return hash;
  };
}

/** The lobby's sign-up (services/lobby accounts.ts, Accounts.signUp), without the session it issues. */
async function createAccount(
  prisma: PrismaClient,
  name: string,
  passwordHash: string,
  amount: bigint,
): Promise<Outcome> {
  try {
    await withTransaction(prisma, async (tx) => {
      const created = await tx.user.create({
        data: { name, nameKey: name.toLowerCase(), passwordHash },
        select: { id: true },
      });
      await openWallet(tx, created.id);
      if (amount > 0n) {
        await grant(tx, {
          userId: created.id,
          amount,
          idempotencyKey: `signup-grant:${created.id}`,
          memo: { reason: 'signup' },
        });
      }
    });
    return Outcome.CREATED;
  } catch (err) {
    // Made meanwhile (another run, or someone signing up with the name): it exists, which is the goal.
    if (isUniqueViolation(err, 'users_name_key_key')) return Outcome.EXISTING;
    throw err;
  }
}

async function main(): Promise<number> {
  let args: AccountsArgs;
  try {
    args = parse(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  const started = performance.now();
  const writers = Math.max(args.concurrency, 8);
  const prisma = createPrisma(DATABASE_URL, { maxConnections: writers + 1 });
  try {
    const names = Array.from({ length: args.count }, (_, i) => accountName(args.prefix, i + 1));
    const existing = new Set<string>();
    for (let i = 0; i < names.length; i += 1000) {
      const rows = await prisma.user.findMany({
        where: { nameKey: { in: names.slice(i, i + 1000).map((n) => n.toLowerCase()) } },
        select: { nameKey: true },
      });
      for (const r of rows) existing.add(r.nameKey);
    }
    const todo = names.map((name, i) => ({ name, n: i + 1 })).filter((a) => !existing.has(a.name.toLowerCase()));

    let created = 0;
    let raced = 0;
    const failures: string[] = [];
    let next = 0;
    const hash = passwordHasher(args.concurrency);
    // Each writer hashes (scrypt on the libuv pool, through the gate) and then writes; one writer's
    // transaction overlaps the others' hashing.
    const worker = async (): Promise<void> => {
      for (let a = todo[next++]; a !== undefined; a = todo[next++]) {
        try {
          const passwordHash = await hash(passwordFor(args.scheme, a.name, a.n));
          const outcome = await createAccount(prisma, a.name, passwordHash, args.grant);
          if (outcome === Outcome.CREATED) created++;
          else raced++;
        } catch (err) {
          failures.push(`${a.name}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(writers, Math.max(1, todo.length)) }, worker));

    for (const f of failures.slice(0, 20)) process.stderr.write(`accounts: failed ${f}\n`);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `ACCOUNTS created=${created} existing=${existing.size + raced} failed=${failures.length} ` +
        `prefix=${args.prefix} first=${names[0]} last=${names.at(-1)} grant=${args.grant} seconds=${seconds}\n`,
    );
    return failures.length === 0 ? 0 : 1;
  } finally {
    await prisma.$disconnect();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`accounts: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
