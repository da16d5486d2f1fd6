// Engine-blind dealing through the real cluster (docs/fairness.md, "Engine-blind dealing"): three
// players on practice chips shuffle and deal among themselves at the real lambda, each reading only
// its own cards and checking every relayed proof itself; a player who drops mid-shuffle voids the hand
// (stakes back) and the table visibly goes standard; a worker killed mid-shuffle is replaced and the
// hand goes on.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BlindAutopilot, type AutopilotOptions } from './harness/blind-autopilot.js';
import { eventually, leaseHolder, workerById } from './harness/failover-play.js';
import { FailoverRig } from './harness/failover-rig.js';
import { TableClient, type Msg } from './harness/table-client.js';

let rig: FailoverRig;

beforeAll(async () => {
  rig = await FailoverRig.start({
    // A proof is about a second to make and one to check here; a loaded CI machine gets room.
    FELT_BLIND_KEY_MS: '15000',
    FELT_BLIND_SHUFFLE_MS: '20000',
    FELT_BLIND_SHARE_MS: '15000',
    FELT_BLIND_CHECK_THREADS: '1',
  });
  await rig.cluster.startPersister();
});

/**
 * Every value under the cluster's Redis prefix (checkpoints, resync buffers, marks, the hands queue's
 * jobs) and every log line of every service, as text: the rest of what a privacy sweep reads.
 */
async function redisAndLogs(): Promise<string> {
  const out: string[] = rig.cluster.processes().flatMap((p) => p.logs);
  const redis = rig.redis;
  const match = `${rig.prefix.replace(/:$/, '')}*`;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 500);
    cursor = next;
    for (const key of keys) {
      const type = await redis.type(key);
      if (type === 'string') out.push((await redis.get(key)) ?? '');
      else if (type === 'list') out.push(...(await redis.lrange(key, 0, -1)));
      else if (type === 'hash') out.push(JSON.stringify(await redis.hgetall(key)));
      else if (type === 'set') out.push(...(await redis.smembers(key)));
      else if (type === 'zset') out.push(...(await redis.zrange(key, 0, -1)));
      else if (type === 'stream') out.push(JSON.stringify(await redis.xrange(key, '-', '+')));
    }
  } while (cursor !== '0');
  return out.join('\n');
}

/** Every row of every table of the cluster's database, as JSON text: what a privacy sweep reads. */
async function everyRow(): Promise<string> {
  const prisma = rig.cluster.db.prisma;
  const tables = await prisma.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
  const out: string[] = [];
  for (const { table_name: name } of tables) {
    const rows = await prisma.$queryRawUnsafe<{ j: unknown }[]>(`SELECT json_agg(t) AS j FROM "${name}" t`);
    out.push(JSON.stringify(rows[0]?.j ?? null));
  }
  return out.join('\n');
}

afterAll(async () => {
  await rig?.stop();
});

/** This file's tables whose players are still at them (until the test that made them ends). */
const live: BlindTable[] = [];

/**
 * A test's players leave when it ends. Otherwise an earlier table's autopilots go on dealing blind
 * hands beside the next test's (proofs made in this process, checked on the workers), and on a
 * loaded machine the next table's steps could miss their deadlines.
 */
afterEach(() => {
  for (const t of live.splice(0)) {
    for (const p of t.pilots) p.stop();
    for (const c of t.clients) c.close();
  }
});

/** Waits for `what` at `c`; on a timeout, the error also says what the table's dealing and events were. */
async function awaitAt<T>(
  c: TableClient,
  fn: () => T | null | undefined | false,
  ms: number,
  what: string,
): Promise<T> {
  try {
    return await c.until(fn, ms, what);
  } catch (err) {
    const events = c
      .events()
      .map((m) => m.type)
      .filter((type) => type !== 'blind_step' && type !== 'table_state');
    const detail = JSON.stringify({
      dealing: c.state?.dealing ?? null,
      phase: c.state?.phase ?? null,
      hand_id: c.state?.hand_id ?? null,
      events,
    });
    throw new Error(`${(err as Error).message}; at the client: ${detail.slice(0, 4000)}`, { cause: err });
  }
}

const BLIND_ROOM = { dealing: 'engine_blind', practiceChips: true, seats: 6 };

interface BlindTable {
  readonly tableId: string;
  readonly buyIn: number;
  readonly clients: TableClient[];
  readonly pilots: BlindAutopilot[];
}

async function blindTable(players: readonly AutopilotOptions[]): Promise<BlindTable> {
  const users = await Promise.all(players.map((_, i) => rig.lobby.signUp(`eb${i}-${randomUUID().slice(0, 8)}`)));
  const room = await rig.lobby.createRoom(users[0]!, BLIND_ROOM);
  for (const u of users.slice(1)) await rig.lobby.joinByCode(u, room.code);
  const tableId = room.sessionId;
  rig.tables.push(tableId);
  const g = rig.cluster.gateways;
  const clients: TableClient[] = [];
  for (const [i, u] of users.entries()) {
    const c = await TableClient.join(g[i % g.length]!.wsUrl, u.cookie, tableId, u.userId);
    clients.push(c);
    rig.clients.push(c);
  }
  const t = {
    tableId,
    buyIn: room.buyIn.min,
    clients,
    pilots: clients.map((c, i) => new BlindAutopilot(c, players[i])),
  };
  live.push(t);
  return t;
}

const ofType = (c: TableClient, type: string): Msg[] => c.events().filter((m) => m.type === type);

