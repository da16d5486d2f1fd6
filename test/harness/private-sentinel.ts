import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { waitFor } from './wait.js';

/** A field of a Sentinel's reply about an instance (`SENTINEL MASTER`, `REPLICAS`): name, value, name, …. */
function fieldOf(fields: readonly string[], name: string): string | undefined {
  const i = fields.indexOf(name);
  return i < 0 ? undefined : fields[i + 1];
}

/** The master's name in the group's Sentinels. */
export const SENTINEL_MASTER = 'felt';

interface Server {
  readonly port: number;
  readonly child: ChildProcess;
}

/**
 * A Redis primary, its replicas (one unless asked) and three Sentinels of a test's own (spare ports,
 * data in a temp directory, never the shared Redis): what an operator runs for Redis with automatic
 * failover. The services reach it by `url` (`redis+sentinel://…`); `failover()` moves the master to a
 * replica as `SENTINEL FAILOVER` does (the old primary becomes a replica), and `killMaster()` SIGKILLs
 * the master and waits for the Sentinels to promote a replica.
 */
export class PrivateSentinelGroup {
  private constructor(
    private readonly dir: string,
    private readonly nodes: Server[],
    private readonly sentinels: Server[],
  ) {}

  /** The URL services use: every Sentinel, then the master's name. */
  get url(): string {
    return `redis+sentinel://${this.sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}/${SENTINEL_MASTER}`;
  }

