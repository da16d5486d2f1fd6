// The monthly hand-history archive (docs/operations.md, "Hand history: partitions and retention"):
// every hand that ended in one calendar month (UTC) written to three files, and with `drop`, that
// month's partitions removed once the files are complete.
//
//   <out>/hands-YYYY-MM.jsonl  every hand, voided ones included: the stored row with the worker's full
//                              record (`payload`), one JSON object a line. Lossless: the engine replays it.
//   <out>/hands-YYYY-MM.phhs   the played hands in PHH (pokerkit's several-hands form, one [table] each)
//   <out>/hands-YYYY-MM.ohh    the played hands in OHH 1.4, one {"ohh": …} object a line
//
// A standard hand is written complete (the house dealt it and knows every card). An engine-blind hand
// is written as a spectator saw it: the server never knew a hole card its owner did not show.
import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { storedHandRecord } from '@felt/db';
import { Hand, toOhh, toPhh } from '@felt/engine';
import pg from 'pg';

export interface ArchiveOptions {
  /** YYYY-MM, UTC. */
  readonly month: string;
  readonly outDir: string;
  /** After the files are complete, remove the month's partitions. */
  readonly drop?: boolean;
  /** The current time, to refuse dropping a month that is not over. */
  readonly now?: Date;
}

export interface ArchiveResult {
  readonly month: string;
  /** Every hand of the month, written to the .jsonl file. */
  readonly hands: number;
  readonly voided: number;
  readonly phh: number;
  readonly ohh: number;
  /** Played hands a format could not express (the .jsonl holds them all the same), by format. */
  readonly skipped: { readonly phh: string[]; readonly ohh: string[] };
  readonly files: { readonly jsonl: string; readonly phhs: string; readonly ohh: string };
  /** sha256 of the .jsonl file, to check a copy against. */
  readonly sha256: string;
  readonly dropped: boolean;
}

export class ArchiveError extends Error {
  override readonly name = 'ArchiveError';
}

const PAGE = 500;
const TABLES = ['hand_pots', 'hand_cards', 'hand_actions', 'hand_players', 'hands'] as const;

/** The month's bounds, refusing anything but YYYY-MM. */
export function monthBounds(month: string): { from: Date; to: Date; suffix: string } {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) throw new ArchiveError(`--month must be YYYY-MM, not ${JSON.stringify(month)}`);
  const y = Number(m[1]);
  const mo = Number(m[2]);
  return {
    from: new Date(Date.UTC(y, mo - 1, 1)),
    to: new Date(Date.UTC(y, mo, 1)),
    suffix: `p${m[1]}_${m[2]}`,
  };
}

interface Row {
  hand_id: string;
  room_id: string;
  hand_no: number | null;
  ended_at: Date;
  dealing: string;
  voided_reason: string | null;
  payload: unknown;
  row: Record<string, unknown>;
  names: { seat: number; name: string }[] | null;
}

async function write(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve));
}

async function close(stream: WriteStream): Promise<void> {
  stream.end();
  await finished(stream);
}

