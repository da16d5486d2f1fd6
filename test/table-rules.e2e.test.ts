// The table's rules through the real cluster with short clocks: refusals (duplicate, out of turn, stale
// token, forged hand, illegal action, bad amount) that change nothing; the clock (auto check/fold,
// away, sit-out after three timed-out hands, sit in again); reconnect during your own turn; leave in
// the middle of a hand; disconnect rules; resync with pub/sub messages dropped on purpose.
import { randomUUID } from 'node:crypto';
import { stateHash, type TableState } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './harness/cluster.js';
import { LobbyClient, type SignedUpUser } from './harness/lobby-client.js';
import { randomPlay, TableClient, type Msg, type TableClientOptions } from './harness/table-client.js';

let cluster: Cluster;
let lobby: LobbyClient;
const open: TableClient[] = [];

// Every room's clock at a tenth: 5 s rooms act after 0.5 s, 300 s rooms after 30 s.
const CLOCK_SCALE = 0.1;
/** A room whose clock acts fast: 0.5 s action, 0.5 s bank, 0.1 s warning. */
const FAST_CLOCK = { actionSeconds: 5, timeBankSeconds: 5, warningSeconds: 1 };
/** A room whose clock never interferes with a test: 30 s per turn. */
const SLOW_CLOCK = { actionSeconds: 300, timeBankSeconds: 0, warningSeconds: 10 };

beforeAll(async () => {
  cluster = await Cluster.start({
    gateways: 2,
    workers: 2,
    lobby: false,
    env: {
      // A loaded test machine must not drop a busy worker from the ring (membership flaps move
      // tables mid-hand; failover has its own tests).
      FELT_MEMBER_TTL_MS: '15000',
      FELT_CLOCK_SCALE: String(CLOCK_SCALE),
      FELT_HAND_PAUSE_MS: '300',
      FELT_SEED_WINDOW_MS: '400',
      FELT_BOT_THINK_MS: '20',
      FELT_BOT_ITERATIONS: '20',
      // A quiet table tells each stream its last table_seq soon (a lost last message is noticed).
      FELT_TABLE_HEARTBEAT_MS: '2000',
    },
  });
  // A third gateway that loses a quarter of its pub/sub deliveries on purpose.
  await cluster.addGateway({ GATEWAY_TEST_DROP_RATE: '0.25' });
  await cluster.startLobby();
  for (const g of cluster.gateways) await cluster.waitReady(g.httpUrl);
  lobby = new LobbyClient(cluster.lobby!.url);
});

afterAll(async () => {
  for (const c of open) c.close();
  await cluster?.stop();
});

async function users(n: number): Promise<SignedUpUser[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => lobby.signUp(`u${i}-${randomUUID().slice(0, 8)}`)));
}

async function seat(
  config: Record<string, unknown>,
  players: SignedUpUser[],
): Promise<{ tableId: string; code: string }> {
  const room = await lobby.createRoom(players[0]!, config);
  for (const p of players.slice(1)) await lobby.joinByCode(p, room.code);
  return { tableId: room.sessionId, code: room.code };
}

async function connect(
  gateway: number,
  user: SignedUpUser,
  tableId: string,
  options: TableClientOptions = {},
): Promise<TableClient> {
  const c = await TableClient.join(cluster.gateways[gateway]!.wsUrl, user.cookie, tableId, user.userId, options);
  open.push(c);
  return c;
}

function lastOf(c: TableClient, type: string): Msg | undefined {
  return c.received.filter((m) => m.type === type).at(-1);
}

/** Waits until one of the clients holds the turn of a hand; returns [actor, other]. */
async function turnOf(a: TableClient, b: TableClient, handId?: string): Promise<[TableClient, TableClient]> {
  const who = await a.until(
    () => {
      for (const c of [a, b]) {
        const s = c.state;
        if (s?.hero?.turn_token && (handId === undefined || s.hand_id === handId)) return c;
      }
      return undefined;
    },
    15_000,
    'a turn',
  );
  return who === a ? [a, b] : [b, a];
}

