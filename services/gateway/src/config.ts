import { hostname } from 'node:os';
import { commonEnv, envFlag, envList, envPort, envPositiveInt, registryEnv, sessionSecretEnv } from '@felt/platform';
import { z } from 'zod';

export const gatewayEnv = {
  ...commonEnv,
  ...sessionSecretEnv,
  ...registryEnv,
  GATEWAY_HOST: z.string().default('0.0.0.0'),
  GATEWAY_PORT: envPort.default(8081),
  GATEWAY_ID: z.string().max(128).default(`${hostname()}-${process.pid}`),
  GATEWAY_ALLOWED_ORIGINS: envList.default(['http://localhost:8080', 'http://127.0.0.1:8080']),
  GATEWAY_MAX_PAYLOAD: envPositiveInt.default(16384),
  GATEWAY_RATE_PER_SEC: envPositiveInt.default(20),
  GATEWAY_RATE_BURST: envPositiveInt.default(40),
  /** How often open sockets are checked for logout (revocation) and session expiry. */
  GATEWAY_SESSION_CHECK_MS: envPositiveInt.default(15_000),
  /** Serves GET /debug/ring on the public port (tests compare rings across processes). */
  FELT_DEBUG_ENDPOINTS: envFlag.default(false),
  /** Tests only: drop this fraction (0..1) of pub/sub deliveries on purpose, so resync is exercised. */
  GATEWAY_TEST_DROP_RATE: z.coerce.number().min(0).max(1).default(0),
};

export type GatewayEnv = z.output<z.ZodObject<typeof gatewayEnv>>;