  /** The port of the node the Sentinels name as master now. */
  async masterPort(): Promise<number> {
    const sentinel = this.client(this.sentinels[0]!.port);
    try {
      const addr = (await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_MASTER)) as [string, string];
      return Number(addr[1]);
    } finally {
      sentinel.disconnect();
    }
  }

  static async start(options: { replicas?: number } = {}): Promise<PrivateSentinelGroup> {
    const replicas = options.replicas ?? 1;
    const dir = mkdtempSync(join(tmpdir(), 'felt-sentinel-'));
    const group = new PrivateSentinelGroup(dir, [], []);
    try {
      const primary = await group.launchNode('primary', await freePort());
      for (let i = 0; i < replicas; i++) await group.launchNode(`replica-${i}`, await freePort(), primary.port);
      await group.replicasOnline(primary.port, replicas);
      for (let i = 0; i < 3; i++) await group.launchSentinel(i, await freePort(), primary.port);
      // A manual failover needs a replica the Sentinels know (they find it in the primary's INFO,
      // within 10 s), and every Sentinel should know the others to follow the new master.
      await waitFor(
        'every Sentinel knowing the replica and the other Sentinels',
        async () => {
          for (const s of group.sentinels) {
            const known = await group.withClient(s.port, async (r) => {
              const replicas = (await r.call('SENTINEL', 'REPLICAS', SENTINEL_MASTER)) as string[][];
              const others = (await r.call('SENTINEL', 'SENTINELS', SENTINEL_MASTER)) as string[][];
              const good = replicas.filter((fields) => fieldOf(fields, 'flags') === 'slave').length;
              return good === group.nodes.length - 1 && others.length === group.sentinels.length - 1;
            });
            if (!known) return false;
          }
          return true;
        },
        30_000,
        200,
      );
      return group;
    } catch (err) {
      await group.stop();
      throw err;
    }
  }

  /**
   * Fails the master over to its replica (`SENTINEL FAILOVER`) and waits until every Sentinel names
   * the new master and the old one follows it. Returns the ports before and after.
   */
  async failover(): Promise<{ from: number; to: number }> {
    const from = await this.masterPort();
    await this.withClient(this.sentinels[0]!.port, (r) => r.call('SENTINEL', 'FAILOVER', SENTINEL_MASTER));
    const to = await this.newMaster(from);
    await waitFor(
      'the old master replicating from the new one',
      () =>
        this.withClient(from, async (r) => {
          const role = (await r.call('ROLE')) as [string, string, number, string];
          return role[0] === 'slave' && role[2] === to && role[3] === 'connected';
        }),
      30_000,
      100,
    );
    // Every Sentinel must also have seen the old master answer as a replica. A Sentinel that never
    // did still holds its role as `master`, reported long ago; if the next failover promotes this
    // node, that Sentinel takes the promotion for a stray master and at once turns it back into a
    // replica (+convert-to-slave), and the failover aborts (-failover-abort-slave-timeout).
    await waitFor(
      () => `every Sentinel seeing ${from} as a replica of ${to}`,
      async () => {
        for (const s of this.sentinels) {
          const seen = await this.withClient(s.port, async (r) => {
            const replicas = (await r.call('SENTINEL', 'REPLICAS', SENTINEL_MASTER)) as string[][];
            return replicas.some((fields) => {
              return (
                Number(fieldOf(fields, 'port')) === from &&
                fieldOf(fields, 'role-reported') === 'slave' &&
                Number(fieldOf(fields, 'master-port')) === to
              );
            });
          });
          if (!seen) return false;
        }
        return true;
      },
      30_000,
      100,
    );
    return { from, to };
  }

  /**
   * SIGKILLs the master (a crash: nothing flushed, its clients cut) and waits until the Sentinels
   * agree it is down, promote a replica, and every other replica follows the new master. Returns the
   * ports before and after. The dead node stays down.
   */
  async killMaster(): Promise<{ from: number; to: number }> {
    const from = await this.masterPort();
    const node = this.nodes.find((n) => n.port === from);
    if (node === undefined) throw new Error(`no node on port ${from}`);
    await kill(node.child);
    const to = await this.newMaster(from);
    await this.replicasOnline(
      to,
      this.nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null).length - 1,
    );
    return { from, to };
  }

  /** Each node's port and role as it answers now (`down` for a node that does not), for failure messages. */
  async roles(): Promise<string> {
    const parts: string[] = [];
    for (const n of this.nodes) {
      const role = await this.withClient(n.port, async (r) => {
        const reply = (await r.call('ROLE')) as [string, string?, number?];
        return reply[0] === 'slave' ? `replica of ${reply[2]}` : reply[0];
      }).catch(() => 'down');
      parts.push(`${n.port} ${role}`);
    }
    return parts.join(', ');
  }

  /** Waits until `port` has `count` replicas online. */
  private async replicasOnline(port: number, count: number): Promise<void> {
    await waitFor(
      `${count} replicas online at port ${port}`,
      () =>
        this.withClient(port, async (r) => {
          const info = await r.info('replication');
          return (info.match(/state=online/g) ?? []).length >= count;
        }),
      30_000,
      100,
    );
  }

  /** Waits until every Sentinel names one master other than `from`; its port. */
  private async newMaster(from: number): Promise<number> {
    let seen = '';
    try {
      return await waitFor(
        () => `every Sentinel naming a new master (the old one is ${from}); ${seen}`,
        async () => {
          const ports = new Set<number>();
          const views: string[] = [];
          for (const s of this.sentinels) {
            const view = await this.withClient(s.port, async (r) => {
              const addr = (await r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_MASTER)) as [string, string];
              const fields = (await r.call('SENTINEL', 'MASTER', SENTINEL_MASTER)) as string[];
              return {
                port: Number(addr[1]),
                text: `${addr[1]} (${fieldOf(fields, 'flags') ?? '?'}, config-epoch ${fieldOf(fields, 'config-epoch') ?? '?'})`,
              };
            });
            ports.add(view.port);
            views.push(`sentinel ${s.port} names ${view.text}`);
          }
          seen = views.join('; ');
          const [port] = [...ports];
          return ports.size === 1 && port !== from ? port : undefined;
        },
        30_000,
        100,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}; nodes: ${await this.roles()}\n${this.sentinelLogs()}`, {
        cause: err,
      });
    }
  }

  /** The last lines of each Sentinel's log (its events: +sdown, +odown, +failover-state-…, -failover-abort-…). */
  sentinelLogs(lines = 40): string {
    return this.sentinels
      .map((_, i) => {
        let text: string;
        try {
          text = readFileSync(join(this.dir, `sentinel-${i}.log`), 'utf8');
        } catch {
          text = '(no log)';
        }
        return `--- sentinel ${i}\n${text.trimEnd().split('\n').slice(-lines).join('\n')}`;
      })
      .join('\n');
  }

  async stop(): Promise<void> {
    await Promise.all([...this.sentinels, ...this.nodes].map((s) => kill(s.child)));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private client(port: number): Redis {
    const r = new Redis({
      host: '127.0.0.1',
      port,
      lazyConnect: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    r.on('error', () => undefined);
    return r;
  }

  private async withClient<T>(port: number, fn: (r: Redis) => Promise<T>): Promise<T> {
    const r = this.client(port);
    try {
      return await fn(r);
    } finally {
      r.disconnect();
    }
  }

  private async launchNode(name: string, port: number, replicaOf?: number): Promise<Server> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--dbfilename',
        `${name}.rdb`,
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
        ...(replicaOf === undefined ? [] : ['--replicaof', '127.0.0.1', String(replicaOf)]),
      ],
      { stdio: 'ignore' },
    );
    const server = { port, child };
    this.nodes.push(server);
    await this.answers(server, `redis-server ${name} on port ${port}`);
    return server;
  }

  private async launchSentinel(index: number, port: number, primaryPort: number): Promise<void> {
    // A Sentinel rewrites its configuration file as it learns: each needs one of its own.
    const conf = join(this.dir, `sentinel-${index}.conf`);
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${this.dir}`,
        // Read back into a failed wait's message (sentinelLogs): what the Sentinels decided, and when.
        `logfile ${join(this.dir, `sentinel-${index}.log`)}`,
        `sentinel monitor ${SENTINEL_MASTER} 127.0.0.1 ${primaryPort} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_MASTER} 1000`,
        `sentinel failover-timeout ${SENTINEL_MASTER} 10000`,
        `sentinel parallel-syncs ${SENTINEL_MASTER} 1`,
        '',
      ].join('\n'),
    );
    const child = spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' });
    const server = { port, child };
    this.sentinels.push(server);
    await this.answers(server, `redis sentinel on port ${port}`);
  }

  private async answers(server: Server, what: string): Promise<void> {
    await waitFor(
      what,
      async () => {
        if (server.child.exitCode !== null) throw new Error(`${what} exited with ${server.child.exitCode}`);
        try {
          return await this.withClient(server.port, async (r) => (await r.ping()) === 'PONG');
        } catch {
          return false;
        }
      },
      10_000,
      50,
    );
  }
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}
