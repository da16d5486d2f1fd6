// `npm run bankroll`: the operator's view of the house bankroll, the account bots buy in from
// (docs/operations.md, "Money"). With `--add N` it first funds the bankroll with N chips from the
// grant source, one ledger transaction like any other (idempotent on `--key`, so a retried command
// funds once). Prints one `BANKROLL …` line; exits 0, 2 when it could not run or the arguments are bad.
//
//   DATABASE_URL=... npm run bankroll [-- --add N [--key K] [--memo TEXT]]
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { bankrollFlows, createPrisma, fundHouseBankroll } from '@felt/db';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/felt';
const USAGE = 'usage: npm run bankroll [-- --add N [--key K] [--memo TEXT]]';

class UsageError extends Error {}

function parse(argv: string[]): { add: bigint | null; key: string; memo: string | undefined } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { add: { type: 'string' }, key: { type: 'string' }, memo: { type: 'string' } },
      strict: true,
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  let add: bigint | null = null;
  if (values.add !== undefined) {
    if (!/^[1-9]\d{0,15}$/.test(values.add)) throw new UsageError('--add takes a positive whole number of chips');
    add = BigInt(values.add);
  }
  if (values.key !== undefined && !/^[\w.:-]{1,100}$/.test(values.key)) {
    throw new UsageError('--key is 1..100 letters, digits, _ . : or -');
  }
  if (values.key !== undefined && add === null) throw new UsageError('--key goes with --add');
  return { add, key: values.key ?? randomUUID(), memo: values.memo };
}

async function main(): Promise<number> {
  let args;
  try {
    args = parse(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`BANKROLL ${err.message}\n${USAGE}`);
      return 2;
    }
    throw err;
  }
  const prisma = createPrisma(DATABASE_URL, { maxConnections: 2 });
  try {
    if (args.add !== null) {
      const posted = await fundHouseBankroll(prisma, args.add, args.key, args.memo);
      console.log(`BANKROLL funded=${args.add} key=bankroll:${args.key}${posted.replayed ? ' replayed=true' : ''}`);
    }
    const { report } = await bankrollFlows(prisma);
    console.log(
      `BANKROLL balance=${report.balance} funded=${report.funded} staked=${report.staked} ` +
        `returned=${report.returned} staked_24h=${report.stakedToday}`,
    );
    return 0;
  } finally {
    await prisma.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`BANKROLL could not run: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
