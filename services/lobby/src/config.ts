import {
  commonEnv,
  databaseEnv,
  databaseReplicaEnv,
  envFlag,
  envList,
  envPort,
  sessionSecretEnv,
} from '@felt/platform';
import { z } from 'zod';
import { parseAddressRange } from './client-address.js';
import { DEFAULT_LIMITS } from './limits.js';

const wsUrl = z.string().refine(
  (s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'ws:' || u.protocol === 'wss:';
    } catch {
      return false;
    }
  },
  { message: 'expected ws:// or wss:// URLs like ws://127.0.0.1:8081/ws' },
);

const count = (what: string) =>
  z.coerce
    .number({ message: `expected a number of ${what}` })
    .int({ message: `expected a whole number of ${what}` })
    .min(0, { message: `expected 0 or more ${what}` })
    .max(1_000_000, { message: `expected at most 1000000 ${what}` });
/** A limit that must let at least one through. */
const limit = (what: string) => count(what).min(1, { message: `expected at least 1 ${what}` });
const seconds = z.coerce
  .number({ message: 'expected seconds' })
  .int({ message: 'expected whole seconds' })
  .min(1, { message: 'expected at least 1 second' })
  .max(86_400, { message: 'expected at most 86400 seconds (a day)' });

/** false (default), true (one proxy), or how many proxies append to X-Forwarded-For in front of the lobby. */
const trustProxy = z
  .string()
  .regex(/^(true|false|[0-9])$/, { message: 'expected true, false or a number of proxies from 0 to 9' })
  .transform((v) => (v === 'true' ? 1 : v === 'false' ? 0 : Number(v)));

const addressRanges = z.string().transform((s, ctx) => {
  if (s.trim() === 'none') return [];
  const entries = s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
  for (const entry of entries) {
    if (!parseAddressRange(entry)) {
      ctx.addIssue({ code: 'custom', message: `expected IP addresses or CIDR ranges, or none; got ${entry}` });
    }
  }
  return entries;
});

const origin = z.string().refine(
  (s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === s;
    } catch {
      return false;
    }
  },
  { message: 'expected origins like https://felt.example.org (scheme, host and port only)' },
);

/** The lobby's environment (docs/dev/contracts.md), validated at start-up. */
export const lobbyEnv = {
  ...commonEnv,
  ...databaseEnv,
  ...databaseReplicaEnv,
  ...sessionSecretEnv,
  LOBBY_HOST: z.string().min(1).default('0.0.0.0'),
  LOBBY_PORT: envPort.default(8080),
  /** The operations port (readiness, metrics): never routed by the Ingress. 0 picks a free port. */
  LOBBY_OPS_PORT: envPort.default(9090),
  FELT_COOKIE_SECURE: envFlag.default(false),
  FELT_SIGNUP_GRANT: z.coerce
    .number({ message: 'expected a number of chips' })
    .int({ message: 'expected whole chips' })
    .min(0, { message: 'expected 0 or more chips' })
    .max(1_000_000_000, { message: 'expected at most 1000000000 chips' })
    .default(10_000),
  /**
   * worker (default): the table worker sends the final stack and the persister pays it
   * (docs/dev/money-flows.md); ledger: the lobby pays a leaving player's escrow at once (for a
   * cluster without table workers or persister).
   */
  FELT_CASH_OUT_MODE: z.enum(['ledger', 'worker']).default('worker'),
  /** Worker mode: how often the tables of closing rooms are reminded until they close. */
  FELT_CLOSE_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** The built web client served at `/`; empty serves the plain home page instead. */
  FELT_WEB_DIST: z.string().optional(),
  FELT_GATEWAY_URLS: envList
    .pipe(z.array(wsUrl).min(1, { message: 'expected at least one gateway URL' }))
    .default(['ws://127.0.0.1:8081/ws']),

  // ---- abuse limits (docs/operations.md, "Security") -------------------------------------------
  /**
   * The client address: the socket's peer, or, behind this many trusted proxies, the entry they
   * appended to X-Forwarded-For. Set it only when the lobby is reachable through those proxies alone.
   */
  FELT_TRUST_PROXY: trustProxy.default(0),
  /** Addresses the per-address limits don't apply to: this host by default (npm start, tests, demo tools). */
  FELT_RATE_LIMIT_EXEMPT: addressRanges.default([...DEFAULT_LIMITS.exempt]),
  /** Origins (besides the lobby's own) whose pages may send state-changing /api requests. */
  FELT_ALLOWED_ORIGINS: envList.pipe(z.array(origin)).default([]),
  FELT_LOGIN_FAILS_PER_NAME: limit('attempts').default(DEFAULT_LIMITS.loginFailsPerName),
  FELT_LOGIN_FAILS_PER_ADDRESS: limit('attempts').default(DEFAULT_LIMITS.loginFailsPerAddress),
  FELT_SIGNUPS_PER_ADDRESS: limit('sign-ups').default(DEFAULT_LIMITS.signupsPerAddress),
  FELT_JOIN_MISSES_PER_USER: limit('attempts').default(DEFAULT_LIMITS.joinMissesPerUser),
  FELT_JOIN_MISSES_PER_ADDRESS: limit('attempts').default(DEFAULT_LIMITS.joinMissesPerAddress),
  FELT_BACKOFF_BASE_SECONDS: seconds.default(DEFAULT_LIMITS.backoffBaseSeconds),
  FELT_BACKOFF_MAX_SECONDS: seconds.default(DEFAULT_LIMITS.backoffMaxSeconds),
  FELT_HASH_CONCURRENCY: limit('hashes').max(64).default(DEFAULT_LIMITS.hashConcurrency),
  FELT_HASH_QUEUE: count('requests').max(10_000).default(DEFAULT_LIMITS.hashQueue),
  FELT_SIGNUP_GRANTS_PER_ADDRESS_PER_DAY: count('grants').default(DEFAULT_LIMITS.signupGrantsPerAddressPerDay),
  FELT_MAX_OPEN_ROOMS_PER_USER: limit('rooms').default(DEFAULT_LIMITS.maxOpenRoomsPerUser),
  FELT_WAITLIST_CHANGES_PER_USER: limit('changes').default(DEFAULT_LIMITS.waitlistChangesPerUser),
  FELT_TOURNAMENT_CHANGES_PER_USER: limit('changes').default(DEFAULT_LIMITS.tournamentChangesPerUser),
  /** How often each replica moves waitlists on: lapsed offers go, seats come free are offered. */
  FELT_WAITLIST_KEEP_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
  /** How often each replica checks that the revocation keys in Redis are complete (and reloads them if not). */
  FELT_REVOCATION_CHECK_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** How often the live lobby's feed reads the room list and the watched wallets (one replica at a time). */
  FELT_LOBBY_FEED_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
};
