// The live lobby through the real cluster: the lobby's feed (one replica at a time) publishes the
// room list's changes and the watched wallets on Redis, and the gateways send them on to sockets that
// subscribed. A player watching sees a room another player opens, its seat count change, and its
// closing, and their own wallet move with a buy-in, without one request to the lobby's HTTP API.
import { randomBytes } from 'node:crypto';
import { FeltClient, headerWebSocketFactory, LobbyClient } from '@felt/client';
import type { ErrorMessage, LobbyRoomSummary } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Cluster } from './harness/cluster.js';
import { waitFor } from './harness/wait.js';

const PASSWORD = 'correct horse battery staple';

let cluster: Cluster;
const clients: FeltClient[] = [];

beforeAll(async () => {
  cluster = await Cluster.start({ workers: 1, gateways: 2, lobby: true, env: { FELT_LOBBY_FEED_MS: '200' } });
});

afterAll(async () => {
  for (const c of clients) c.close();
  await cluster?.stop();
});

async function player(prefix: string): Promise<LobbyClient> {
  const lobby = new LobbyClient({ baseUrl: cluster.lobby!.url });
  await lobby.signup(`${prefix}${randomBytes(3).toString('hex')}`, PASSWORD);
  return lobby;
}

function watch(lobby: LobbyClient, gateway: number) {
  const client = new FeltClient({
    gatewayUrls: [cluster.gateways[gateway]!.wsUrl],
    socketFactory: headerWebSocketFactory(WebSocket, { cookie: lobby.cookie! }),
    pingIntervalMs: 0,
  });
  clients.push(client);
  const seen = { lists: 0, wallets: [] as number[], errors: [] as ErrorMessage[] };
  client.on('lobby', () => void seen.lists++);
  client.on('wallet', (balance) => void seen.wallets.push(balance));
  client.on('error', (e) => void seen.errors.push(e));
  client.connect();
  client.subscribeLobby();
  return { client, seen };
}

const roomIn = (client: FeltClient, id: string): LobbyRoomSummary | undefined =>
  client.lobbyRooms().find((r) => r.session_id === id);

describe('the live lobby', () => {
  it('rooms opening, filling and closing, and the wallet, reach a watching socket on either gateway', async () => {
    const ann = await player('lfa');
    const bob = await player('lfb');
    const annWatch = watch(ann, 0);
    const bobWatch = watch(bob, 1);
    await waitFor('both lists', () => annWatch.client.lobbyLive && bobWatch.client.lobbyLive, 20_000, 20);
    const annStart = (await ann.me()).wallet;
    await waitFor('ann’s wallet', () => annWatch.seen.wallets.at(-1) === annStart, 20_000, 20);

    // Bob opens a listed room: Ann's list gets it.
    const created = await bob.createRoom({ config: { listed: true } });
    const id = created.session_id;
    const opened = await waitFor('the new room at ann', () => roomIn(annWatch.client, id), 20_000, 20);
    expect(opened).toMatchObject({ code: created.code, players: created.room.players, status: 'open' });

    // Ann sits down: the seat count moves for both watchers, and Ann's wallet pays the buy-in.
    const buyIn = created.room.buy_in.min;
    await ann.joinByCode(created.code, { buy_in: buyIn });
    const players = created.room.players + 1;
    await waitFor('ann seated, seen by bob', () => roomIn(bobWatch.client, id)?.players === players, 20_000, 20);
    await waitFor('ann’s wallet after the buy-in', () => annWatch.seen.wallets.at(-1) === annStart - buyIn, 20_000, 20);

    // Bob closes it: it leaves the list.
    await bob.closeRoom(id);
    await waitFor('the room gone at ann', () => roomIn(annWatch.client, id) === undefined, 30_000, 20);
    expect(annWatch.seen.errors).toEqual([]);
    expect(bobWatch.seen.errors).toEqual([]);
  });

  it('a socket that stops watching hears nothing more; one that subscribes again gets a fresh list', async () => {
    const cat = await player('lfc');
    const dan = await player('lfd');
    const catWatch = watch(cat, 0);
    await waitFor('cat’s list', () => catWatch.client.lobbyLive, 20_000, 20);
    catWatch.client.unsubscribeLobby();
    const listsBefore = catWatch.seen.lists;
    const created = await dan.createRoom({ config: { listed: true } });
    // A watcher on the same gateway sees the room: the change was published and delivered there.
    const eveWatch = watch(await player('lfe'), 0);
    await waitFor('the room at a watcher', () => roomIn(eveWatch.client, created.session_id), 20_000, 20);
    expect(catWatch.seen.lists).toBe(listsBefore);
    expect(roomIn(catWatch.client, created.session_id)).toBeUndefined();

    catWatch.client.subscribeLobby();
    await waitFor('a fresh list with the room', () => roomIn(catWatch.client, created.session_id), 20_000, 20);
    await dan.closeRoom(created.session_id);
  });
});