describe('engine-blind dealing on the cluster', () => {
  it('three players deal a hand among themselves to a showdown, each reading only its own cards', async () => {
    const t = await blindTable([{}, { folds: true }, {}]);
    const [ann] = t.clients;
    const result = await ann!.until(() => ofType(ann!, 'hand_result')[0], 150_000, 'the first hand_result');
    const handId = result.hand_id as string;
    for (const c of t.clients) {
      expect(c.invalidMessages).toEqual([]);
      expect(c.hashMismatches).toBe(0);
      await c.until(() => ofType(c, 'hand_result').length > 0 && c, 30_000, 'the result at every player');
      const types = new Set(c.events().map((m) => m.type));
      expect(types.has('seed_commit') || types.has('seed_reveal') || types.has('hole_cards_dealt')).toBe(false);
    }
    // Each read two distinct cards; every player's audit of every relayed proof passed.
    const read = t.pilots.map((p) => p.holeCards.get(handId) ?? []);
    for (const cards of read) expect(cards).toHaveLength(2);
    expect(new Set(read.flat()).size).toBe(6);
    for (const p of t.pilots) expect(p.participants.get(handId)!.failure).toBeNull();
    // The folded player's cards never reached anyone else, nor the spectators' view of the table.
    const folded = read[1]!;
    for (const [i, c] of t.clients.entries()) {
      if (i === 1) continue;
      const everything = JSON.stringify(c.received);
      for (const card of folded) expect(everything).not.toContain(`"${card}"`);
    }
    // Nor any row in Postgres, once the persister has written the hand.
    const prisma = rig.cluster.db.prisma;
    await eventually(
      'the hand in Postgres',
      async () => (await prisma.hand.count({ where: { handId } })) === 1,
      60_000,
    );
    const rows = await everyRow();
    expect(rows).toContain(handId);
    // Cards are there as quoted codes (the board's), so the absence below is meaningful.
    const board = ofType(ann!, 'street_revealed').flatMap((m) => m.board as string[]);
    expect(board.length).toBeGreaterThan(0);
    for (const card of board) expect(rows).toContain(`"${card}"`);
    for (const card of folded) expect(rows).not.toContain(`"${card}"`);
    // Nor Redis (the table's checkpoint and buffer, the queue's job), nor any service's log. The
    // checkpoint holds the board as text, so a card written there would be found.
    const kept = await redisAndLogs();
    expect(kept).toContain(`"${board[0]}"`);
    for (const card of folded) expect(kept).not.toContain(`"${card}"`);
    // Those who showed showed what they read.
    const shown = ofType(ann!, 'showdown').flatMap((m) => m.shown as { seat: number; cards: string[] }[]);
    const seats = ann!.state!.dealing!.blind!.seats;
    for (const s of shown) {
      const who = t.clients.findIndex((c) => c.state?.hero?.seat === s.seat);
      expect([...s.cards].sort()).toEqual([...read[who]!].sort());
    }
    expect(seats).toHaveLength(3);
    const res = result as unknown as { players: { net: number }[]; rake: number };
    expect(res.players.reduce((sum, p) => sum + p.net, 0) + res.rake).toBe(0);
  });

  it('a player who drops mid-shuffle voids the hand, stakes back, and the table deals standard from then on', async () => {
    const t = await blindTable([{}, {}]);
    const [ann, bob] = t.clients as [TableClient, TableClient];
    // Bob goes away once the first shuffle is in: his shuffle never comes.
    await awaitAt(bob, () => (bob.state?.dealing?.blind?.shuffled ?? 0) >= 1 && bob.state, 60_000, 'the first shuffle');
    t.pilots[1]!.stop();
    bob.close();
    const bobSeat = bob.state!.hero!.seat;
    const voided = await ann.until(() => ofType(ann, 'hand_voided')[0], 60_000, 'the void');
    expect(voided.reason).toBe('engine_blind_failed');
    // Bob owed the second shuffle, or (had he shuffled first) the shares of Ann's hole cards.
    expect(voided.blind_failure).toMatchObject({ reason: 'timeout', seats: [bobSeat] });
    const stacks = voided.stacks as { seat: number; stack: number }[];
    // Nobody lost or won a chip: every stack is the buy-in it sat down with.
    expect(stacks.map((s) => s.stack)).toEqual([t.buyIn, t.buyIn]);
    // The banner, and standard dealing: the next hand announces a seed commitment.
    await ann.until(
      () => ann.state?.dealing?.downgraded?.hand_id === voided.hand_id && ann.state?.dealing?.mode === 'standard',
      30_000,
      'the downgrade banner',
    );
  });

  it('a worker killed mid-shuffle is replaced, and the next owner finishes the hand', async () => {
    const t = await blindTable([{}, {}, {}]);
    const [ann] = t.clients as [TableClient, ...TableClient[]];
    await awaitAt(ann, () => (ann.state?.dealing?.blind?.shuffled ?? 0) >= 1 && ann.state, 60_000, 'the first shuffle');
    const holder = await eventually('a lease holder', () => leaseHolder(rig.redis, rig.prefix, t.tableId));
    await workerById(rig.cluster, holder.workerId)!.proc.kill('SIGKILL');
    const replacement = rig.cluster.addWorker();
    const result = await ann.until(
      () => ofType(ann, 'hand_result')[0] ?? ofType(ann, 'hand_voided')[0],
      150_000,
      'the end of the hand',
    );
    await replacement;
    expect(result.type === 'hand_voided' ? JSON.stringify(result) : result.type).toBe('hand_result');
    const next = await leaseHolder(rig.redis, rig.prefix, t.tableId);
    expect(next?.workerId).not.toBe(holder.workerId);
    for (const p of t.pilots) expect(p.participants.get(result.hand_id as string)!.failure).toBeNull();
  });
});
