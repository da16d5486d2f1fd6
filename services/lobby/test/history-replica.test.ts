// Hand history read from a Postgres read replica (DATABASE_REPLICA_URL): a primary and a hot standby
// of the test's own (test/harness/private-postgres.ts), never the shared server. The list reads the
// replica (a hand written while its replay is paused is not listed until it resumes); a hand the
// replica does not have yet still opens (looked up on the primary); a replica that is down is no
// player's problem (the primary answers), and each fallback is counted.
import { createPrisma } from '@felt/db';
import { SeededRng } from '@felt/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrivatePostgres } from '../../../test/harness/private-postgres.js';
import { directSink } from '../../../test/money/fixtures.js';
import { SimTable, type HandJob } from '../../../test/money/sim-table.js';
import { startHarness, type Client, type Harness } from './harness.js';

let primary: PrivatePostgres;
let standby: PrivatePostgres;
let h: Harness;
let player: Client & { id: string };
let table: SimTable;
let sink: ReturnType<typeof directSink>;

beforeAll(async () => {
  primary = await PrivatePostgres.start();
  standby = await PrivatePostgres.startStandby(primary);
  h = await startHarness(
    {},
    { postgresAdminUrl: primary.adminUrl, replicaOf: (name) => createPrisma(standby.url(name)) },
  );
  const players = [await h.user(), await h.user()];
  player = players[0]!;
  const created = await player.post<{ session_id: string; code: string }>('/api/rooms', {
    config: { game: 'holdem', stakes: { smallBlind: 1, bigBlind: 2 } },
    sit: { buy_in: 200 },
  });
  await players[1]!.post('/api/rooms/join', { code: created.body.code, buy_in: 200 });
  sink = directSink(h.db.prisma);
  table = await SimTable.load(h.db.prisma, created.body.session_id, sink, new SeededRng('replica'));
  for (let i = 0; i < 2; i++) await table.playHand();
  await standby.caughtUpWith(primary);
}, 120_000);

afterAll(async () => {
  await h?.close();
  await standby?.stop();
  await primary?.stop();
});

async function listed(): Promise<string[]> {
  const res = await player.get<{ hands: { hand_id: string }[] }>('/api/hands?page_size=50');
  expect(res.status).toBe(200);
  return res.body.hands.map((x) => x.hand_id);
}

async function fallbacks(reason: string): Promise<number> {
  const text = (await player.ops<string>('/metrics')).body;
  const m = new RegExp(`felt_lobby_history_replica_fallbacks_total\\{[^}]*reason="${reason}"[^}]*\\} (\\d+)`).exec(
    text,
  );
  return m ? Number(m[1]) : 0;
}

const ids = (jobs: readonly HandJob[]) => jobs.map((j) => j.hand_id);

describe('hand history on a read replica', () => {
  it('lists from the replica; a hand it lacks yet opens from the primary', { timeout: 60_000 }, async () => {
    expect(await listed()).toEqual(ids(sink.hands).reverse());

    await standby.query('SELECT pg_wal_replay_pause()');
    await table.playHand();
    const newest = sink.hands.at(-1)!.hand_id;
    // The replica has not replayed it: the list (read there) does not have it yet...
    expect(await listed()).not.toContain(newest);
    // ...but asked for by id it opens, from the primary, counted as a lagging read.
    const lagging = await fallbacks('lagging');
    const detail = await player.get<{ hand_id: string }>(`/api/hands/${newest}`);
    expect(detail.status).toBe(200);
    expect(detail.body.hand_id).toBe(newest);
    expect(await fallbacks('lagging')).toBe(lagging + 1);
    // A hand nobody has is still 404.
    const missing = await player.get('/api/hands/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);

    await standby.query('SELECT pg_wal_replay_resume()');
    await standby.caughtUpWith(primary);
    expect(await listed()).toEqual(ids(sink.hands).reverse());
  });

  it('a replica that is down: the primary answers every history read', { timeout: 60_000 }, async () => {
    await standby.kill();
    await table.playHand();
    const failed = await fallbacks('failed');
    expect(await listed()).toEqual(ids(sink.hands).reverse());
    const newest = sink.hands.at(-1)!.hand_id;
    for (const path of ['', '/reveal', '/ohh', '/phh']) {
      const res = await player.get(`/api/hands/${newest}${path}`);
      expect(res.status, path).toBe(200);
    }
    expect(await fallbacks('failed')).toBeGreaterThanOrEqual(failed + 5);
  });
});
