// felt_dependency_up at scrape time: a real Redis that answers, one that is not there (a closed
// port), and a check that never answers (a stalled link), each read through the registry's text.
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { registerDependencyGauge } from './dependencies.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const clients: Redis[] = [];

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const address = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

afterAll(() => {
  for (const c of clients) c.disconnect();
});

function value(text: string, dependency: string): number | undefined {
  const m = new RegExp(`^felt_dependency_up\\{dependency="${dependency}"\\} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
}

describe('felt_dependency_up', () => {
  it('is 1 for a dependency that answers and 0 for one that is down or does not answer in time', async () => {
    const up = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const down = new Redis({ host: '127.0.0.1', port: await closedPort(), maxRetriesPerRequest: 0, lazyConnect: true });
    down.on('error', () => undefined);
    clients.push(up, down);
    const registry = new Registry();
    registerDependencyGauge(registry, { redis: () => up.ping(), postgres: () => new Promise(() => undefined) }, 200);
    const other = new Registry();
    registerDependencyGauge(other, { redis: () => down.ping() }, 2_000);

    const text = await registry.metrics();
    expect(value(text, 'redis')).toBe(1);
    expect(value(text, 'postgres')).toBe(0);
    expect(value(await other.metrics(), 'redis')).toBe(0);
  });

  it('follows the dependency from one scrape to the next', async () => {
    let healthy = true;
    const registry = new Registry();
    registerDependencyGauge(registry, {
      postgres: () => (healthy ? Promise.resolve(1) : Promise.reject(new Error('connection refused'))),
    });
    expect(value(await registry.metrics(), 'postgres')).toBe(1);
    healthy = false;
    expect(value(await registry.metrics(), 'postgres')).toBe(0);
    healthy = true;
    expect(value(await registry.metrics(), 'postgres')).toBe(1);
  });
});
