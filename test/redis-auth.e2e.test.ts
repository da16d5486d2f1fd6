// Felt on a Redis that requires TLS and an ACL user, as managed Redis services and a hardened
// in-cluster one do: REDIS_URL=rediss://user:password@host with the CA in NODE_EXTRA_CA_CERTS. A
// private redis-server of this test's (TLS only, default user off) and the whole cluster on it: a
// hand is played, persisted and reported healthy; a client without the password, or without TLS, is
// refused by the server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDevCertificates, type DevCertificates } from '../scripts/dev-certs.js';
import { Cluster } from './harness/cluster.js';
import { PrivateRedis } from './harness/private-redis.js';
import type { TableClient } from './harness/table-client.js';
import { dealAndFold } from './harness/table-ops.js';
import { waitFor } from './harness/wait.js';

const USER = { name: 'felt', password: `pw-${randomUUID()}` };
let certsDir: string;
let certs: DevCertificates;
let server: PrivateRedis;
let cluster: Cluster;
const open: TableClient[] = [];

beforeAll(async () => {
  certsDir = mkdtempSync(join(tmpdir(), 'felt-redis-tls-'));
  certs = ensureDevCertificates(certsDir);
  // The worker's certificate serves for localhost and 127.0.0.1, which is all the server needs here.
  server = await PrivateRedis.start({
    tls: { cert: certs.worker.FELT_GRPC_TLS_CERT, key: certs.worker.FELT_GRPC_TLS_KEY, ca: join(certs.dir, 'ca.crt') },
    user: USER,
  });
  cluster = await Cluster.start({
    gateways: 1,
    workers: 1,
    lobby: true,
    persister: true,
    redisUrl: server.url,
    redisCa: join(certs.dir, 'ca.crt'),
    env: { FELT_HAND_PAUSE_MS: '200', FELT_SEED_WINDOW_MS: '300' },
  });
});

afterAll(async () => {
  for (const c of open) c.close();
  await cluster?.stop();
  await server?.stop();
  if (certsDir) rmSync(certsDir, { recursive: true, force: true });
});

async function refusal(client: Redis): Promise<string> {
  client.on('error', () => undefined);
  try {
    await client.ping();
    return 'answered';
  } catch (err) {
    return (err as Error).message;
  } finally {
    client.disconnect();
  }
}

describe('Redis with TLS and an ACL user', () => {
  it('the server refuses a wrong password, no user, and plaintext', async () => {
    const base = { lazyConnect: false, maxRetriesPerRequest: 0, retryStrategy: () => null, ...server.clientOptions() };
    const wrong = server.url.replace(encodeURIComponent(USER.password), 'not-the-password');
    expect(await refusal(new Redis(wrong, base))).toMatch(/WRONGPASS|invalid username-password/);
    const anonymous = server.url.replace(/\/\/[^@]+@/, '//');
    expect(await refusal(new Redis(anonymous, base))).toMatch(/NOAUTH|Authentication required/);
    const plaintext = server.url.replace('rediss://', 'redis://');
    expect(await refusal(new Redis(plaintext, { ...base, tls: undefined }))).not.toBe('answered');
  });

  it('the cluster plays, persists and reports Redis up through rediss:// with the user', async () => {
    const { tableId, handId, clients } = await dealAndFold(cluster);
    open.push(...clients);

    // The hand job went through the queue on that Redis and the persister wrote it.
    const hand = await waitFor('the hand in Postgres', () =>
      cluster.db.prisma.hand.findFirst({ where: { handId } }).then((h) => h ?? undefined),
    );
    expect(hand.roomId).toBe(tableId);
    // Every service says Redis answers.
    for (const url of [
      cluster.gateways[0]!.httpUrl,
      cluster.workers[0]!.httpUrl,
      cluster.persister!.httpUrl,
      cluster.lobby!.opsUrl,
    ]) {
      const text = await (await fetch(`${url}/metrics`)).text();
      expect(text, url).toMatch(/felt_dependency_up\{dependency="redis",service="[a-z-]+"\} 1/);
    }
  });
});