describe('refusals change nothing', () => {
  it('duplicate, out-of-turn, stale token, forged hand, illegal action and bad amount: each its code', async () => {
    const [ann, bob] = await users(2);
    const { tableId } = await seat({ startHand: { autoStart: false }, clock: SLOW_CLOCK }, [ann!, bob!]);
    const a = await connect(0, ann!, tableId);
    const b = await connect(1, bob!, tableId);

    // Only the host may start a hand.
    const notHost = b.command({ type: 'start_hand' });
    expect(await b.answer(notHost)).toMatchObject({
      type: 'error',
      code: 'not_allowed',
      reason: 'host_only',
      command_id: notHost,
    });
    const start = a.command({ type: 'start_hand' });
    expect(await a.answer(start)).toMatchObject({ type: 'ack' });
    const [actor, other] = await turnOf(a, b);
    const s = actor.state!;
    const handId = s.hand_id!;
    const token = s.hero!.turn_token!;
    // A barrier per client: the table's latest table_seq as it answers, after everything sent before.
    const quiet = async (): Promise<[number, number]> => {
      const [x, y] = await Promise.all([actor.barrier(), other.barrier()]);
      return [x.to_table_seq as number, y.to_table_seq as number];
    };
    const before = await quiet();

    const refusals: [TableClient, Record<string, unknown>, string, Record<string, unknown>][] = [
      [other, { action: 'call', hand_id: handId, turn_token: 'AAAAAAAAAAAAAAAAAAAAAA' }, 'not_your_turn', {}],
      [actor, { action: 'call', hand_id: randomUUID(), turn_token: token }, 'stale_hand', {}],
      [actor, { action: 'check', hand_id: handId, turn_token: token }, 'illegal_action', { reason: 'cannot_check' }],
      [actor, { action: 'raise', amount: 3, hand_id: handId, turn_token: token }, 'invalid_amount', { min: 4 }],
    ];
    for (const [client, frame, code, extra] of refusals) {
      const id = client.command({ type: 'action', ...frame });
      expect(await client.answer(id), code).toMatchObject({ type: 'error', code, command_id: id, ...extra });
    }
    // Nothing was published and nothing moved: the same snapshot, hash for hash.
    expect(await quiet()).toEqual(before);
    const check = actor.command({ type: 'resync_request', from_table_seq: actor.lastSeq });
    void check;
    const resync = await actor.until(() => lastOf(actor, 'resync_response'), 10_000, 'a resync');
    expect((resync.snapshot as TableState).state_hash).toBe(s.state_hash);

    // The call, twice with one command_id: one ack answered twice, one call applied.
    const frame = {
      type: 'action',
      table_id: tableId,
      hand_id: handId,
      turn_token: token,
      command_id: 'dup-1',
      action: 'call',
    };
    actor.send(frame);
    const first = await actor.answer('dup-1');
    actor.send(frame);
    await actor.until(
      () => actor.received.filter((m) => m.type === 'ack' && m.command_id === 'dup-1').length === 2,
      10_000,
      'the second ack',
    );
    const acks = actor.received.filter((m) => m.type === 'ack' && m.command_id === 'dup-1');
    expect(acks[1]).toEqual(first);
    // After the barrier every event the table broadcast is at the other player, live or replayed.
    await other.barrier();
    const calls = other
      .events()
      .filter((m) => m.type === 'player_action' && m.hand_id === handId && m.action === 'call');
    expect(calls).toHaveLength(1);

    // The other player's turn now; then the caller's turn comes back with a new token. The old
    // one is stale.
    const [next] = await turnOf(other, actor, handId);
    expect(next).toBe(other);
    const id = other.command({
      type: 'action',
      hand_id: handId,
      turn_token: other.state!.hero!.turn_token!,
      action: 'check',
    });
    expect(await other.answer(id)).toMatchObject({ type: 'ack' });
    const [again] = await turnOf(actor, other, handId);
    if (again === actor) {
      expect(actor.state!.hero!.turn_token).not.toBe(token);
      const stale = actor.command({ type: 'action', hand_id: handId, turn_token: token, action: 'check' });
      expect(await actor.answer(stale)).toMatchObject({ type: 'error', code: 'stale_turn_token' });
    } else {
      // Heads-up the big blind opens the flop: the caller's old token is refused the same way later.
      const stale = other.command({ type: 'action', hand_id: handId, turn_token: token, action: 'check' });
      expect(await other.answer(stale)).toMatchObject({ type: 'error', code: 'stale_turn_token' });
    }
    for (const c of [a, b]) expect(c.hashMismatches).toBe(0);
  });
});

