import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import type { Cluster } from './cluster.js';
import { LobbyClient } from './lobby-client.js';
import { TableClient } from './table-client.js';

const run = promisify(execFile);
const tool = fileURLToPath(new URL('../../services/table-worker/dist/ops/bot-table.js', import.meta.url));

/**
 * Runs the operator tool (`npm run bot-table -w @felt/table-worker`, built) against the cluster:
 * the room becomes a bot-only table, which the owning worker fills with bots and deals.
 */
export async function makeBotOnlyTable(cluster: Cluster, roomId: string, off = false): Promise<void> {
  await run(process.execPath, [tool, '--room', roomId, ...(off ? ['--off'] : [])], {
    env: { ...process.env, REDIS_URL: cluster.commonEnv().REDIS_URL, FELT_REDIS_PREFIX: cluster.prefix },
  });
}

/**
 * Two new players at a room whose clock never acts, one hand dealt by the host, and whoever acts
 * first folds, so the hand ends on that one acked action (its record, its job, its trace). The
 * clients are returned for the caller to close.
 */
export async function dealAndFold(
  cluster: Cluster,
): Promise<{ tableId: string; handId: string; clients: TableClient[] }> {
  const lobby = new LobbyClient(cluster.lobby!.url);
  const players = await Promise.all(['ann', 'bob'].map((n) => lobby.signUp(`${n}-${randomUUID().slice(0, 8)}`)));
  const room = await lobby.createRoom(players[0]!, {
    startHand: { autoStart: false },
    clock: { actionSeconds: 300, timeBankSeconds: 0, warningSeconds: 10 },
  });
  await lobby.joinByCode(players[1]!, room.code);
  const tableId = room.sessionId;
  const clients = await Promise.all(
    players.map((p) => TableClient.join(cluster.gateways[0]!.wsUrl, p.cookie, tableId, p.userId)),
  );
  const host = clients[0]!;
  host.command({ type: 'start_hand' });
  const handId = await host.until(() => host.state?.phase === 'betting' && host.state.hand_id, 15_000, 'the deal');
  const actor = await host.until(
    () => clients.find((c) => c.state?.hand_id === handId && c.state.hero?.turn_token),
    10_000,
    'a turn',
  );
  const folded = actor.command({
    type: 'action',
    hand_id: handId,
    turn_token: actor.state!.hero!.turn_token,
    action: 'fold',
  });
  const answer = await actor.answer(folded);
  if (answer.type !== 'ack') throw new Error(`the fold was not acked: ${JSON.stringify(answer)}`);
  return { tableId, handId, clients };
}
