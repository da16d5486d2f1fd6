// The monthly hand-history archive and retention drop (scripts/history/archive.ts, docs/operations.md
// "Hand history: partitions and retention"), on a real Postgres database: a month's hands written as
// JSON lines, PHH and OHH, its partitions dropped only when the files are complete and nobody seated
// still needs them, and the money audit still clean afterwards.
import { readFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, persistVoidedHand, runAudit, storedHandRecord, type TestDatabase } from '@felt/db';
import { Hand, SeededRng, toPhh } from '@felt/engine';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveError, archiveMonth } from '../scripts/history/archive.js';
import { createRoom, directSink } from './money/fixtures.js';
import { SimTable } from './money/sim-table.js';

let db: TestDatabase;
let out: string;

beforeAll(async () => {
  db = await createTestDatabase();
  out = mkdtempSync(join(tmpdir(), 'felt-archive-'));
});

afterAll(async () => {
  await db?.drop();
  rmSync(out, { recursive: true, force: true });
});

async function one<T>(sql: string, values: unknown[] = []): Promise<T> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows[0] as T;
  } finally {
    await client.end();
  }
}

describe('history:archive', () => {
  it('writes a month to JSON lines, PHH and OHH, then drops it; other months and the audit stay whole', async () => {
    // Four hands in December 2026 (the reference table's clock), a voided one beside them, and a voided
    // one in January 2027 that must survive the drop.
    const room = await createRoom(db.prisma, [
      { name: 'arch_a', buyIn: 200 },
      { name: 'arch_b', buyIn: 200 },
      { name: 'arch_c', buyIn: 200 },
    ]);
    const sink = directSink(db.prisma);
    const table = await SimTable.load(db.prisma, room.roomId, sink, new SeededRng('archive'));
    for (let i = 0; i < 4; i++) expect(await table.playHand()).toBe(true);
    const voided = (id: string, at: string) =>
      persistVoidedHand(db.prisma, {
        kind: 'voided',
        hand_id: id,
        room_id: room.roomId,
        reason: 'checkpoint_lost',
        voided_at: at,
        players: room.users.map((u, i) => ({ seat: i + 1, user_id: u.id, name: u.name, stack: 200 })),
      });
    await voided('0f0e0d0c-0b0a-4909-8807-0605040302a1', '2026-12-20T10:00:00.000Z');
    await voided('0f0e0d0c-0b0a-4909-8807-0605040302a2', '2027-01-10T10:00:00.000Z');
    const now = new Date('2027-02-01T00:00:00.000Z');

    // A month not over yet, a malformed month and a month without partitions are refused.
    await expect(archiveMonth(db.url, { month: '2027-02', outDir: out, drop: true, now })).rejects.toThrow(
      ArchiveError,
    );
    await expect(archiveMonth(db.url, { month: '2026-13', outDir: out })).rejects.toThrow(/YYYY-MM/);
    await expect(archiveMonth(db.url, { month: '1999-01', outDir: out })).rejects.toThrow(/no partition/);

    // Players still seated played December's hands: the audit needs them, so the drop is refused
    // (the files are written all the same).
    await expect(archiveMonth(db.url, { month: '2026-12', outDir: out, drop: true, now })).rejects.toThrow(
      /still seated/,
    );
    expect(await one<{ ok: boolean }>(`SELECT to_regclass('hands_p2026_12') IS NOT NULL AS ok`)).toEqual({ ok: true });

    // The names the archive writes, read before the rows go.
    const names = new Map<string, Record<number, string>>();
    for (const job of sink.hands) {
      const players = await db.prisma.handPlayer.findMany({ where: { handId: job.hand_id } });
      names.set(job.hand_id, Object.fromEntries(players.map((p) => [p.seat, p.name])));
    }

    // They leave (the table pays them out), and the drop goes through.
    await db.prisma.membership.updateMany({ where: { roomId: room.roomId }, data: { leaveRequestedAt: new Date() } });
    await table.sync();
    const result = await archiveMonth(db.url, { month: '2026-12', outDir: out, drop: true, now });
    expect(result).toMatchObject({ month: '2026-12', hands: 5, voided: 1, phh: 4, ohh: 4, dropped: true });
    expect(result.skipped).toEqual({ phh: [], ohh: [] });

    // The JSON lines hold every hand with its full record.
    const lines = (await readFile(result.files.jsonl, 'utf8')).trimEnd().split('\n');
    const rows = lines.map(
      (l) => JSON.parse(l) as { hand_id: string; payload: { hand?: unknown }; voided_reason: string | null },
    );
    expect(rows.map((r) => r.hand_id).sort()).toEqual(
      [...sink.hands.map((j) => j.hand_id), '0f0e0d0c-0b0a-4909-8807-0605040302a1'].sort(),
    );
    for (const job of sink.hands) {
      expect(storedHandRecord(rows.find((r) => r.hand_id === job.hand_id)!.payload)).toEqual(job.payload);
    }
    // PHH: one table per hand, each the complete record the engine writes for it.
    const phhs = await readFile(result.files.phhs, 'utf8');
    for (const job of sink.hands) {
      const hand = Hand.fromJSON(job.payload.hand);
      const section = phhs.split(`[${JSON.stringify(job.hand_id)}]\n`)[1]!.split('\n[')[0]!;
      expect(section.trimEnd()).toBe(toPhh(hand, { names: names.get(job.hand_id)! }).trimEnd());
    }
    // OHH: one object a line, numbered by hand id.
    const ohh = (await readFile(result.files.ohh, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { ohh: { game_number: string } });
    expect(ohh.map((o) => o.ohh.game_number).sort()).toEqual(sink.hands.map((j) => j.hand_id).sort());

    // December's partitions are gone; January's hand is still read by its id; the keys remain.
    for (const t of ['hands', 'hand_players', 'hand_actions', 'hand_cards', 'hand_pots']) {
      expect(await one<{ ok: boolean }>(`SELECT to_regclass($1) IS NULL AS ok`, [`${t}_p2026_12`])).toEqual({
        ok: true,
      });
    }
    expect(await db.prisma.hand.count()).toBe(1);
    expect(await db.prisma.handKey.count()).toBe(6);
    expect(await db.prisma.handNumber.count({ where: { roomId: room.roomId } })).toBe(4);
    // A dropped hand's id cannot be used again.
    await expect(voided('0f0e0d0c-0b0a-4909-8807-0605040302a1', '2027-01-11T10:00:00.000Z')).rejects.toThrow();

    // The money still reconciles: the archived hands' postings are known as archived, the room's hand
    // numbers are still all there.
    const report = await runAudit(db.prisma);
    expect(report.issues).toEqual([]);
  }, 120_000);
});
