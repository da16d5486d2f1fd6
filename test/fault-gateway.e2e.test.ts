// A gateway SIGKILLed at an exact step: right after one of its players sent an action, before the
// ack could come back through it (the frame may or may not have reached the worker). The player's
// client reconnects through the other gateway (the SDK rotates through the lobby's list), joins
// again, resyncs and sends the pending action again under its command id; the worker applies it
// once. A new gateway takes the dead one's place behind its
// stable address (a Kubernetes Service's part, played by a TCP forwarder). Then the same happens to the other gateway.
// Nothing is lost: every acked action is in its hand's record, no chip is made or lost, the audit
// is clean and every client converges on the owner's state.
import { randomBytes } from 'node:crypto';
import { headerWebSocketFactory, type WebSocketFactory, type WebSocketLike } from '@felt/client';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemTotal } from '../scripts/chaos/checks.js';
import { DOWNTIME_MS } from '../scripts/chaos/faults.js';
import { Cluster, type GatewayHandle } from './harness/cluster.js';
import { expectNothingLost } from './harness/fault-checks.js';
import { HandRecords } from './harness/privacy.js';
import { pause, waitFor } from './harness/wait.js';
import { TableCrew } from './sdk/crew.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let cluster: Cluster;
let redis: Redis;
let records: HandRecords;
let crew: TableCrew | undefined;

/** Set to a gateway: the next action frame a player sends through it kills it, right after the send. */
let trap: { gateway: GatewayHandle; sprung: (name: string) => void } | null = null;

/** `ws` with the cookie, with the trap above on every send. */
function trappedFactory(name: string, cookie: string): WebSocketFactory {
  const plain = headerWebSocketFactory(WebSocket, { cookie });
  return (url) => {
    const socket = plain(url);
    const send = socket.send.bind(socket);
    (socket as { send: WebSocketLike['send'] }).send = (data: string) => {
      send(data);
      const armed = trap;
      if (armed === null || armed.gateway.wsUrl !== url) return;
      if ((JSON.parse(data) as { type?: string }).type !== 'action') return;
      trap = null;
      // SIGKILL now, with the frame just written: whether it reached the worker is up to the race.
      process.kill(armed.gateway.proc.pid, 'SIGKILL');
      armed.sprung(name);
    };
    return socket;
  };
}

beforeAll(async () => {
  cluster = await Cluster.start({
    workers: 2,
    gateways: 2,
    gatewayServices: true,
    lobby: true,
    persister: true,
    env: {
      FELT_MEMBER_TTL_MS: '15000',
      FELT_ACTION_MS: '5000',
      FELT_TIME_BANK_MS: '0',
      FELT_WARNING_MS: '1000',
      FELT_HAND_PAUSE_MS: '200',
    },
  });
  redis = new Redis(REDIS_URL);
  records = new HandRecords(REDIS_URL, cluster.prefix);
});

afterAll(async () => {
  if (crew) for (const m of crew.members) m.client.close();
  await records?.close();
  redis?.disconnect();
  await cluster?.stop();
});

/** Kills `gateway` as soon as one of its players sends an action; resolves with the player's name. */
async function killOnNextAction(gateway: GatewayHandle): Promise<string> {
  const name = await new Promise<string>((resolve) => {
    trap = { gateway, sprung: resolve };
  });
  await gateway.proc.kill('SIGKILL');
  return name;
}

describe('a gateway killed with an action in flight', () => {
  it(
    'its players reconnect through the other gateway, the action counts once, nothing is lost',
    { timeout: 300_000 },
    async () => {
      crew = await TableCrew.create({
        lobbyUrl: cluster.lobby!.url,
        game: 'holdem',
        limit: 'fl',
        players: 3,
        spectators: 1,
        namePrefix: `fg${randomBytes(3).toString('hex')}`,
        seed: 16,
        socketFactoryFor: trappedFactory,
      });
      await crew.waitHands(2, 60_000);
      const totalBefore = await systemTotal(cluster);

      for (const index of [0, 1]) {
        const victim = cluster.gateways[index]!;
        const reconnectsBefore = crew.members.map((m) => m.client.stats.reconnects);
        const name = await killOnNextAction(victim);
        const player = crew.members.find((m) => m.name === name)!;
        // A pod restart: a new gateway behind the dead one's service.
        await pause(DOWNTIME_MS, 'the gateway is down until its replacement starts');
        await cluster.restartGateway(victim);
        // The player whose action was in flight reconnected and played on; its pending action was
        // answered (acked, or refused as stale when the clock had acted meanwhile), not left hanging.
        await waitFor(
          `${name} reconnected`,
          () => player.client.stats.reconnects > reconnectsBefore[crew!.members.indexOf(player)]!,
        );
        const hands = crew.handsCompleted.size;
        await crew.waitHands(hands + 2, 60_000);
        expect(player.bot!.actions.filter((a) => a.outcome === 'failed')).toEqual([]);
      }

      await expectNothingLost(cluster, redis, records, crew, totalBefore);
      for (const m of crew.members) expect(m.problems.filter((p) => !p.startsWith('error unavailable'))).toEqual([]);
    },
  );
});
