import { timingSafeEqual } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  commonEnv,
  databaseEnv,
  envHandsQueueName,
  envHandsQueues,
  envPort,
  envPositiveInt,
  grpcTlsEnv,
  registryEnv,
} from '@felt/platform';
import { z } from 'zod';
import { DEFAULT_BLIND_DEADLINES, DEFAULT_TIMING_OVERRIDES, type TimingOverrides } from './table/timing.js';

const optionalMs = z.coerce.number().int().min(1).max(3_600_000).optional();

/**
 * The common name of the table workers' gRPC certificate (k8s/overlays/example/grpc-certificates.yaml,
 * scripts/dev-certs.ts): a Tournament RPC is heard only from a peer that presents it.
 */
export const WORKER_CERT_NAME = 'felt-table-worker';

export const workerEnv = {
  ...commonEnv,
  ...databaseEnv,
  ...registryEnv,
  ...grpcTlsEnv,
  WORKER_ID: z
    .string()
    .max(128)
    .regex(/^[A-Za-z0-9_.-]+$/, { message: 'expected letters, digits, _ . or -' })
    .default(hostname()),
  WORKER_GRPC_HOST: z.string().default('0.0.0.0'),
  WORKER_GRPC_PORT: envPort.default(50051),
  /** host:port gateways dial; a bare host gets the bound gRPC port appended. */
  WORKER_ADVERTISE_ADDR: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+(:\d{1,5})?$/, { message: 'expected host or host:port' })
    .optional(),
  WORKER_HTTP_PORT: envPort.default(9091),
  /** BullMQ queue of completed hands (its prefix is FELT_REDIS_PREFIX without the colon). */
  FELT_HANDS_QUEUE: envHandsQueueName,
  /** How many hands queues the workers spread tables' jobs over (the persister consumes them all). */
  FELT_HANDS_QUEUES: envHandsQueues,
  /** Multiplies every room's action clock, time bank and warning (tests shorten the clock). */
  FELT_CLOCK_SCALE: z.coerce.number().positive().max(100).default(1),
  /** Explicit overrides of the room's action clock, time bank and warning, in ms. */
  FELT_ACTION_MS: optionalMs,
  FELT_TIME_BANK_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  FELT_WARNING_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  /** The client-seed window after seed_commit (docs/fairness.md, "The derivation", step 4: 1.5 s). */
  FELT_SEED_WINDOW_MS: envPositiveInt.default(DEFAULT_TIMING_OVERRIDES.seedWindowMs),
  /** The pause between one hand's result and the next hand. */
  FELT_HAND_PAUSE_MS: envPositiveInt.default(DEFAULT_TIMING_OVERRIDES.handPauseMs),
  /** Bots act after about this long (±50 %). */
  FELT_BOT_THINK_MS: envPositiveInt.default(DEFAULT_TIMING_OVERRIDES.botThinkMs),
  /** Monte-Carlo deals per bot decision. */
  FELT_BOT_ITERATIONS: envPositiveInt.default(200),
  /** Fixes the bots' random decisions (tests); unset: a fresh seed per table. */
  FELT_BOT_SEED: z.string().max(64).optional(),
  /** With no human connected this long, a table freezes its hand, clock and bots. */
  FELT_FREEZE_AFTER_MS: envPositiveInt.default(DEFAULT_TIMING_OVERRIDES.freezeAfterMs),
  /** Threads that check engine-blind shuffle proofs off the event loop (about a second of CPU each). */
  FELT_BLIND_CHECK_THREADS: z.coerce.number().int().min(1).max(64).default(2),
  /** Engine-blind deadlines (docs/fairness.md, "Engine-blind dealing"): a step still owed then voids the hand. */
  FELT_BLIND_KEY_MS: envPositiveInt.default(DEFAULT_BLIND_DEADLINES.keyMs),
  FELT_BLIND_SHUFFLE_MS: envPositiveInt.default(DEFAULT_BLIND_DEADLINES.shuffleMs),
  FELT_BLIND_SHARE_MS: envPositiveInt.default(DEFAULT_BLIND_DEADLINES.shareMs),
  /**
   * A quiet table (nothing published this long) sends each recipient stream a table_heartbeat with
   * the last table_seq it carried, so a lost last message is noticed. 0 turns it off.
   */
  FELT_TABLE_HEARTBEAT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * What the house bankroll may put at risk on bots: the most chips the bots of one room may hold
   * there, and the most it stakes bots with in any 24 hours. 0: no limit beyond its balance.
   */
  FELT_BOT_BANKROLL_ROOM_MAX: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(100_000),
  FELT_BOT_BANKROLL_DAILY_MAX: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(10_000_000),
  /** Client commands waiting for one table beyond this are refused with `busy` (docs/operations.md). */
  WORKER_MAILBOX_MAX: z.coerce.number().int().min(1).max(100_000).default(256),
  /** One user's client commands waiting for one table beyond this are refused with `busy`. */
  WORKER_MAILBOX_PER_USER: z.coerce.number().int().min(1).max(100_000).default(16),
  /** Spectator connections one table admits; more are refused with `limit_reached`. */
  WORKER_MAX_SPECTATORS: z.coerce.number().int().min(0).max(100_000).default(200),
  /** A table lease's time to live; it is renewed every third of it (tests shorten it). */
  FELT_LEASE_TTL_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /**
   * Redis replicas that must hold a table's checkpoint (and a hand's job on the queue) before the
   * command is answered (`WAIT`). With Redis behind Sentinel set 1, so a failover keeps everything
   * acknowledged (docs/operations.md, "Redis"); 0 (default) waits for none.
   */
  FELT_REDIS_WAIT_REPLICAS: z.coerce.number().int().min(0).max(8).default(0),
  /** How long a save waits for those replicas; a save they did not confirm fails its command (retried by the client). */
  FELT_REDIS_WAIT_MS: z.coerce.number().int().min(10).max(10_000).default(1_000),
  /** How long a first request for a table waits for another worker's lease to be released or expire. */
  FELT_LEASE_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /**
   * SIGTERM: how long the worker waits for its tables' hand boundaries before handing the rest over
   * mid-hand (k8s terminationGracePeriodSeconds must exceed it).
   */
  FELT_DRAIN_DEADLINE_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  /**
   * How often each worker asks Postgres for tournaments to start or resume and for tournament tables
   * to take back after a failover (the ones the ring gives it).
   */
  FELT_TOURNAMENT_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(2_000),
  /** The deadline of one order from a director to a table, or one report back, between workers. */
  FELT_TOURNAMENT_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
};

