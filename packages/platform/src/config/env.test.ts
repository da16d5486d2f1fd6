import { describe, expect, it } from 'vitest';
import { ConfigError, commonEnv, envPort, parseEnv, sessionSecretEnv } from './env.js';

describe('parseEnv', () => {
  it('applies defaults and treats empty strings as unset', () => {
    const cfg = parseEnv({ ...commonEnv, PORT: envPort.default(8081) }, { FELT_REDIS_PREFIX: '', PORT: '' });
    expect(cfg.FELT_REDIS_PREFIX).toBe('felt:');
    expect(cfg.PORT).toBe(8081);
    expect(cfg.FELT_TRACE_MEMORY).toBe(false);
    expect(cfg.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
  });

  it('names every bad variable in a typed error', () => {
    let caught: unknown;
    try {
      parseEnv(
        { ...commonEnv, ...sessionSecretEnv, PORT: envPort },
        { REDIS_URL: 'http://x', PORT: '70000', FELT_TRACE_MEMORY: 'yes', FELT_SESSION_SECRET: 'short' },
      );
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const err = caught as ConfigError;
    expect(err.code).toBe('config_invalid');
    expect(err.issues.map((i) => i.variable).sort()).toEqual([
      'FELT_SESSION_SECRET',
      'FELT_TRACE_MEMORY',
      'PORT',
      'REDIS_URL',
    ]);
    expect(err.message).toContain('PORT: expected a port from 0 to 65535');
    expect(err.message).toContain('FELT_SESSION_SECRET: must be at least 32 characters');
  });

  it('reports a missing required variable by name', () => {
    expect(() => parseEnv(sessionSecretEnv, {})).toThrow(/FELT_SESSION_SECRET/);
  });

  it('exits non-zero with the variable named when a service entry point loads bad config', async () => {
    const { spawnSync } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const here = fileURLToPath(new URL('./env.ts', import.meta.url));
    const script = `import { loadEnv, envPort } from ${JSON.stringify(here)}; loadEnv('svc', { GATEWAY_PORT: envPort }); console.log('unreachable');`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, GATEWAY_PORT: 'eighty' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('svc: invalid configuration');
    expect(r.stderr).toContain('GATEWAY_PORT: expected a port number');
    expect(r.stdout).not.toContain('unreachable');
  });
});