describe('the clock', () => {
  it('acts for a silent player (fold facing a bet, check when free), marks them away, sits them out after three timed-out hands; sit_in brings them back', async () => {
    const [ann, bob] = await users(2);
    const { tableId } = await seat({ clock: FAST_CLOCK }, [ann!, bob!]);
    const a = await connect(0, ann!, tableId);
    const b = await connect(1, bob!, tableId);
    // Neither plays: every decision is the clock's. Heads-up the button folds to the big blind each
    // hand, so each player times out every other hand; the third one sits them out, and then no
    // hand can start.
    const statusOf = (c: TableClient, u: SignedUpUser) => c.state?.seats.find((s) => s.user_id === u.userId)?.status;
    const out = await a.until(
      () => [ann!, bob!].find((u) => statusOf(a, u) === 'sitting_out'),
      60_000,
      'a player sat out by the clock',
    );
    const stayed = out === ann ? bob! : ann!;
    expect(statusOf(a, stayed)).toBe('away');
    const actions = a.received.filter((m) => m.type === 'player_action');
    expect(actions.length).toBeGreaterThanOrEqual(3);
    expect(actions.every((m) => m.timeout === true)).toBe(true);
    expect(actions.some((m) => m.action === 'fold')).toBe(true);
    // Warned before the clock acted; the bank was spent on the first timeout and is gone.
    expect(a.received.some((m) => m.type === 'turn_warning')).toBe(true);
    expect(a.state!.seats.find((s) => s.user_id === out.userId)?.time_bank_ms).toBe(0);
    // Three timed-out hands of their own: the seat's player timed out in at least three hands.
    const outSeat = a.state!.seats.find((s) => s.user_id === out.userId)!.seat;
    const timedOutHands = new Set(actions.filter((m) => m.seat === outSeat).map((m) => m.hand_id));
    expect(timedOutHands.size).toBe(3);
    // Nobody else to play with: once the pause after the hand is over the table schedules no next hand
    // (its snapshot drops next_hand_at), and no hand was announced (checked after a barrier).
    const hands = a.received.filter((m) => m.type === 'seed_commit').length;
    await a.until(
      () => a.state !== null && a.state.next_hand_at === undefined && a.state.phase !== 'betting',
      15_000,
      'the table to give up dealing',
    );
    await a.barrier();
    expect(a.events().filter((m) => m.type === 'seed_commit').length).toBe(hands);

    const sitter = out === ann ? a : b;
    const id = sitter.command({ type: 'sit_in' });
    expect(await sitter.answer(id)).toMatchObject({ type: 'ack' });
    await a.until(() => statusOf(a, out) !== 'sitting_out', 10_000, 'back in');
    // Sat in again, the table deals again.
    await a.until(
      () => a.received.filter((m) => m.type === 'seed_commit').length > hands,
      15_000,
      'the next hand after sit_in',
    );
  });
});