/** Writes the month's files (under temporary names, renamed when complete), then drops if asked. */
export async function archiveMonth(databaseUrl: string, options: ArchiveOptions): Promise<ArchiveResult> {
  const { from, to, suffix } = monthBounds(options.month);
  const now = options.now ?? new Date();
  if (options.drop && to.getTime() > now.getTime()) {
    throw new ArchiveError(`${options.month} is not over yet: only a past month can be dropped`);
  }
  await mkdir(options.outDir, { recursive: true });
  const files = {
    jsonl: join(options.outDir, `hands-${options.month}.jsonl`),
    phhs: join(options.outDir, `hands-${options.month}.phhs`),
    ohh: join(options.outDir, `hands-${options.month}.ohh`),
  };
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'felt-history-archive' });
  await client.connect();
  try {
    const exists = await client.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [`hands_${suffix}`]);
    if (!exists.rows[0]?.ok) throw new ArchiveError(`no partition for ${options.month} (hands_${suffix})`);
    const out = {
      jsonl: createWriteStream(`${files.jsonl}.partial`),
      phhs: createWriteStream(`${files.phhs}.partial`),
      ohh: createWriteStream(`${files.ohh}.partial`),
    };
    const hash = createHash('sha256');
    let hands = 0;
    let voided = 0;
    let phh = 0;
    let ohh = 0;
    const skipped = { phh: [] as string[], ohh: [] as string[] };
    let after: { endedAt: Date; handId: string } | null = null;
    for (;;) {
      // Keyset pages over the month's partition, in the order the hands ended.
      const page: pg.QueryResult<Row> = await client.query<Row>(
        `SELECT h."hand_id", h."room_id"::text AS "room_id", h."hand_no", h."ended_at", h."dealing", h."voided_reason",
           h."payload", to_jsonb(h) - 'payload' AS "row",
           (SELECT json_agg(json_build_object('seat', p."seat", 'name', p."name") ORDER BY p."seat")
              FROM "hand_players" p WHERE p."hand_id" = h."hand_id" AND p."ended_at" = h."ended_at") AS "names"
         FROM "hands" h
         WHERE h."ended_at" >= $1 AND h."ended_at" < $2
           AND ($3::timestamptz IS NULL OR (h."ended_at", h."hand_id") > ($3::timestamptz, $4::text))
         ORDER BY h."ended_at", h."hand_id" LIMIT ${PAGE}`,
        [from, to, after?.endedAt ?? null, after?.handId ?? null],
      );
      for (const r of page.rows) {
        hands++;
        const line = `${JSON.stringify({ ...r.row, payload: r.payload })}\n`;
        hash.update(line);
        await write(out.jsonl, line);
        if (r.voided_reason !== null) {
          voided++;
          continue;
        }
        let hand: Hand;
        try {
          hand = Hand.fromJSON(storedHandRecord(r.payload).hand);
        } catch {
          skipped.phh.push(r.hand_id);
          skipped.ohh.push(r.hand_id);
          continue;
        }
        const view = r.dealing === 'engine_blind' ? { viewer: null } : {};
        const names = Object.fromEntries((r.names ?? []).map((p) => [p.seat, p.name]));
        try {
          const text = toPhh(hand, { names, ...view });
          await write(out.phhs, `${phh > 0 ? '\n' : ''}[${JSON.stringify(r.hand_id)}]\n${text.trimEnd()}\n`);
          phh++;
        } catch {
          skipped.phh.push(r.hand_id);
        }
        try {
          const history = toOhh(hand, { siteName: 'Felt', currency: 'XPM', ...view });
          history.ohh.game_number = r.hand_id;
          for (const p of history.ohh.players) p.name = names[p.seat] ?? p.name;
          await write(out.ohh, `${JSON.stringify(history)}\n`);
          ohh++;
        } catch {
          skipped.ohh.push(r.hand_id);
        }
      }
      const last = page.rows[page.rows.length - 1];
      if (!last || page.rows.length < PAGE) break;
      after = { endedAt: last.ended_at, handId: last.hand_id };
    }
    await Promise.all([close(out.jsonl), close(out.phhs), close(out.ohh)]);
    await rename(`${files.jsonl}.partial`, files.jsonl);
    await rename(`${files.phhs}.partial`, files.phhs);
    await rename(`${files.ohh}.partial`, files.ohh);
    let dropped = false;
    if (options.drop) {
      await dropMonth(client, suffix, hands);
      dropped = true;
    }
    return { month: options.month, hands, voided, phh, ohh, skipped, files, sha256: hash.digest('hex'), dropped };
  } finally {
    await client.end();
  }
}

/**
 * Removes an archived month's partitions in one transaction, children first. The key tables
 * (`hand_ids`, `hand_numbers`) keep the month's rows: an id or number once used stays used, and the
 * audit counts a hand with a key and no row as archived. Refused when the month now holds another
 * number of hands than the archive wrote (one arrived since), or when a player still seated needs the
 * month's hands for the audit to rebuild their stack (a seat taken before the month's last hand in
 * its room).
 */
async function dropMonth(client: pg.Client, suffix: string, archived: number): Promise<void> {
  await client.query('BEGIN');
  try {
    // Writers of this month wait behind this lock until the partitions are gone (and then fail).
    await client.query(`LOCK TABLE "hands_${suffix}" IN ACCESS EXCLUSIVE MODE`);
    const count = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM "hands_${suffix}"`);
    if (Number(count.rows[0]?.n) !== archived) {
      throw new ArchiveError(
        `the month now holds ${count.rows[0]?.n} hands, not the ${archived} archived: run it again`,
      );
    }
    const seated = await client.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM "memberships" m
       JOIN (SELECT "room_id", max("hand_no") AS "last" FROM "hands_${suffix}" WHERE "hand_no" IS NOT NULL
             GROUP BY "room_id") h ON h."room_id" = m."room_id"
       WHERE m."status" = 'active' AND m."joined_after_hand" < h."last"`,
    );
    if (Number(seated.rows[0]?.n) > 0) {
      throw new ArchiveError(
        `${seated.rows[0]?.n} players still seated played hands of this month: drop it once they have left`,
      );
    }
    for (const table of TABLES) {
      await client.query(`ALTER TABLE "${table}" DETACH PARTITION "${table}_${suffix}"`);
      await client.query(`DROP TABLE "${table}_${suffix}"`);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
