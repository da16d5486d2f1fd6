// The cluster, lobby, Redis and hand-record handles every failover e2e suite starts with, and the
// heads-up table they all play on: two humans, one per gateway, each sending client seeds.
import { randomUUID } from 'node:crypto';
import { createRedis, type Redis } from '@felt/platform';
import { Cluster } from './cluster.js';
import { CheckpointWatch } from './failover-play.js';
import { LobbyClient, type CreatedRoom } from './lobby-client.js';
import { HandRecords } from './privacy.js';
import { TableClient } from './table-client.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Timing for failover suites: short leases and registry TTLs so takeovers happen within seconds,
 * and a clock nobody runs out of while the test holds the cards.
 */
export const FAILOVER_ENV: Readonly<Record<string, string>> = {
  FELT_MEMBER_TTL_MS: '2500',
  FELT_LEASE_TTL_MS: '1500',
  FELT_LEASE_WAIT_MS: '1500',
  FELT_ACTION_MS: '120000',
  FELT_HAND_PAUSE_MS: '300',
  FELT_FREEZE_AFTER_MS: '120000',
};

export interface HeadsUpTable {
  readonly tableId: string;
  readonly room: CreatedRoom;
  readonly ann: TableClient;
  readonly bob: TableClient;
  readonly both: readonly [TableClient, TableClient];
}

export class FailoverRig {
  readonly clients: TableClient[] = [];
  /** Tables the checkpoint watch samples. */
  readonly tables: string[] = [];
  readonly watch: CheckpointWatch;

  private constructor(
    readonly cluster: Cluster,
    readonly lobby: LobbyClient,
    readonly redis: Redis,
    readonly records: HandRecords,
  ) {
    this.watch = new CheckpointWatch(redis, cluster.prefix, () => this.tables);
  }

  /**
   * Two gateways, two workers and a lobby with `env` over {@link FAILOVER_ENV}; the watch runs.
   * `redisUrl`: another Redis than the machine's (a Redis Cluster of the test's own, for one).
   */
  static async start(env: Record<string, string> = {}, redisUrl = REDIS_URL): Promise<FailoverRig> {
    const cluster = await Cluster.start({
      gateways: 2,
      workers: 2,
      lobby: true,
      redisUrl,
      env: { ...FAILOVER_ENV, ...env },
    });
    const rig = new FailoverRig(
      cluster,
      new LobbyClient(cluster.lobby!.url),
      createRedis(redisUrl, { name: 'test-failover-rig', maxRetriesPerRequest: 2 }),
      new HandRecords(redisUrl, cluster.prefix),
    );
    rig.watch.start();
    return rig;
  }

  get prefix(): string {
    return this.cluster.prefix;
  }

  /**
   * A new room with `config`: ann hosts it and joins through gateway 0, bob joins by code through
   * gateway 1. With `dealt`, resolves once both see the first hand's actor.
   */
  async headsUp(config: Record<string, unknown>, options: { dealt?: boolean } = {}): Promise<HeadsUpTable> {
    const annUser = await this.lobby.signUp(`ann-${randomUUID().slice(0, 8)}`);
    const bobUser = await this.lobby.signUp(`bob-${randomUUID().slice(0, 8)}`);
    const room = await this.lobby.createRoom(annUser, config);
    await this.lobby.joinByCode(bobUser, room.code);
    const tableId = room.sessionId;
    this.tables.push(tableId);
    const g = this.cluster.gateways;
    const ann = await TableClient.join(g[0]!.wsUrl, annUser.cookie, tableId, annUser.userId, { sendSeeds: true });
    const bob = await TableClient.join(g[1]!.wsUrl, bobUser.cookie, tableId, bobUser.userId, { sendSeeds: true });
    this.clients.push(ann, bob);
    if (options.dealt) {
      await ann.until(() => ann.state?.hand_id !== undefined && ann.state.actor !== null, 30_000, 'the deal');
      await bob.until(() => bob.state?.hand_id === ann.state!.hand_id && bob.state?.actor !== null, 30_000, 'the deal');
    }
    return { tableId, room, ann, bob, both: [ann, bob] };
  }

  async stop(): Promise<void> {
    await this.watch.stop();
    for (const c of this.clients) c.close();
    await this.records.close();
    this.redis.disconnect();
    await this.cluster.stop();
  }
}
