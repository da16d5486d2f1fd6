import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, Redis, type ClusterOptions } from 'ioredis';
import { freePort } from './free-port.js';
import { untilRedisAnswers } from './private-redis.js';
import { waitFor } from './wait.js';

/**
 * A Redis Cluster of a test's own (docs/dev/scale-out.md, step 2): `masters` primaries with
 * `replicasPerMaster` replicas each, every one a `redis-server --cluster-enabled yes` on a spare port
 * of 127.0.0.1 with its data in a temp directory, joined by `redis-cli --cluster create`. In memory
 * (no append-only file): a bench measures Redis, not the disk. Never the shared Redis on 6379.
 */
export interface PrivateRedisClusterOptions {
  /** Default 3, the smallest cluster Redis accepts. */
  readonly masters?: number;
  /** Default 1. */
  readonly replicasPerMaster?: number;
}

interface Node {
  readonly port: number;
  readonly busPort: number;
  readonly dir: string;
  readonly child: ChildProcess;
}

export class PrivateRedisCluster {
  private constructor(private readonly nodes: Node[]) {}

  /** The nodes' addresses, for ioredis's Cluster (it discovers the rest from any one). */
  get startupNodes(): { host: string; port: number }[] {
    return this.nodes.map((n) => ({ host: '127.0.0.1', port: n.port }));
  }

  /** The services' REDIS_URL for this cluster (`redis+cluster://`, every node a startup node). */
  get url(): string {
    return `redis+cluster://${this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`;
  }

  get ports(): number[] {
    return this.nodes.map((n) => n.port);
  }

  /**
   * A cluster client, once it has read the slot map and connected to the nodes it names (before
   * that, a command may go over a startup connection the client is about to replace, and fail with
   * "Connection is closed"). The caller closes it.
   */
  async client(options: ClusterOptions = {}): Promise<Cluster> {
    const client = new Cluster(this.startupNodes, { ...options });
    await new Promise<void>((resolve, reject) => {
      client.once('ready', () => resolve());
      client.once('end', () => reject(new Error('the cluster client ended before it was ready')));
    });
    return client;
  }

  /**
   * Fails master `pick(count)` over to its replica as an operator's `CLUSTER FAILOVER` does: the
   * replica catches up with the master's replication stream, takes its slots under a new epoch, and
   * the old master becomes its replica. Every client of the old master is told `MOVED` (or loses its
   * connection) and follows the slot map. Waits until every node agrees on the new roles and the
   * cluster is whole; returns the ports before and after. Needs a replica per master.
   */
  async failover(pick: (count: number) => number = () => 0): Promise<{ from: number; to: number }> {
    const view = parseNodes(await this.withNode(this.nodes[0]!.port, (r) => r.cluster('NODES') as Promise<string>));
    const masters = view.filter((n) => n.flags.includes('master') && !n.flags.includes('fail'));
    const master = masters[Math.min(masters.length - 1, Math.max(0, pick(masters.length)))];
    const replica = view.find((n) => n.flags.includes('slave') && n.masterId === master?.id);
    if (master === undefined || replica === undefined) throw new Error('failover: no master with a replica');
    await this.withNode(replica.port, (r) => r.cluster('FAILOVER'));
    for (const n of this.nodes) {
      await waitFor(
        `${n.port} seeing ${replica.port} as master and ${master.port} as its replica, cluster_state:ok`,
        () =>
          this.withNode(n.port, async (r) => {
            if (!(await r.cluster('INFO')).includes('cluster_state:ok')) return false;
            const now = parseNodes((await r.cluster('NODES')) as string);
            const promoted = now.find((x) => x.id === replica.id);
            const demoted = now.find((x) => x.id === master.id);
            return (
              promoted?.flags.includes('master') === true &&
              demoted?.flags.includes('slave') === true &&
              demoted.masterId === replica.id
            );
          }),
        30_000,
        100,
      );
    }
    return { from: master.port, to: replica.port };
  }

  /**
   * Crashes master `pick(count)`: SIGKILL (nothing flushed, every client cut), then the cluster's own
   * failure detection (`cluster-node-timeout`, 2 s here) marks it failed and its replica takes its
   * slots under a new epoch. Writes the master acknowledged but had not sent to the replica are lost,
   * unless the writer waited for the replica (`WAIT`, FELT_REDIS_WAIT_REPLICAS). The dead node is
   * then started again on its port with its cluster config and no data: it rejoins as the new
   * master's replica and syncs. Waits for all of it; returns the ports before and after.
   */
  async crashMaster(pick: (count: number) => number = () => 0): Promise<{ from: number; to: number }> {
    const view = parseNodes(await this.withNode(this.nodes[0]!.port, (r) => r.cluster('NODES') as Promise<string>));
    const masters = view.filter((n) => n.flags.includes('master') && !n.flags.includes('fail'));
    const master = masters[Math.min(masters.length - 1, Math.max(0, pick(masters.length)))];
    const replica = view.find((n) => n.flags.includes('slave') && n.masterId === master?.id);
    const index = this.nodes.findIndex((n) => n.port === master?.port);
    if (master === undefined || replica === undefined || index < 0) throw new Error('crash: no master with a replica');
    const dead = this.nodes[index]!;
    const exited = new Promise<void>((resolve) => dead.child.once('exit', () => resolve()));
    dead.child.kill('SIGKILL');
    await exited;
    for (const n of this.nodes.filter((x) => x !== dead)) {
      await waitFor(
        `${n.port} seeing ${replica.port} promoted in place of the crashed ${master.port}, cluster_state:ok`,
        () =>
          this.withNode(n.port, async (r) => {
            if (!(await r.cluster('INFO')).includes('cluster_state:ok')) return false;
            const now = parseNodes((await r.cluster('NODES')) as string);
            return now.find((x) => x.id === replica.id)?.flags.includes('master') === true;
          }),
        30_000,
        100,
      );
    }
    this.nodes[index] = await launch(dead.port, dead.busPort, dead.dir);
    await waitFor(
      `the restarted ${master.port} synced as a replica of ${replica.port}`,
      () =>
        this.withNode(master.port, async (r) => {
          const role = (await r.call('ROLE')) as [string, string, number, string];
          return role[0] === 'slave' && role[2] === replica.port && role[3] === 'connected';
        }),
      30_000,
      100,
    );
    return { from: master.port, to: replica.port };
  }

