import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { repoRoot } from '../src/index.js';

// Docker can't run here, so the file is checked statically: it must parse, and it must provide exactly
// what the defaults in docs/dev/contracts.md point at.

interface ComposeService {
  image?: string;
  command?: string[] | string;
  environment?: Record<string, string> | string[];
  ports?: (string | { target: number; published: number | string; host_ip?: string })[];
  healthcheck?: { test?: string[] | string };
}
interface Compose {
  services?: Record<string, ComposeService>;
}

function loadCompose(): Compose {
  const doc = parseDocument(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'));
  expect(doc.errors.map((e) => e.message)).toEqual([]);
  return doc.toJS() as Compose;
}

function contractDefault(name: string): string {
  const contracts = readFileSync(join(repoRoot, 'docs/dev/contracts.md'), 'utf8');
  const row = contracts.split('\n').find((l) => l.startsWith(`| \`${name}\` |`));
  const value = /^\| `[A-Z_]+` \| `([^`]+)`/.exec(row ?? '')?.[1];
  if (value === undefined) throw new Error(`contracts.md has no default for ${name}`);
  return value;
}

/** host:container port pairs published on the loopback interface, e.g. "5432:5432". */
function loopbackPorts(s: ComposeService): string[] {
  return (s.ports ?? []).flatMap((p) => {
    if (typeof p !== 'string') return p.host_ip === '127.0.0.1' ? [`${p.published}:${p.target}`] : [];
    const m = /^127\.0\.0\.1:(\d+):(\d+)$/.exec(p);
    return m ? [`${m[1]}:${m[2]}`] : [];
  });
}

function env(s: ComposeService): Record<string, string> {
  if (Array.isArray(s.environment)) {
    return Object.fromEntries(s.environment.map((kv) => [kv.split('=')[0] ?? '', kv.split('=').slice(1).join('=')]));
  }
  return s.environment ?? {};
}

describe('docker-compose.yml', () => {
  it('runs only Postgres 15 and Redis 7', () => {
    const compose = loadCompose();
    expect(Object.keys(compose.services ?? {}).sort()).toEqual(['postgres', 'redis']);
    expect(compose.services?.['postgres']?.image).toMatch(/^postgres:15(\.|-|$)/);
    expect(compose.services?.['redis']?.image).toMatch(/^redis:7(\.|-|$)/);
  });

  it('serves the default DATABASE_URL: user postgres without a password, database felt, localhost:5432', () => {
    const url = new URL(contractDefault('DATABASE_URL'));
    const pg = loadCompose().services?.['postgres'] ?? {};
    expect(loopbackPorts(pg)).toEqual([`${url.port}:5432`]);
    const e = env(pg);
    expect(e['POSTGRES_USER'] ?? 'postgres').toBe(url.username);
    expect(url.password).toBe('');
    expect(e['POSTGRES_HOST_AUTH_METHOD']).toBe('trust');
    expect(e['POSTGRES_DB']).toBe(url.pathname.slice(1));
    expect(pg.healthcheck?.test).toContain('pg_isready');
  });

  it('serves Redis at localhost:6379 (the port of the default REDIS_URL) with a password, noeviction and nothing on disk', () => {
    const url = new URL(contractDefault('REDIS_URL'));
    const redis = loadCompose().services?.['redis'] ?? {};
    expect(loopbackPorts(redis)).toEqual([`${url.port}:6379`]);
    // Exec form, so the empty --save argument survives without shell quoting; the password is
    // REDIS_PASSWORD, felt-dev-password by default (the header comment's REDIS_URL).
    const password = '${REDIS_PASSWORD:-felt-dev-password}';
    expect(redis.command).toEqual([
      'redis-server',
      '--requirepass',
      password,
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
    ]);
    // The healthcheck's ping authenticates (redis-cli reads REDISCLI_AUTH), with the same password.
    expect(redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(env(redis)['REDISCLI_AUTH']).toBe(password);
    const header = readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8');
    expect(header).toContain('REDIS_URL=redis://:felt-dev-password@127.0.0.1:6379');
  });
});
