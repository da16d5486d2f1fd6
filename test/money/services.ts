import { randomBytes, randomUUID } from 'node:crypto';
import { grant, withTransaction, type PrismaClient } from '@felt/db';
import { SESSION_COOKIE, signSessionToken } from '@felt/platform';
import { ServiceProcess } from '../harness/index.js';

/**
 * The built lobby and persister as processes (as production runs them) for the money suites, and
 * a small HTTP client for the lobby's API.
 */

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const SESSION_SECRET = 'money-test-secret-0123456789abcdef0123';

export interface Namespace {
  readonly databaseUrl: string;
  /** FELT_REDIS_PREFIX, with its trailing colon. */
  readonly prefix: string;
  readonly queue: string;
}

export function namespace(databaseUrl: string): Namespace {
  return {
    databaseUrl,
    prefix: `t${randomBytes(5).toString('hex')}:`,
    queue: `hands-${randomBytes(3).toString('hex')}`,
  };
}

export interface Lobby {
  readonly url: string;
  readonly proc: ServiceProcess;
}

export async function startLobby(ns: Namespace, mode: 'ledger' | 'worker', name = 'lobby'): Promise<Lobby> {
  const proc = await ServiceProcess.start('lobby', name, {
    DATABASE_URL: ns.databaseUrl,
    REDIS_URL,
    FELT_REDIS_PREFIX: ns.prefix,
    FELT_SESSION_SECRET: SESSION_SECRET,
    LOBBY_HOST: '127.0.0.1',
    LOBBY_PORT: '0',
    LOBBY_OPS_PORT: '0',
    FELT_CASH_OUT_MODE: mode,
    FELT_CLOSE_SWEEP_MS: '500',
  });
  return { url: `http://127.0.0.1:${String(proc.ready.port)}`, proc };
}

export function startPersister(ns: Namespace, name = 'persister'): Promise<ServiceProcess> {
  return ServiceProcess.start('persister', name, {
    DATABASE_URL: ns.databaseUrl,
    REDIS_URL,
    FELT_REDIS_PREFIX: ns.prefix,
    FELT_HANDS_QUEUE: ns.queue,
    PERSISTER_HTTP_PORT: '0',
    PERSISTER_LOCK_MS: '4000',
    PERSISTER_STALLED_INTERVAL_MS: '1000',
  });
}

export interface Player {
  readonly id: string;
  readonly name: string;
  readonly cookie: string;
}

/**
 * A signed-in player without the sign-up round trip (the lobby's scrypt at production cost would
 * dominate suites that need a hundred players): the user, the sign-up grant and a session row,
 * exactly as the lobby's sign-up writes them, and a cookie signed with the lobby's secret.
 */
export async function mintPlayer(prisma: PrismaClient, name: string, grantChips = 10_000n): Promise<Player> {
  const user = await prisma.user.create({ data: { name, nameKey: name.toLowerCase(), passwordHash: 'minted' } });
  await withTransaction(prisma, (tx) =>
    grant(tx, { userId: user.id, amount: grantChips, idempotencyKey: `signup-grant:${user.id}` }),
  );
  const expiresAt = new Date(Date.now() + 3600_000);
  const session = await prisma.session.create({ data: { id: randomUUID(), userId: user.id, expiresAt } });
  const token = await signSessionToken(SESSION_SECRET, {
    userId: user.id,
    sessionId: session.id,
    name,
    expiresAt: Math.floor(expiresAt.getTime() / 1000),
  });
  return { id: user.id, name, cookie: `${SESSION_COOKIE}=${token}` };
}

export interface ApiResponse<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
}

export async function api<T = Record<string, unknown>>(
  lobby: { url: string },
  method: string,
  path: string,
  opts: { player?: Player; body?: unknown; idempotencyKey?: string } = {},
): Promise<ApiResponse<T>> {
  const res = await fetch(`${lobby.url}${path}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.player ? { cookie: opts.player.cookie } : {}),
      ...(opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : {}),
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}