export type WorkerEnv = z.output<z.ZodObject<typeof workerEnv>>;

export function timingFromEnv(env: WorkerEnv): TimingOverrides {
  return {
    clockScale: env.FELT_CLOCK_SCALE,
    actionMs: env.FELT_ACTION_MS,
    timeBankMs: env.FELT_TIME_BANK_MS,
    warningMs: env.FELT_WARNING_MS,
    seedWindowMs: env.FELT_SEED_WINDOW_MS,
    handPauseMs: env.FELT_HAND_PAUSE_MS,
    botThinkMs: env.FELT_BOT_THINK_MS,
    freezeAfterMs: env.FELT_FREEZE_AFTER_MS,
    blind: { keyMs: env.FELT_BLIND_KEY_MS, shuffleMs: env.FELT_BLIND_SHUFFLE_MS, shareMs: env.FELT_BLIND_SHARE_MS },
  };
}

/** Where gateways dial this worker: WORKER_ADVERTISE_ADDR, completed with the bound port if needed. */
export function advertisedAddress(advertise: string | undefined, boundPort: number): { host: string; addr: string } {
  if (!advertise) return { host: hostname(), addr: `${hostname()}:${boundPort}` };
  const m = /^(.*):(\d+)$/.exec(advertise);
  return m ? { host: m[1]!, addr: advertise } : { host: advertise, addr: `${advertise}:${boundPort}` };
}

/** Whether `given` is the worker's drain token (constant time): the ops port's /drain and the Drain RPC ask the same. */
export function isDrainToken(given: string, drainToken: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(drainToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Where a worker keeps the token its preStop hook needs to start a drain (readable in its container only). */
export function drainTokenPath(workerId: string): string {
  return join(tmpdir(), `felt-drain-${workerId}.token`);
}
