// `npm run history:archive -- --month YYYY-MM --out DIR [--drop]`: writes the month's hand history
// to DIR (hands-YYYY-MM.jsonl, .phhs, .ohh; scripts/history/archive.ts), and with --drop then removes
// the month's partitions (docs/operations.md, "Hand history: partitions and retention"). Prints one
// line; exits 0 when done, 2 when it could not run.
//
//   DATABASE_URL=... npm run history:archive -- --month 2026-11 --out /backups/hands [--drop]
import { parseArgs } from 'node:util';
import { ArchiveError, archiveMonth } from './history/archive.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/felt';

async function main(): Promise<number> {
  let values: { month?: string; out?: string; drop?: boolean };
  try {
    ({ values } = parseArgs({
      options: { month: { type: 'string' }, out: { type: 'string' }, drop: { type: 'boolean', default: false } },
    }));
  } catch (err) {
    console.error(`history:archive: ${(err as Error).message}`);
    return 2;
  }
  if (!values.month || !values.out) {
    console.error('usage: npm run history:archive -- --month YYYY-MM --out DIR [--drop]');
    return 2;
  }
  try {
    const r = await archiveMonth(DATABASE_URL, { month: values.month, outDir: values.out, drop: values.drop === true });
    console.log(
      `ARCHIVE month=${r.month} hands=${r.hands} voided=${r.voided} phh=${r.phh} ohh=${r.ohh} ` +
        `phh_skipped=${r.skipped.phh.length} ohh_skipped=${r.skipped.ohh.length} dropped=${r.dropped} ` +
        `sha256=${r.sha256} jsonl=${r.files.jsonl}`,
    );
    return 0;
  } catch (err) {
    console.error(`history:archive: ${err instanceof ArchiveError ? err.message : String(err)}`);
    return 2;
  }
}

process.exitCode = await main();
