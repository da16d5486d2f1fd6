// The SDK against the real cluster, with the network misbehaving on purpose: a corrupted snapshot, a
// lost live message and a connection cut during the hero's own turn. Each time the SDK must notice,
// resync from the real server and end where an unharmed client is.
import { TableBot, type TableSession, type TurnInfo } from '@felt/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './harness/cluster.js';
import { waitFor } from './harness/wait.js';
import { seededRandom, TableCrew, type Member } from './sdk/crew.js';
import { TamperingFactory } from './sdk/tamper.js';

let cluster: Cluster;
let crew: TableCrew;
let victim: Member;
let spectator: Member;
let tamper: TamperingFactory;

beforeAll(async () => {
  cluster = await Cluster.start({ gateways: 2, workers: 2, lobby: true, persister: false });
  crew = await TableCrew.create({
    lobbyUrl: cluster.lobby!.url,
    game: 'holdem',
    players: 3,
    spectators: 1,
    namePrefix: `c${Math.random().toString(36).slice(2, 8)}`,
    seed: 17,
    client: { backoff: { baseMs: 50, maxMs: 400 } },
    socketFactoryFor: (name, cookie) => {
      if (!name.endsWith('-1')) return undefined;
      tamper = new TamperingFactory(cookie);
      return tamper.create;
    },
  });
  victim = crew.members.find((m) => m.name.endsWith('-1'))!;
  spectator = crew.members.find((m) => m.role === 'spectator')!;
  await waitFor('everyone joined', () => crew.members.every((m) => m.session.status === 'joined'), 20_000);
  await crew.waitHands(1, 60_000);
});

afterAll(async () => {
  await crew?.stop();
  await cluster?.stop();
});

/** Waits until `a` and `b` hold snapshots of the same table_seq and compares their public parts. */
async function converged(a: TableSession, b: TableSession): Promise<void> {
  const seq = await waitFor(
    'both clients at the same snapshot',
    () => (a.view.stateSeq === b.view.stateSeq && a.view.stateSeq > 0 ? a.view.stateSeq : undefined),
    20_000,
    20,
  );
  const pub = (s: TableSession) => {
    const st = s.state!;
    return {
      hand: st.hand_id,
      board: st.board,
      pot: st.pot_total,
      actor: st.actor,
      seats: st.seats.map((x) => ({ seat: x.seat, stack: x.stack, bet: x.bet, folded: x.folded, in_hand: x.in_hand })),
    };
  };
  expect(pub(a), `at table_seq ${seq}`).toEqual(pub(b));
}

describe('SDK against a real cluster', () => {
  it('a snapshot corrupted in transit fails its state_hash; the SDK resyncs from the server and converges', async () => {
    const before = { ...victim.client.stats, byReason: { ...victim.client.stats.resyncsByReason } };
    let corrupted = 0;
    tamper.filter = (f) => {
      if (corrupted === 0 && f.type === 'table_state') {
        corrupted++;
        return { ...f, pot_total: Number(f.pot_total) + 1 };
      }
      return f;
    };
    await waitFor(
      'a resync answered the mismatch',
      () =>
        victim.client.stats.resyncsByReason.hash_mismatch > before.byReason.hash_mismatch &&
        victim.session.view.lastTableSeq > 0,
      20_000,
    );
    tamper.filter = (f) => f;
    expect(victim.client.stats.hashMismatches).toBe(before.hashMismatches + 1);
    await converged(victim.session, spectator.session);
    expect(victim.client.stats.hashMismatches).toBe(before.hashMismatches + 1);
  });

  it('a live message lost on the way is detected from prev_table_seq; the resync replays it and the client converges', async () => {
    const before = victim.client.stats.lossesDetected;
    let resynced = false;
    const off = victim.session.on('message', (m) => {
      if (m.type === 'resync_response' && dropped !== undefined && m.to_table_seq >= Number(dropped.table_seq)) {
        resynced = true;
      }
    });
    let dropped: Record<string, unknown> | undefined;
    tamper.filter = (f) => {
      if (dropped === undefined && f.type === 'player_action' && f.prev_table_seq !== undefined) {
        dropped = f;
        return null;
      }
      return f;
    };
    await waitFor('the loss was detected', () => victim.client.stats.lossesDetected > before, 30_000);
    tamper.filter = (f) => f;
    expect(victim.client.stats.resyncsByReason.loss).toBeGreaterThanOrEqual(1);
    // The replay put the lost event back into the hand's history (unless a new hand began meanwhile).
    await waitFor('the resync answered', () => resynced, 10_000);
    off();
    const hand = victim.session.view.hand;
    if (hand !== null && hand.handId === dropped!.hand_id) {
      expect(hand.events.map((e) => e.table_seq)).toContain(dropped!.table_seq);
    }
    await converged(victim.session, spectator.session);
  });

  it('a connection cut during the hero’s own turn: reconnect, resync, same turn_token and deadline, then the action is accepted', async () => {
    victim.bot!.stop();
    // A fresh turn: the bot may have answered the current one just before it stopped.
    const turn = await new Promise<TurnInfo>((resolve) => {
      const off = victim.session.on('turn', (t) => {
        off();
        resolve(t);
      });
    });
    try {
      const reconnects = victim.client.stats.reconnects;
      const resyncs = victim.client.stats.resyncsByReason.reconnect;
      tamper.cut();
      await waitFor(
        'reconnected and resynced',
        () => victim.client.stats.resyncsByReason.reconnect > resyncs && victim.session.status === 'joined',
        20_000,
      );
      await waitFor(
        'the resync answered',
        () => victim.session.turn !== null && victim.session.view.stateSeq > turn.fromSeq,
        10_000,
      );
      expect(victim.client.stats.reconnects).toBe(reconnects + 1);
      const after = victim.session.turn!;
      expect(after.turnToken).toBe(turn.turnToken);
      expect(after.handId).toBe(turn.handId);
      // The turn's own deadline: the snapshot's table-level deadline may still be the previous actor's
      // when the your_turn arrives first.
      expect(turn.deadline).not.toBeNull();
      expect(after.deadline).toBe(turn.deadline);
      expect(victim.session.state?.deadline).toBe(turn.deadline);
      const ack = await victim.session.act(turn.validActions.check ? { action: 'check' } : { action: 'call' });
      expect(ack.type).toBe('ack');
    } finally {
      // Back to the bot for the rest of the run.
      victim.bot = new TableBot(victim.session, { random: seededRandom(99) });
    }
  });

  it('no recipient saw anything private, and every revealed hand verified', async () => {
    await crew.waitHands(crew.handsCompleted.size + 1, 60_000);
    crew.settlePrivacy();
    for (const m of crew.members) {
      expect(m.auditor.violations, m.name).toEqual([]);
      expect(m.problems, m.name).toEqual([]);
      expect(
        m.fairness.filter((f) => !f.ok),
        m.name,
      ).toEqual([]);
    }
  });
});
