import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, fundHouseBankroll, type TestDatabase } from '@felt/db';
import { createRedis, redisNodes, revocationsLoadedKey } from '@felt/platform';
import { grpcChannelCredentials } from '@felt/proto';
import type { ChannelCredentials } from '@grpc/grpc-js';
import type { Redis } from 'ioredis';
import { ensureDevCertificates, type DevCertificates } from '../../scripts/dev-certs.js';
import { ServiceProcess } from './service-process.js';
import { TcpProxy } from './tcp-proxy.js';
import { waitFor } from './wait.js';

export const TEST_ORIGIN = 'http://felt.test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface ClusterOptions {
  readonly gateways?: number;
  readonly workers?: number;
  readonly lobby?: boolean;
  readonly persister?: boolean;
  /** Extra environment for every process. */
  readonly env?: Record<string, string>;
  /** The Redis every service uses; default REDIS_URL (the shared one). A test that restarts Redis passes its own. */
  readonly redisUrl?: string;
  /**
   * Each gateway behind its own stable address (a TCP forwarder standing in for a Kubernetes
   * Service), so a gateway that dies can be replaced without changing the URLs clients were given
   * (`restartGateway`). Default false: clients talk to the gateways directly.
   */
  readonly gatewayServices?: boolean;
  /**
   * Each worker reaches Redis through a TCP forwarder of its own (`workerLinks`, kept across its
   * restarts), so that one worker's link can be stalled or cut alone. Default false.
   */
  readonly workerLinks?: boolean;
  /**
   * Chips the operator funds the house bankroll with before anything starts (bots buy in from it).
   * Default 10,000,000; 0 leaves it empty.
   */
  readonly bankroll?: bigint;
  /**
   * The gateway-to-worker link with mutual TLS, from a CA made for this cluster (as in production).
   * Default true; false runs it in plaintext.
   */
  readonly grpcTls?: boolean;
  /**
   * Spans kept in memory and served at /debug/spans (FELT_TRACE_MEMORY), with the module hook that
   * instruments gRPC, HTTP, Redis and Postgres, for a test about traces. Default false: the services
   * start without the hook (about 0.4 s of each one's start here) and record no span.
   */
  readonly tracing?: boolean;
  /**
   * The PEM CA that signed a `rediss://` Redis's certificate: the harness's own client trusts it, and
   * every service gets it as NODE_EXTRA_CA_CERTS.
   */
  readonly redisCa?: string;
  /**
   * The Postgres superuser URL the cluster's database is made on (default the machine's, from
   * DATABASE_URL). A test that stops Postgres passes its own server’s.
   */
  readonly postgresAdminUrl?: string;
}

/** What a test cluster's house bankroll holds unless the test says otherwise. */
export const TEST_BANKROLL = 10_000_000n;

export interface WorkerHandle {
  readonly id: string;
  readonly proc: ServiceProcess;
  readonly grpcAddr: string;
  readonly httpUrl: string;
}

export interface GatewayHandle {
  readonly id: string;
  readonly proc: ServiceProcess;
  /** The URLs clients use: the gateway's own, or its service's when the cluster has gateway services. */
  readonly wsUrl: string;
  readonly httpUrl: string;
  /** The stable address in front of this gateway, when the cluster has gateway services. */
  readonly service?: TcpProxy;
}

/**
 * A real cluster for one test file: a fresh migrated database, a random Redis prefix, a random
 * session secret, and each service as its own process on ephemeral ports. `stop()` ends the
 * processes and removes the database and every Redis key under the prefix.
 */
export class Cluster {
  readonly workers: WorkerHandle[] = [];
  readonly gateways: GatewayHandle[] = [];
  lobby: { proc: ServiceProcess; url: string; opsUrl: string } | undefined;
  persister: { proc: ServiceProcess; httpUrl: string } | undefined;
  private nextWorker = 0;
  private nextGateway = 0;
  private gatewayServices = false;
  /** Per worker id, the forwarder its Redis connections go through (with `workerLinks`). */
  readonly workerLinks = new Map<string, TcpProxy>();
  private linkWorkers = false;
  /** The gRPC link's CA and certificates (a temporary directory of this cluster), when it uses TLS. */
  certs: DevCertificates | undefined;