describe('reconnect and disconnect', () => {
  it('a reconnect during your own turn, through another gateway, keeps the turn_token and the deadline', async () => {
    const [ann, bob] = await users(2);
    const { tableId } = await seat({ startHand: { autoStart: false }, clock: SLOW_CLOCK }, [ann!, bob!]);
    const a = await connect(0, ann!, tableId);
    const b = await connect(1, bob!, tableId);
    a.command({ type: 'start_hand' });
    const [actor] = await turnOf(a, b);
    const user = actor === a ? ann! : bob!;
    const before = actor.state!;
    actor.close();
    // The table has seen the socket go before the player comes back.
    const other = actor === a ? b : a;
    await other.until(
      () => other.state?.seats.find((x) => x.user_id === user.userId)?.status === 'disconnected',
      10_000,
      'the disconnect seen at the table',
    );
    const back = await connect(actor === a ? 1 : 0, user, tableId);
    const after = back.state!;
    expect(after.hero?.turn_token).toBe(before.hero?.turn_token);
    expect(after.deadline).toBe(before.deadline);
    expect(after.time_bank_ms).toBe(before.time_bank_ms);
    expect(after.table_seq).toBeGreaterThan(before.table_seq);
    // And the token works.
    const id = back.command({
      type: 'action',
      hand_id: after.hand_id,
      turn_token: after.hero!.turn_token,
      action: 'call',
    });
    expect(await back.answer(id)).toMatchObject({ type: 'ack' });
  });

  it('a player who disconnects at their turn is shown disconnected and the clock still acts for them', async () => {
    const [ann, bob] = await users(2);
    const { tableId } = await seat({ startHand: { autoStart: false }, clock: FAST_CLOCK }, [ann!, bob!]);
    const a = await connect(0, ann!, tableId);
    const b = await connect(1, bob!, tableId);
    a.command({ type: 'start_hand' });
    const [actor, other] = await turnOf(a, b);
    const gone = actor === a ? ann! : bob!;
    const seatNo = actor.state!.hero!.seat;
    actor.close();
    await other.until(
      () => other.state?.seats.find((s) => s.user_id === gone.userId)?.status === 'disconnected',
      10_000,
      'the seat disconnected',
    );
    const act = await other.until(
      () => other.received.find((m) => m.type === 'player_action' && m.seat === seatNo),
      10_000,
      'the clock to act',
    );
    expect(act.timeout).toBe(true);
  });

  it('leave in the middle of a hand: at their turn the clock acts at once, and they are out when the hand ends', async () => {
    const [ann, bob, cat] = await users(3);
    const { tableId } = await seat({ startHand: { autoStart: false }, clock: { actionSeconds: 60 } }, [
      ann!,
      bob!,
      cat!,
    ]);
    const a = await connect(0, ann!, tableId);
    const b = await connect(1, bob!, tableId);
    const c = await connect(0, cat!, tableId);
    a.command({ type: 'start_hand' });
    const handId = await a.until(() => a.state?.phase === 'betting' && a.state.hand_id, 15_000, 'the deal');
    const clients = [a, b, c];
    const actor = await a.until(() => clients.find((x) => x.state?.hero?.turn_token), 10_000, 'a turn');
    // The player after the actor leaves while not on turn.
    const leaver = clients[(clients.indexOf(actor) + 1) % 3]!;
    const leaverSeat = leaver.state!.hero!.seat;
    const id = leaver.command({ type: 'leave' });
    expect(await leaver.answer(id)).toMatchObject({ type: 'ack' });
    const t0 = Date.now();
    const act = actor.command({
      type: 'action',
      hand_id: handId,
      turn_token: actor.state!.hero!.turn_token,
      action: 'call',
    });
    await actor.answer(act);
    const forced = await a.until(
      () => a.received.find((m) => m.type === 'player_action' && m.hand_id === handId && m.seat === leaverSeat),
      10_000,
      'the leaver’s decision',
    );
    // Taken at once, not after the 30 s clock.
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(forced.timeout).toBe(true);
    expect(['fold', 'check']).toContain(forced.action);
    expect(a.state!.seats.find((s) => s.seat === leaverSeat)?.status).toBe('sitting_out');
  });
});

