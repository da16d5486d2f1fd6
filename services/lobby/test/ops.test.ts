import { closeRedis, createRedis } from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

describe('operations endpoints', () => {
  it('answers /healthz and /readyz when Postgres and Redis answer', async () => {
    const c = h.client();
    expect(await c.get('/healthz')).toMatchObject({ status: 200, body: { ok: true } });
    expect(await c.ops('/readyz')).toMatchObject({
      status: 200,
      body: { ready: true, checks: { postgres: true, redis: true } },
    });
  });

  it('reports not ready when Redis does not answer', async () => {
    // Nothing listens on port 1; one try, no retries.
    const deadRedis = createRedis('redis://127.0.0.1:1', { name: 'dead', maxRetriesPerRequest: 0 });
    deadRedis.on('error', () => undefined);
    const broken = await startHarness({ redis: deadRedis });
    try {
      const res = await broken.client().ops('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ ready: false, checks: { postgres: true, redis: false } });
    } finally {
      deadRedis.disconnect();
      await broken.db.drop();
      await closeRedis(broken.redis);
    }
  });

  it('serves Prometheus metrics: request counts and latency by route and status', async () => {
    const c = h.client();
    await c.get('/api/config');
    await c.get('/api/me');
    await c.get('/api/rooms/00000000-0000-4000-8000-000000000000');
    await c.get('/no/such/thing');
    const res = await c.ops<string>('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    expect(res.body).toMatch(
      /felt_lobby_http_requests_total\{method="GET",route="\/api\/config",status="200",service="lobby"\} \d+/,
    );
    expect(res.body).toMatch(/felt_lobby_http_requests_total\{method="GET",route="\/api\/me",status="401"/);
    // Labels use the route pattern, not the raw path, so ids don't explode the series.
    expect(res.body).toMatch(/route="\/api\/rooms\/:id",status="401"/);
    expect(res.body).not.toContain('00000000-0000-4000-8000-000000000000');
    expect(res.body).toMatch(/route="unmatched",status="404"/);
    expect(res.body).toMatch(/felt_lobby_http_request_duration_seconds_bucket\{le="0.005",[^}]*route="\/api\/config"/);
    expect(res.body).toMatch(
      /felt_lobby_http_request_duration_seconds_count\{[^}]*route="\/api\/config",status="200"\} 1/,
    );
    expect(res.body).toContain('process_cpu_seconds_total');
  });

  it('serves an OpenAPI 3 document that describes every API route', async () => {
    const res = await h.client().get<{
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
    }>('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths).sort()).toEqual(
      [
        '/api/auth/login',
        '/api/auth/logout',
        '/api/auth/logout-all',
        '/api/auth/signup',
        '/api/config',
        '/api/hands',
        '/api/hands/{id}',
        '/api/hands/{id}/ohh',
        '/api/hands/{id}/phh',
        '/api/hands/{id}/reveal',
        '/api/me',
        '/api/rooms',
        '/api/rooms/join',
        '/api/rooms/quick-join',
        '/api/rooms/{id}',
        '/api/rooms/{id}/chat',
        '/api/rooms/{id}/leave',
        '/api/rooms/{id}/top-up',
        '/api/rooms/{id}/waitlist',
        '/api/tournaments',
        '/api/tournaments/{id}',
        '/api/tournaments/{id}/add-on',
        '/api/tournaments/{id}/register',
        '/api/waitlists',
        '/api/wallet/history',
      ].sort(),
    );
    expect(Object.keys(res.body.paths['/api/rooms/{id}']!).sort()).toEqual(['delete', 'get']);
    expect(res.body.components.schemas).toHaveProperty('RoomConfig');
    expect(res.body.components.schemas).toHaveProperty('Error');
    expect(res.body.components.securitySchemes).toHaveProperty('cookieAuth');
  });

  it('serves the front page and the client config', async () => {
    const page = await h.client().get<string>('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.body).toContain('<h1>Felt</h1>');
    expect(page.body).toContain('href="/openapi.json"');
    expect(await h.client().get('/api/config')).toMatchObject({
      status: 200,
      body: { gateway_urls: ['ws://127.0.0.1:8081/ws', 'ws://127.0.0.1:8082/ws'] },
    });
  });

  it('keeps span capture off unless FELT_TRACE_MEMORY turned it on', async () => {
    expect((await h.client().ops('/debug/spans')).status).toBe(404);
  });
});

describe('bad input', () => {
  it('answers malformed JSON, a wrong content type, an oversized body and an unknown route with typed errors', async () => {
    const c = await h.user();
    const before = await h.snapshot();
    const malformed = await c.req('POST', '/api/rooms/join', '{"code": "12', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: { code: 'invalid_request' } });

    const text = await c.req('POST', '/api/rooms/join', 'code=123456', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ error: { code: 'unsupported_media_type' } });

    const huge = await c.post('/api/rooms', { config: {}, pad: 'x'.repeat(70_000) });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ error: { code: 'payload_too_large' } });

    const missing = await c.get('/api/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'not_found' } });

    const notJson = await c.req('POST', '/api/auth/login', 'null', { 'content-type': 'application/json' });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ error: { code: 'invalid_request' } });
    expect(await h.snapshot()).toEqual(before);
  });
});