  private constructor(
    readonly db: TestDatabase,
    readonly redis: Redis,
    readonly prefix: string,
    readonly secret: string,
    private readonly extraEnv: Record<string, string>,
    /** The Redis every service of this cluster uses. */
    readonly redisUrl: string,
    private readonly tracing: boolean,
  ) {}

  static async start(options: ClusterOptions = {}): Promise<Cluster> {
    const db = await createTestDatabase(options.postgresAdminUrl ? { adminUrl: options.postgresAdminUrl } : {});
    const bankroll = options.bankroll ?? TEST_BANKROLL;
    if (bankroll > 0n) await fundHouseBankroll(db.prisma, bankroll, 'test-cluster');
    const redisUrl = options.redisUrl ?? REDIS_URL;
    const redis = createRedis(
      redisUrl,
      { name: 'test-cluster', maxRetriesPerRequest: 2 },
      options.redisCa ? { tls: { ca: readFileSync(options.redisCa) } } : {},
    );
    const run = randomBytes(5).toString('hex');
    const cluster = new Cluster(
      db,
      redis,
      `t${run}:`,
      randomBytes(32).toString('base64url'),
      { ...(options.redisCa ? { NODE_EXTRA_CA_CERTS: options.redisCa } : {}), ...options.env },
      redisUrl,
      options.tracing ?? false,
    );
    // The revocation list is complete (a fresh database revoked nothing): a lobby would say so on
    // start, and clusters without one need it for their gateways to accept sessions.
    await redis.set(revocationsLoadedKey(cluster.prefix), '1');
    cluster.gatewayServices = options.gatewayServices ?? false;
    cluster.linkWorkers = options.workerLinks ?? false;
    if (options.grpcTls ?? true) cluster.certs = ensureDevCertificates(mkdtempSync(join(tmpdir(), 'felt-grpc-')));
    try {
      // Each service's start is mostly its own CPU (loading modules, about 1.5 s here), so services
      // that do not wait for each other start together: the workers and the persister, then the
      // gateways (which find the workers), then the lobby (which is given the gateways' addresses).
      // `workers` and `gateways` keep the order the services were asked for (w1 before w2).
      const workerIds = Array.from({ length: options.workers ?? 2 }, (_, i) => cluster.workerIdAt(i));
      await Promise.all([
        ...workerIds.map((id) => cluster.addWorker(id)),
        ...(options.persister ? [cluster.startPersister()] : []),
      ]);
      cluster.workers.sort((a, b) => workerIds.indexOf(a.id) - workerIds.indexOf(b.id));
      const gateways = await Promise.all(Array.from({ length: options.gateways ?? 2 }, () => cluster.addGateway()));
      cluster.gateways.sort((a, b) => gateways.indexOf(a) - gateways.indexOf(b));
      if (options.lobby ?? true) await cluster.startLobby();
      // Every gateway has a stream to every worker before tests start.
      for (const g of cluster.gateways) await cluster.waitReady(g.httpUrl);
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /** Environment every Felt process of this cluster shares. */
  commonEnv(): Record<string, string> {
    return {
      DATABASE_URL: this.db.url,
      REDIS_URL: this.redisUrl,
      FELT_REDIS_PREFIX: this.prefix,
      FELT_SESSION_SECRET: this.secret,
      ...(this.tracing ? { FELT_TRACE_MEMORY: '1' } : { OTEL_ESM_HOOK: '0' }),
      FELT_HEARTBEAT_MS: '250',
      FELT_MEMBER_TTL_MS: '2000',
      ...this.extraEnv,
    };
  }

  /** What a gateway of this cluster dials workers with (its certificate, or plaintext without TLS). */
  gatewayCredentials(): ChannelCredentials {
    return grpcChannelCredentials(
      this.certs
        ? {
            ca: this.certs.gateway.FELT_GRPC_TLS_CA,
            cert: this.certs.gateway.FELT_GRPC_TLS_CERT,
            key: this.certs.gateway.FELT_GRPC_TLS_KEY,
          }
        : null,
    );
  }

  /** What a worker of this cluster dials its peers with (the Tournament RPC). */
  workerCredentials(): ChannelCredentials {
    return grpcChannelCredentials(
      this.certs
        ? {
            ca: this.certs.worker.FELT_GRPC_TLS_CA,
            cert: this.certs.worker.FELT_GRPC_TLS_CERT,
            key: this.certs.worker.FELT_GRPC_TLS_KEY,
          }
        : null,
    );
  }

  /** A worker id for the next addWorker, so a test can place tables on it before it starts. */
  nextWorkerId(): string {
    return this.workerIdAt(this.nextWorker);
  }

  /** The id of the (i + 1)th worker, ahead of the ones already added. */
  private workerIdAt(i: number): string {
    return `w${i + 1}-${randomBytes(2).toString('hex')}`;
  }

  /** Starts a worker; `env` adds to (or overrides) this worker's environment only (e.g. its REDIS_URL). */
  async addWorker(id = this.nextWorkerId(), env: Record<string, string> = {}): Promise<WorkerHandle> {
    this.nextWorker++;
    let link = this.workerLinks.get(id);
    if (this.linkWorkers && link === undefined) {
      const target = new URL(this.redisUrl);
      link = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 6379) });
      this.workerLinks.set(id, link);
    }
    const proc = await ServiceProcess.start('table-worker', id, {
      ...this.commonEnv(),
      ...this.certs?.worker,
      ...(link ? { REDIS_URL: `redis://127.0.0.1:${link.port}` } : {}),
      ...env,
      WORKER_ID: id,
      WORKER_GRPC_HOST: '127.0.0.1',
      WORKER_GRPC_PORT: '0',
      WORKER_ADVERTISE_ADDR: '127.0.0.1',
      WORKER_HTTP_PORT: '0',
    });
    const handle: WorkerHandle = {
      id,
      proc,
      grpcAddr: `127.0.0.1:${Number(proc.ready.grpcPort)}`,
      httpUrl: `http://127.0.0.1:${Number(proc.ready.httpPort)}`,
    };
    this.workers.push(handle);
    return handle;
  }

  /** Starts a gateway; `env` adds to (or overrides) this gateway's environment only. */
  async addGateway(env: Record<string, string> = {}): Promise<GatewayHandle> {
    const id = `g${++this.nextGateway}-${randomBytes(2).toString('hex')}`;
    const proc = await this.startGateway(id, env);
    const port = Number(proc.ready.port);
    const service = this.gatewayServices ? await TcpProxy.start({ host: '127.0.0.1', port }) : undefined;
    const handle = gatewayHandle(id, proc, service?.port ?? port, service);
    this.gateways.push(handle);
    return handle;
  }

  /**
   * A gateway that died is replaced by a new one (a new id and port, as a Deployment's new pod)
   * behind the same service, so the URLs clients were given stay good. Needs `gatewayServices`.
   * Replaces the handle in `gateways`.
   */
  async restartGateway(old: GatewayHandle): Promise<GatewayHandle> {
    const service = old.service;
    if (service === undefined) throw new Error('restartGateway needs a cluster started with gatewayServices');
    if (old.proc.alive) await old.proc.kill('SIGKILL');
    const id = `g${++this.nextGateway}-${randomBytes(2).toString('hex')}`;
    const proc = await this.startGateway(id, {});
    const port = Number(proc.ready.port);
    await this.waitReady(`http://127.0.0.1:${port}`);
    service.retarget(port);
    const handle = gatewayHandle(id, proc, service.port, service);
    const i = this.gateways.indexOf(old);
    if (i >= 0) this.gateways[i] = handle;
    else this.gateways.push(handle);
    return handle;
  }

  private startGateway(id: string, env: Record<string, string>): Promise<ServiceProcess> {
    return ServiceProcess.start('gateway', id, {
      // Short for tests; a cluster's own env (a bench's production interval) overrides it.
      GATEWAY_SESSION_CHECK_MS: '300',
      ...this.commonEnv(),
      ...this.certs?.gateway,
      GATEWAY_ID: id,
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: '0',
      GATEWAY_ALLOWED_ORIGINS: TEST_ORIGIN,
      FELT_DEBUG_ENDPOINTS: '1',
      ...env,
    });
  }

  async startLobby(): Promise<void> {
    const proc = await ServiceProcess.start('lobby', 'lobby', {
      ...this.commonEnv(),
      LOBBY_HOST: '127.0.0.1',
      LOBBY_PORT: '0',
      LOBBY_OPS_PORT: '0',
      FELT_GATEWAY_URLS: this.gateways.map((g) => g.wsUrl).join(','),
    });
    this.lobby = {
      proc,
      url: `http://127.0.0.1:${Number(proc.ready.port)}`,
      opsUrl: `http://127.0.0.1:${Number(proc.ready.opsPort)}`,
    };
  }

  /** Starts the persister, or starts it again after it died (a SIGKILL in a chaos run). */
  async startPersister(): Promise<void> {
    if (this.persister?.proc.alive) await this.persister.proc.kill('SIGKILL');
    const proc = await ServiceProcess.start('persister', 'persister', {
      ...this.commonEnv(),
      PERSISTER_HTTP_PORT: '0',
    });
    this.persister = { proc, httpUrl: `http://127.0.0.1:${Number(proc.ready.httpPort)}` };
  }

  /** Waits until GET <url>/readyz answers 200. */
  async waitReady(httpUrl: string, timeoutMs = 15_000): Promise<void> {
    await waitFor(`${httpUrl}/readyz`, async () => (await fetch(`${httpUrl}/readyz`)).ok, timeoutMs, 100);
  }

  /** Every process that was started and not deliberately stopped is still running. */
  processes(): ServiceProcess[] {
    return [
      ...this.workers.map((w) => w.proc),
      ...this.gateways.map((g) => g.proc),
      ...(this.lobby ? [this.lobby.proc] : []),
      ...(this.persister ? [this.persister.proc] : []),
    ];
  }

  /**
   * The log lines of every process that name `tableId` (and the warnings that name no table when
   * `withGlobal`; only those with `globalOnly`), in time order, one line each: what a test prints when
   * a table stalls, so that CI's output says which step it stalled at.
   */
  timeline(
    tableId: string,
    options: { since?: number; limit?: number; withGlobal?: boolean; globalOnly?: boolean } = {},
  ): string {
    const lines: { time: number; text: string }[] = [];
    for (const p of this.processes()) {
      for (const l of p.jsonLogs()) {
        const time = typeof l.time === 'number' ? l.time : 0;
        if (options.since !== undefined && time < options.since) continue;
        const names = JSON.stringify(l).includes(tableId);
        if (names && options.globalOnly) continue;
        if (!names && !(options.withGlobal && l.tableId === undefined && (l.level as number) >= 40)) continue;
        const { time: _t, pid: _p, hostname: _h, level, msg, ...rest } = l;
        lines.push({
          time,
          text: `${new Date(time).toISOString().slice(11, 23)} ${p.name} ${String(level)} ${JSON.stringify(rest)} ${typeof msg === 'string' ? msg : ''}`,
        });
      }
    }
    lines.sort((a, b) => a.time - b.time);
    return lines
      .slice(-(options.limit ?? 200))
      .map((l) => l.text)
      .join('\n');
  }

  async stop(): Promise<void> {
    await Promise.all(this.processes().map((p) => p.stop()));
    for (const g of this.gateways) await g.service?.close();
    for (const link of this.workerLinks.values()) await link.close();
    // Every key of the cluster's prefix, on each master of a Redis Cluster (one DEL a key there: they
    // live in different slots).
    for (const node of redisNodes(this.redis)) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length === 0) continue;
        if (this.redis.isCluster) await Promise.all(keys.map((k) => this.redis.del(k)));
        else await this.redis.del(...keys);
      } while (cursor !== '0');
    }
    this.redis.disconnect();
    if (this.certs) rmSync(this.certs.dir, { recursive: true, force: true });
    await this.db.drop();
  }
}

function gatewayHandle(id: string, proc: ServiceProcess, port: number, service?: TcpProxy): GatewayHandle {
  return {
    id,
    proc,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    httpUrl: `http://127.0.0.1:${port}`,
    ...(service ? { service } : {}),
  };
}
