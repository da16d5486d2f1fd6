import { z } from 'zod';
import { parseClusterUrl, parseSentinelUrl, RedisUrlError } from '../redis/connect.js';

export const ConfigErrorCode = { INVALID: 'config_invalid' } as const;
export type ConfigErrorCode = (typeof ConfigErrorCode)[keyof typeof ConfigErrorCode];

export interface ConfigIssue {
  /** The environment variable at fault. */
  readonly variable: string;
  readonly message: string;
}

export class ConfigError extends Error {
  readonly code = ConfigErrorCode.INVALID;
  constructor(
    readonly issues: readonly ConfigIssue[],
    options?: { cause?: unknown },
  ) {
    super(`invalid configuration: ${issues.map((i) => `${i.variable}: ${i.message}`).join('; ')}`, options);
    this.name = 'ConfigError';
  }
}

type EnvShape = Record<string, z.ZodType>;

/**
 * Parses the variables named by `shape` out of `env`. An empty string counts as unset, so that
 * `FOO=` in a manifest falls back to the default instead of failing a number or URL check.
 */
export function parseEnv<S extends EnvShape>(
  shape: S,
  env: Readonly<Record<string, string | undefined>> = process.env,
): z.output<z.ZodObject<S>> {
  const input: Record<string, string | undefined> = {};
  for (const key of Object.keys(shape)) {
    const value = env[key];
    input[key] = value === undefined || value.trim() === '' ? undefined : value;
  }
  const result = z.object(shape).safeParse(input);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => ({
        variable: typeof issue.path[0] === 'string' ? issue.path[0] : String(issue.path[0] ?? '(env)'),
        message: issue.message,
      })),
      { cause: result.error },
    );
  }
  return result.data;
}

/**
 * parseEnv for a service's entry point: a bad value prints one line per variable to stderr and exits
 * non-zero before anything else starts.
 */
export function loadEnv<S extends EnvShape>(
  service: string,
  shape: S,
  env: Readonly<Record<string, string | undefined>> = process.env,
): z.output<z.ZodObject<S>> {
  try {
    return parseEnv(shape, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    const lines = err.issues.map((i) => `  ${i.variable}: ${i.message}`);
    process.stderr.write(`${service}: invalid configuration\n${lines.join('\n')}\n`);
    process.exit(1);
  }
}

/** "1"/"true" or "0"/"false". */
export const envFlag = z
  .enum(['0', '1', 'true', 'false'], { message: 'expected 0, 1, true or false' })
  .transform((v) => v === '1' || v === 'true');

/** A TCP port; 0 asks the OS for an ephemeral one. */
export const envPort = z.coerce
  .number({ message: 'expected a port number' })
  .int({ message: 'expected an integer port' })
  .min(0, { message: 'expected a port from 0 to 65535' })
  .max(65535, { message: 'expected a port from 0 to 65535' });

export const envPositiveInt = z.coerce
  .number({ message: 'expected a number' })
  .int({ message: 'expected an integer' })
  .positive({ message: 'expected a positive integer' });

/** Comma-separated list; blanks dropped. */
export const envList = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x.length > 0),
);

/** Whether `s` is a URL with one of `schemes` (`'redis:'`, with the colon). */
function hasScheme(s: string, schemes: readonly string[]): boolean {
  try {
    return schemes.includes(new URL(s).protocol);
  } catch {
    return false;
  }
}

const urlWithScheme = (schemes: readonly string[], example: string) =>
  z.string().refine((s) => hasScheme(s, schemes), { message: `expected a URL like ${example}` });

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Variables every service reads. */
export const commonEnv = {
  /**
   * One server (`redis://`, `rediss://`), the master a group of Sentinels watches (`redis+sentinel://`),
   * or a Redis Cluster (`redis+cluster://`, `rediss+cluster://`).
   */
  REDIS_URL: z
    .string()
    .superRefine((s, ctx) => {
      try {
        if (parseSentinelUrl(s) !== undefined || parseClusterUrl(s) !== undefined) return;
      } catch (err) {
        if (err instanceof RedisUrlError) ctx.addIssue({ code: 'custom', message: err.message });
        else throw err;
        return;
      }
      if (!hasScheme(s, ['redis:', 'rediss:'])) {
        ctx.addIssue({
          code: 'custom',
          message:
            'expected a URL like redis://127.0.0.1:6379, redis+sentinel://127.0.0.1:26379/<master> or redis+cluster://127.0.0.1:7000,127.0.0.1:7001',
        });
      }
    })
    .default('redis://127.0.0.1:6379'),
  FELT_REDIS_PREFIX: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_:.-]+$/, { message: 'expected letters, digits and _ : . -' })
    .default('felt:'),
  LOG_LEVEL: z.enum(logLevels, { message: `expected one of ${logLevels.join(', ')}` }).default('info'),
  OTEL_EXPORTER_OTLP_ENDPOINT: urlWithScheme(['http:', 'https:'], 'http://otel-collector:4318').optional(),
  FELT_TRACE_MEMORY: envFlag.default(false),
};

export const databaseEnv = {
  DATABASE_URL: urlWithScheme(['postgres:', 'postgresql:'], 'postgresql://postgres@127.0.0.1:5432/felt').default(
    'postgresql://postgres@127.0.0.1:5432/felt',
  ),
  /**
   * The most Postgres connections this process opens (its pool's size). Size the pods' sum to the
   * server's max_connections, or put PgBouncer in transaction mode in front (docs/operations.md).
   */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
};

/** A read replica of DATABASE_URL's database (streaming replication), for reads that may lag a moment. */
export const databaseReplicaEnv = {
  DATABASE_REPLICA_URL: urlWithScheme(
    ['postgres:', 'postgresql:'],
    'postgresql://postgres@replica.example:5432/felt',
  ).optional(),
};

export const sessionSecretEnv = {
  FELT_SESSION_SECRET: z
    .string({ message: 'required (at least 32 characters)' })
    .min(32, { message: 'must be at least 32 characters' }),
};

/** Worker registry timing, read by workers and by everything that builds a ring. */
/**
 * The gateway-to-worker gRPC link's mutual TLS: three PEM file paths (all or none), and the opt-out a
 * worker needs to serve plaintext on an address other hosts can reach.
 */
export const grpcTlsEnv = {
  FELT_GRPC_TLS_CA: z.string().min(1).optional(),
  FELT_GRPC_TLS_CERT: z.string().min(1).optional(),
  FELT_GRPC_TLS_KEY: z.string().min(1).optional(),
  FELT_GRPC_INSECURE: envFlag.default(false),
};

export const registryEnv = {
  FELT_HEARTBEAT_MS: envPositiveInt.default(1000),
  FELT_MEMBER_TTL_MS: envPositiveInt.default(5000),
};