  /** SIGSTOPs the node on `port` (it neither answers nor replicates); the returned call SIGCONTs it. */
  pause(port: number): () => void {
    const node = this.nodes.find((n) => n.port === port);
    if (node === undefined) throw new Error(`no cluster node on port ${port}`);
    node.child.kill('SIGSTOP');
    return () => void node.child.kill('SIGCONT');
  }

  private async withNode<T>(port: number, fn: (r: Redis) => Promise<T>): Promise<T> {
    const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      return await fn(probe);
    } finally {
      probe.disconnect();
    }
  }

  static async start(options: PrivateRedisClusterOptions = {}): Promise<PrivateRedisCluster> {
    const masters = options.masters ?? 3;
    const replicas = options.replicasPerMaster ?? 1;
    const nodes: Node[] = [];
    const cluster = new PrivateRedisCluster(nodes);
    try {
      // The cluster bus gets a port of its own: by default it is the data port plus 10000, which for a
      // kernel-chosen port above 55535 does not exist (redis-server then refuses to start) and may be
      // taken by another process below it.
      for (let i = 0; i < masters * (1 + replicas); i++) nodes.push(await launch(await freePort(), await freePort()));
      const created = spawnSync(
        'redis-cli',
        [
          '--cluster',
          'create',
          ...nodes.map((n) => `127.0.0.1:${n.port}`),
          '--cluster-replicas',
          String(replicas),
          '--cluster-yes',
        ],
        { encoding: 'utf8', timeout: 60_000 },
      );
      if (created.status !== 0) {
        throw new Error(`redis-cli --cluster create failed (${created.status}): ${created.stdout}${created.stderr}`);
      }
      // Every node agrees the cluster is whole (all 16384 slots served) and sees each node in its role
      // before a client may use it: a node told late of a replica still lists it as a master.
      for (const n of nodes) {
        await waitFor(
          `cluster_state:ok and ${masters} masters with ${replicas} synced replicas each, seen from ${n.port}`,
          async () => {
            const probe = new Redis(n.port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 });
            probe.on('error', () => undefined);
            try {
              await probe.connect();
              if (!(await probe.cluster('INFO')).includes('cluster_state:ok')) return false;
              const flags = ((await probe.cluster('NODES')) as string)
                .trim()
                .split('\n')
                .map((line) => line.split(' ')[2]!.split(','));
              if (
                flags.filter((f) => f.includes('master')).length !== masters ||
                flags.filter((f) => f.includes('slave')).length !== masters * replicas
              ) {
                return false;
              }
              // A master counts its replicas once they have synced (online): only then does a WAIT
              // (FELT_REDIS_WAIT_REPLICAS) or a failover find them.
              const info = await probe.info('replication');
              return !info.includes('role:master') || (info.match(/state=online/g) ?? []).length >= replicas;
            } finally {
              probe.disconnect();
            }
          },
          30_000,
          100,
        );
      }
      return cluster;
    } catch (err) {
      await cluster.stop();
      throw err;
    }
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.nodes.map(async (n) => {
        if (n.child.exitCode === null && n.child.signalCode === null) {
          const exited = new Promise<void>((resolve) => n.child.once('exit', () => resolve()));
          n.child.kill('SIGKILL');
          await exited;
        }
        rmSync(n.dir, { recursive: true, force: true });
      }),
    );
  }
}

interface NodeView {
  readonly id: string;
  readonly port: number;
  readonly flags: readonly string[];
  /** The master's id for a replica, else `-`. */
  readonly masterId: string;
}

/** `CLUSTER NODES`: `<id> <ip:port@bus> <flags> <master> …` a line. */
function parseNodes(text: string): NodeView[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id, addr, flags, masterId] = line.split(' ');
      return {
        id: id!,
        port: Number(/:(\d+)@/.exec(addr!)?.[1]),
        flags: flags!.split(','),
        masterId: masterId!,
      };
    });
}

async function launch(
  port: number,
  busPort: number,
  dir = mkdtempSync(join(tmpdir(), 'felt-redis-cluster-')),
): Promise<Node> {
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--cluster-enabled',
      'yes',
      '--cluster-port',
      String(busPort),
      '--cluster-config-file',
      join(dir, 'nodes.conf'),
      '--cluster-node-timeout',
      '2000',
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: 'ignore' },
  );
  const node = { port, busPort, dir, child };
  await untilRedisAnswers(child, `redis://127.0.0.1:${port}`);
  return node;
}
