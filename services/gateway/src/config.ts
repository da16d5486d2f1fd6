import { hostname } from 'node:os';
import {
  commonEnv,
  envFlag,
  envList,
  envPort,
  envPositiveInt,
  grpcTlsEnv,
  registryEnv,
  sessionSecretEnv,
} from '@felt/platform';
import { z } from 'zod';

const PROXY_HOPS = 'expected the number of trusted proxies in front of the gateway (0 for none)';
const atMost = (max: number) => envPositiveInt.max(max, { message: `expected a positive integer up to ${max}` });

export const gatewayEnv = {
  ...commonEnv,
  ...sessionSecretEnv,
  ...registryEnv,
  ...grpcTlsEnv,
  GATEWAY_HOST: z.string().default('0.0.0.0'),
  GATEWAY_PORT: envPort.default(8081),
  GATEWAY_ID: z.string().max(128).default(`${hostname()}-${process.pid}`),
  GATEWAY_ALLOWED_ORIGINS: envList.default(['http://localhost:8080', 'http://127.0.0.1:8080']),
  /**
   * Bytes per client frame. A larger frame closes the socket with 1009 (but a blind_shuffle, up to
   * GATEWAY_MAX_BLIND_PAYLOAD); one over twice this and over GATEWAY_MAX_BLIND_PAYLOAD is not read at all
   * (uWS's maxPayloadLength): uWS drops the connection before buffering it.
   */
  GATEWAY_MAX_PAYLOAD: atMost(1_048_576).default(16384),
  /**
   * Bytes of a `blind_shuffle` frame (engine-blind dealing's shuffle proof, about 80 KB), the one frame
   * type allowed past GATEWAY_MAX_PAYLOAD; any other type over GATEWAY_MAX_PAYLOAD still closes with
   * 1009. Taken as GATEWAY_MAX_PAYLOAD when set lower (blindPayloadLimit).
   */
  GATEWAY_MAX_BLIND_PAYLOAD: atMost(1_048_576).default(163_840),
  /** Open sockets one account may hold at this gateway; one more is closed with 4029. */
  /** Sockets this gateway holds in all; one more is closed with 1013 (try another gateway). */
  GATEWAY_MAX_SOCKETS: atMost(10_000_000).default(10_000),
  GATEWAY_MAX_SOCKETS_PER_USER: atMost(10_000).default(16),
  /** Open sockets one client address (an IPv6 /64) may hold at this gateway; one more is closed with 4029. */
  GATEWAY_MAX_SOCKETS_PER_ADDRESS: atMost(1_000_000).default(64),
  /** Tables one socket may be attached to (joined or spectating); one more join_table gets `limit_reached`. */
  GATEWAY_MAX_TABLES_PER_SOCKET: atMost(1_000).default(16),
  /**
   * How many proxies in front of the gateway append to X-Forwarded-For and are trusted to: 0 (the
   * default) counts clients by the socket's remote address and ignores the header; n counts them by
   * the entry the outermost trusted proxy wrote, n places from the right (client-address.ts).
   */
  GATEWAY_TRUST_PROXY: z.coerce
    .number({ message: PROXY_HOPS })
    .int({ message: PROXY_HOPS })
    .min(0, { message: PROXY_HOPS })
    .max(10, { message: 'expected at most 10 trusted proxies' })
    .default(0),
  GATEWAY_RATE_PER_SEC: envPositiveInt.default(20),
  GATEWAY_RATE_BURST: envPositiveInt.default(40),
  /** How often open sockets are checked for logout (revocation) and session expiry. */
  GATEWAY_SESSION_CHECK_MS: envPositiveInt.default(15_000),
  /**
   * On shutdown, sockets are closed (1001) this many at a time, one batch every
   * GATEWAY_CLOSE_INTERVAL_MS, so their clients reconnect to the other gateways gradually.
   */
  GATEWAY_CLOSE_BATCH: envPositiveInt.default(500),
  GATEWAY_CLOSE_INTERVAL_MS: envPositiveInt.default(100),
  /** Serves GET /debug/ring on the public port (tests compare rings across processes). */
  FELT_DEBUG_ENDPOINTS: envFlag.default(false),
  /** Tests only: drop this fraction (0..1) of pub/sub deliveries on purpose, so resync is exercised. */
  GATEWAY_TEST_DROP_RATE: z.coerce.number().min(0).max(1).default(0),
};

export type GatewayEnv = z.output<z.ZodObject<typeof gatewayEnv>>;

/** The blind_shuffle frame limit in force: GATEWAY_MAX_BLIND_PAYLOAD, never below GATEWAY_MAX_PAYLOAD. */
export function blindPayloadLimit(env: Pick<GatewayEnv, 'GATEWAY_MAX_PAYLOAD' | 'GATEWAY_MAX_BLIND_PAYLOAD'>): number {
  return Math.max(env.GATEWAY_MAX_BLIND_PAYLOAD, env.GATEWAY_MAX_PAYLOAD);
}