describe('resync with pub/sub messages dropped on purpose', () => {
  it(
    'clients on a lossy gateway detect the gaps, resync, and end with the server’s hashes',
    { timeout: 240_000 },
    async () => {
      const [ann, bob] = await users(2);
      const { tableId } = await seat(
        {
          startHand: { autoStart: false },
          // A lost your_turn and its snapshot leave the player waiting for the next message: the
          // warning (6 s into the turn) or the clock's decision.
          clock: { actionSeconds: 40, timeBankSeconds: 0, warningSeconds: 34 },
          botFill: { mode: 'fill', targetPlayers: 4 },
        },
        [ann!, bob!],
      );
      const lossy = cluster.gateways.length - 1;
      const opts = { decide: randomPlay, sendSeeds: true };
      const a = await connect(lossy, ann!, tableId, { ...opts, seed: 11 });
      const b = await connect(lossy, bob!, tableId, { ...opts, seed: 12 });
      const samUser = (await users(1))[0]!;
      const sam = await connect(lossy, samUser, tableId, { spectate: true });
      const clients = [a, b, sam];

      const handsSeen = () =>
        new Set(clients.flatMap((c) => c.received.filter((m) => m.type === 'hand_started').map((m) => m.hand_id))).size;
      for (let hand = 0; hand < 4; hand++) {
        // Refused while a hand is still on (an ack or seed lost the race) or while the bots are still
        // being funded and seated: try again until a new hand is under way.
        let answer: Msg;
        for (let attempt = 0; ; attempt++) {
          answer = await a.answer(a.command({ type: 'start_hand' }), 15_000);
          if (answer.type !== 'error') break;
          expect(answer.code).toBe('cannot_start');
          if (handsSeen() > hand || attempt >= 60) break;
          // Ask again once the table has moved (a hand ending, a bot sitting down), not after a sleep.
          const at = a.lastSeq;
          await a.until(() => a.lastSeq > at || handsSeen() > hand, 15_000, 'the table to move').catch(() => undefined);
        }
        // The finish: a seed_reveal reaches at least one client, live or replayed by a resync. The
        // reveal may be the last message of a quiet table: a lost one is exposed by the table's
        // heartbeat, which names the last table_seq each stream carried.
        const revealed = (c: TableClient) =>
          new Set(
            c.received.flatMap((m) =>
              m.type === 'seed_reveal'
                ? [m.hand_id]
                : m.type === 'resync_response'
                  ? (m.replayed_events as Msg[]).filter((e) => e.type === 'seed_reveal').map((e) => e.hand_id)
                  : [],
            ),
          ).size;
        try {
          await a.until(() => clients.some((c) => revealed(c) > hand) || undefined, 120_000, `hand ${hand + 1}`);
        } catch (err) {
          const view = (c: TableClient) =>
            `${c.role}: phase=${c.state?.phase} actor=${c.state?.actor} hero=${JSON.stringify(c.state?.hero)} errors=${JSON.stringify(c.errors.slice(-3))} last=${c.received
              .slice(-4)
              .map((m) => m.type)
              .join(',')}`;
          throw new Error(
            `${(err as Error).message}; ${clients.map(view).join(' | ')}; start answer ${JSON.stringify(answer)}`,
            {
              cause: err,
            },
          );
        }
      }
      const lost = clients.reduce((n, c) => n + c.lossesDetected, 0);
      const resyncs = clients.reduce((n, c) => n + c.resyncs, 0);
      expect(lost, 'the lossy gateway lost messages and the clients noticed').toBeGreaterThan(0);
      expect(resyncs).toBeGreaterThan(0);

      // Quiet table; then probes (status changes everyone sees) until every client has the latest
      // message: a client that missed the previous one finds out from prev_table_seq and resyncs.
      for (let i = 0; i < 40; i++) {
        const probe = a.command({ type: i % 2 === 0 ? 'sit_out' : 'sit_in' });
        const ack = await a.answer(probe, 15_000);
        if (ack.type !== 'ack') continue;
        const at = ack.at_table_seq as number;
        // Each client either reaches the probe or is behind: a lost message, which the next probe's
        // prev_table_seq exposes. The wait is bounded, and a miss only means one more probe.
        const reached = await Promise.all(
          clients.map((c) =>
            c
              .until(() => c.lastSeq >= at, 1_000, 'the probe')
              .then(
                () => true,
                () => false,
              ),
          ),
        );
        if (reached.every(Boolean)) break;
      }
      for (const c of clients) {
        // The client's own snapshot verifies, and matches what the server builds for it now.
        const held = c.state!;
        const { state_hash, ...rest } = held;
        expect(stateHash(rest)).toBe(state_hash);
        const from = c.received.length;
        c.send({ type: 'resync_request', table_id: tableId, from_table_seq: c.lastSeq });
        const fresh = (await c.until(
          () => c.received.slice(from).find((m) => m.type === 'resync_response'),
          10_000,
          'a final resync',
        )) as Msg & { snapshot: TableState; replayed_events: unknown[] };
        expect(fresh.snapshot.state_hash, `${c.role} ${c.userId}`).toBe(held.state_hash);
        expect(c.hashMismatches).toBe(0);
        expect(c.invalidMessages).toEqual([]);
      }
    },
  );
});
