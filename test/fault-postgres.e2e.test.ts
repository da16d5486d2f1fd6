// Postgres stopped as a crash stops it (pg_ctl -m immediate) in the middle of a hand, on a server of
// the test's own (test/harness/private-postgres.ts), never the shared one, then started again:
// - while it is down the tables deal on from Redis (the hands queue holds their records), and the
//   lobby says it cannot serve (its readiness and its database routes answer 503, never 500);
// - once it is back the lobby serves again, the persister writes the hands that waited, and nothing
//   is lost: every acked action is in its hand's record, no chip is made or lost, the audit is clean
//   and every client converges.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemTotal } from '../scripts/chaos/checks.js';
import { Cluster } from './harness/cluster.js';
import { expectNothingLost } from './harness/fault-checks.js';
import { LobbyClient } from './harness/lobby-client.js';
import { PrivatePostgres } from './harness/private-postgres.js';
import { HandRecords } from './harness/privacy.js';
import { waitFor } from './harness/wait.js';
import { TableCrew } from './sdk/crew.js';

let server: PrivatePostgres;
let cluster: Cluster;
let redis: Redis;
let records: HandRecords;
let crew: TableCrew | undefined;

beforeAll(async () => {
  server = await PrivatePostgres.start();
  cluster = await Cluster.start({
    workers: 2,
    gateways: 2,
    lobby: true,
    persister: true,
    postgresAdminUrl: server.adminUrl,
    env: {
      FELT_MEMBER_TTL_MS: '15000',
      FELT_ACTION_MS: '5000',
      FELT_TIME_BANK_MS: '0',
      FELT_WARNING_MS: '1000',
      FELT_HAND_PAUSE_MS: '200',
    },
  });
  redis = new Redis(cluster.redisUrl);
  records = new HandRecords(cluster.redisUrl, cluster.prefix);
});

afterAll(async () => {
  if (crew) for (const m of crew.members) m.client.close();
  await records?.close();
  redis?.disconnect();
  await cluster?.stop().catch(() => undefined);
  await server?.stop();
});

async function status(url: string, cookie?: string): Promise<number> {
  return (await fetch(url, cookie ? { headers: { cookie } } : {})).status;
}

describe('Postgres restarted', () => {
  it(
    'mid-hand: tables deal on from Redis, the lobby answers 503 meanwhile, then everything is written and nothing is lost',
    { timeout: 300_000 },
    async () => {
      crew = await TableCrew.create({
        lobbyUrl: cluster.lobby!.url,
        game: 'holdem',
        limit: 'fl',
        players: 3,
        spectators: 1,
        namePrefix: `fp${randomBytes(3).toString('hex')}`,
        seed: 19,
      });
      await crew.waitHands(2, 60_000);
      const totalBefore = await systemTotal(cluster);
      // Someone browsing the lobby through the outage.
      const browser = await new LobbyClient(cluster.lobby!.url).signUp(`fb${randomBytes(3).toString('hex')}`);
      const rooms = `${cluster.lobby!.url}/api/rooms`;

      // The exact step: a hand is being bet, so a turn, a checkpoint and the pub/sub streams are live.
      const watcher = crew.members[0]!;
      await waitFor('a hand in its betting', () => watcher.session.state?.phase === 'betting', 30_000, 5);
      const hands = crew.handsCompleted.size;
      await server.kill();

      // Down: the lobby is not ready and refuses database routes with 503; the tables play on.
      await waitFor('the lobby not ready', async () => (await status(`${cluster.lobby!.opsUrl}/readyz`)) === 503);
      const refused = await fetch(rooms, { headers: { cookie: browser.cookie } });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toMatchObject({ error: { code: 'unavailable' } });
      await crew.waitHands(hands + 2, 90_000);

      await server.startServer();
      await waitFor('the lobby ready again', async () => (await status(`${cluster.lobby!.opsUrl}/readyz`)) === 200);
      expect(await status(rooms, browser.cookie)).toBe(200);
      await crew.waitHands(crew.handsCompleted.size + 2, 90_000);
      for (const p of cluster.processes()) expect(p.alive, p.name).toBe(true);

      await expectNothingLost(cluster, redis, records, crew, totalBefore);
    },
  );
});
