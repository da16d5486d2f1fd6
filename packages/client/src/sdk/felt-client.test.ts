// The SDK against a scripted server: fake sockets and a fake clock, so reconnects, retries and
// resyncs are checked step by step. The real cluster is exercised in test/sdk-*.test.ts.
import { serverMessageSchema, type TableEvent, type TableState } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { FakeTimers } from '../../test/support/fake-timers.js';
import { FakeSocketFactory, type FakeSocket } from '../../test/support/fake-socket.js';
import {
  HAND_A,
  TABLE,
  TOKEN,
  VALID,
  holeCards,
  playerAction,
  resync,
  seat,
  emptySeat,
  streetRevealed,
  tableState,
  yourTurn,
} from '../../test/support/messages.js';
import { commitOf, deckOrder, deckSeedOf, fromHex, toHex } from '../fairness/derive.js';
import { CommandRefusedError } from './errors.js';
import { FeltClient } from './felt-client.js';
import type { HandFairness } from './hand-fairness.js';

/** Deterministic, distinct "random" bytes: a counter spread over the buffer. */
function counterBytes(): (n: number) => Uint8Array {
  let k = 0;
  return (n) => {
    k++;
    return Uint8Array.from({ length: n }, (_, i) => (k * 31 + i * 7) & 0xff);
  };
}

function setup(options: { spectate?: boolean; clientSeeds?: boolean } = {}) {
  const timers = new FakeTimers();
  const sockets = new FakeSocketFactory();
  const client = new FeltClient({
    gatewayUrls: ['ws://g1/ws', 'ws://g2/ws'],
    socketFactory: sockets.create,
    timers,
    random: () => 0.5,
    randomBytes: counterBytes(),
    backoff: { baseMs: 100, maxMs: 1_000 },
    pingIntervalMs: 0,
    commandRetryMs: 1_000,
    commandAttempts: 3,
    clientSeeds: options.clientSeeds ?? true,
  });
  client.connect();
  sockets.last.acceptOpen();
  const table = client.join(TABLE, { spectate: options.spectate ?? false });
  return { timers, sockets, client, table };
}

function deliver(socket: FakeSocket, message: unknown): void {
  socket.deliver(message);
}

describe('FeltClient: joining and the state store', () => {
  it('joins with a command_id, installs the verified snapshot and reports it', () => {
    const { sockets, client, table } = setup();
    const join = sockets.last.framesOfType('join_table');
    expect(join).toEqual([
      { type: 'join_table', table_id: TABLE, command_id: expect.stringMatching(/^[0-9a-f]{32}$/) },
    ]);
    const views: unknown[] = [];
    table.on('view', (v) => views.push(v));
    deliver(sockets.last, tableState(10));
    expect(table.status).toBe('joined');
    expect(table.state?.table_seq).toBe(10);
    expect(table.heroSeat).toBe(2);
    expect(views).toHaveLength(1);
    expect(client.stats).toMatchObject({ hashChecks: 1, hashMismatches: 0, resyncs: 0 });
  });

  it('is a store: subscribe fires on each change and getSnapshot returns a new immutable view', () => {
    const { sockets, table } = setup();
    const snapshots: unknown[] = [];
    const off = table.subscribe(() => snapshots.push(table.getSnapshot()));
    deliver(sockets.last, tableState(10));
    const first = table.getSnapshot();
    deliver(sockets.last, playerAction(11, 1, 'call'));
    deliver(sockets.last, playerAction(11, 1, 'call')); // duplicate: no change, no notification
    expect(snapshots).toHaveLength(2);
    expect(table.getSnapshot()).not.toBe(first);
    expect(first.lastTableSeq).toBe(10);
    off();
    deliver(sockets.last, playerAction(12, 2, 'call'));
    expect(snapshots).toHaveLength(2);
  });

  it('drops (and counts) a message that fails the protocol schemas', () => {
    const { sockets, client, table } = setup();
    deliver(sockets.last, tableState(10));
    const invalid: unknown[] = [];
    client.on('invalid', (i) => invalid.push(i));
    deliver(sockets.last, { ...playerAction(11, 1, 'call'), seat: 'one' });
    deliver(sockets.last, { type: 'no_such_type', table_id: TABLE, table_seq: 12 });
    expect(client.stats.invalidMessages).toBe(2);
    expect(invalid).toHaveLength(2);
    expect(table.view.lastTableSeq).toBe(10);
  });
});

describe('FeltClient: state_hash verification', () => {
  it('a snapshot whose bytes do not match its state_hash is not installed and triggers a resync', () => {
    const { sockets, client, table } = setup();
    deliver(sockets.last, tableState(10));
    const mismatches: unknown[] = [];
    table.on('hash_mismatch', (m) => mismatches.push(m));
    // The pot was changed after hashing: a corrupted (or differently serialized) snapshot.
    const tampered: TableState = { ...tableState(12), pot_total: 31 };
    deliver(sockets.last, tampered);
    expect(mismatches).toEqual([
      { tableSeq: 12, claimed: tampered.state_hash, computed: expect.stringMatching(/^sha256:/) },
    ]);
    expect(client.stats.hashMismatches).toBe(1);
    expect(table.state?.pot_total).toBe(30);
    expect(sockets.last.framesOfType('resync_request')).toEqual([
      { type: 'resync_request', table_id: TABLE, from_table_seq: 10 },
    ]);
    expect(client.stats.resyncsByReason.hash_mismatch).toBe(1);
    // The resync's good snapshot is installed.
    deliver(sockets.last, resync(14, tableState(14, { pot_total: 31 }), [playerAction(11, 1, 'call')], 'player', 10));
    expect(table.state?.pot_total).toBe(31);
    expect(table.view.lastTableSeq).toBe(14);
    expect(client.stats).toMatchObject({ hashChecks: 3, hashMismatches: 1, resyncs: 1 });
  });

  it('a resync_response with a bad snapshot is retried after a pause, not installed', () => {
    const { sockets, timers, client, table } = setup();
    deliver(sockets.last, tableState(10));
    table.resync();
    const bad = resync(14, { ...tableState(14), pot_total: 99 }, []);
    deliver(sockets.last, bad);
    expect(table.state?.table_seq).toBe(10);
    expect(client.stats.hashMismatches).toBe(1);
    timers.advance(250);
    expect(sockets.last.framesOfType('resync_request')).toHaveLength(2);
  });

  it('checks the snapshot as received: key order and unknown-to-the-SDK formatting do not matter', () => {
    const { sockets, client, table } = setup();
    const s = tableState(10);
    const reordered = Object.fromEntries(Object.entries(s).reverse());
    sockets.last.deliver(JSON.stringify(reordered, null, 2));
    expect(client.stats.hashMismatches).toBe(0);
    expect(table.state?.table_seq).toBe(10);
  });
});

describe('FeltClient: loss detection', () => {
  it('prev_table_seq above the watermark applies the message and resyncs; a plain gap does not', () => {
    const { sockets, client, table } = setup();
    deliver(sockets.last, tableState(10));
    deliver(sockets.last, { ...playerAction(15, 1, 'call'), prev_table_seq: 10 });
    expect(sockets.last.framesOfType('resync_request')).toHaveLength(0);
    deliver(sockets.last, { ...playerAction(20, 3, 'call'), prev_table_seq: 18 });
    expect(table.view.lastTableSeq).toBe(20);
    // The replay starts before the message that exposed the gap, so the lost event comes back.
    expect(sockets.last.framesOfType('resync_request')).toEqual([
      { type: 'resync_request', table_id: TABLE, from_table_seq: 15 },
    ]);
    expect(client.stats).toMatchObject({ lossesDetected: 1, resyncs: 1 });
    // While that resync is in flight, another loss does not stack a second request.
    deliver(sockets.last, { ...playerAction(25, 1, 'check'), prev_table_seq: 23 });
    expect(sockets.last.framesOfType('resync_request')).toHaveLength(1);
  });
});

describe('FeltClient: heartbeats of a quiet table', () => {
  it('a heartbeat naming a table_seq above the watermark means the last message was lost: resync', () => {
    const { sockets, client, table } = setup();
    deliver(sockets.last, tableState(10));
    deliver(sockets.last, { ...playerAction(12, 1, 'call'), prev_table_seq: 10 });
    // Caught up: nothing to do.
    deliver(sockets.last, { type: 'table_heartbeat', table_id: TABLE, table_seq: 12 });
    expect(sockets.last.framesOfType('resync_request')).toHaveLength(0);
    // The stream carried 14 last, which never arrived: nothing after it would have shown the loss.
    deliver(sockets.last, { type: 'table_heartbeat', table_id: TABLE, table_seq: 14 });
    expect(sockets.last.framesOfType('resync_request')).toEqual([
      { type: 'resync_request', table_id: TABLE, from_table_seq: 12 },
    ]);
    expect(client.stats).toMatchObject({ lossesDetected: 1, invalidMessages: 0 });
    expect(client.stats.resyncsByReason.loss).toBe(1);
    // The heartbeat itself is not applied.
    expect(table.view.lastTableSeq).toBe(12);
  });
});

describe('FeltClient: reconnect', () => {
  it('after a drop it reconnects with backoff, joins again and resyncs from its watermark', () => {
    const { sockets, timers, client, table } = setup();
    deliver(sockets.last, tableState(10));
    deliver(sockets.last, playerAction(12, 1, 'call'));
    sockets.last.serverClose(1001, 'gateway going away');
    expect(table.status).toBe('joining');
    timers.advance(49);
    expect(sockets.sockets).toHaveLength(1);
    timers.advance(1);
    expect(sockets.sockets).toHaveLength(2);
    expect(sockets.last.url).toBe('ws://g2/ws');
    sockets.last.acceptOpen();
    expect(sockets.last.framesOfType('join_table')).toHaveLength(1);
    expect(sockets.last.framesOfType('resync_request')).toHaveLength(0);
    // The join answer; then the resync follows, replaying from where the old socket stopped.
    deliver(sockets.last, tableState(16));
    expect(sockets.last.framesOfType('resync_request')).toEqual([
      { type: 'resync_request', table_id: TABLE, from_table_seq: 12 },
    ]);
    expect(client.stats).toMatchObject({ reconnects: 1, resyncs: 1 });
    expect(client.stats.resyncsByReason.reconnect).toBe(1);
  });

  it('resyncs even when the join answer brings nothing new', () => {
    const { sockets, timers, table } = setup();
    deliver(sockets.last, tableState(10));
    sockets.last.serverClose();
    timers.advance(1_000);
    sockets.last.acceptOpen();
    deliver(sockets.last, tableState(10));
    expect(table.status).toBe('joined');
    expect(sockets.last.framesOfType('resync_request')).toEqual([
      { type: 'resync_request', table_id: TABLE, from_table_seq: 10 },
    ]);
  });
});

describe('FeltClient: a table the cluster forgot', () => {
  it('not_joined for a joined session: it joins again and resyncs from its watermark, once per answer', () => {
    const { sockets, client, table } = setup();
    deliver(sockets.last, tableState(10));
    expect(table.status).toBe('joined');
    table.resync();
    // The gateway gave up re-attaching this connection after a failover: nothing of the table reaches it.
    deliver(sockets.last, { type: 'error', table_id: TABLE, code: 'not_joined', message: 'join the table first' });
    expect(table.status).toBe('joining');
    expect(sockets.last.framesOfType('join_table')).toHaveLength(2);
    deliver(sockets.last, tableState(14));
    expect(table.status).toBe('joined');
    expect(sockets.last.framesOfType('resync_request').at(-1)).toEqual({
      type: 'resync_request',
      table_id: TABLE,
      from_table_seq: 10,
    });
    expect(client.stats.rejoins).toBe(1);
  });

  it('not_joined while already joining, or any other refusal, does not join again', () => {
    const { sockets, client, table } = setup();
    deliver(sockets.last, { type: 'error', table_id: TABLE, code: 'not_joined', message: 'join the table first' });
    deliver(sockets.last, tableState(10));
    deliver(sockets.last, { type: 'error', table_id: TABLE, code: 'rate_limited', message: 'slow down' });
    expect(sockets.last.framesOfType('join_table')).toHaveLength(1);
    expect(table.status).toBe('joined');
    expect(client.stats.rejoins).toBe(0);
  });
});

describe('FeltClient: a silent table', () => {
  it('a joined table that sends nothing, not even heartbeats, for 25 s is asked for a resync', () => {
    const { sockets, timers, client } = setup();
    deliver(sockets.last, tableState(10));
    // A quiet but live table: heartbeats every 10 s keep the watch quiet.
    for (let i = 0; i < 4; i++) {
      timers.advance(10_000);
      deliver(sockets.last, { type: 'table_heartbeat', table_id: TABLE, table_seq: 10 });
    }
    expect(sockets.last.framesOfType('resync_request')).toHaveLength(0);
    // Then nothing at all.
    timers.advance(24_999);
    expect(sockets.last.framesOfType('resync_request')).toHaveLength(0);
    timers.advance(1);
    expect(sockets.last.framesOfType('resync_request')).toEqual([
      { type: 'resync_request', table_id: TABLE, from_table_seq: 10 },
    ]);
    expect(client.stats.resyncsByReason.silence).toBe(1);
  });

  it('the owner forgot this connection: the resync is answered not_joined, and the client joins again', () => {
    const { sockets, timers, client, table } = setup();
    deliver(sockets.last, tableState(10));
    timers.advance(25_000);
    expect(sockets.last.framesOfType('resync_request')).toHaveLength(1);
    deliver(sockets.last, { type: 'error', table_id: TABLE, code: 'not_joined', message: 'join the table first' });
    expect(sockets.last.framesOfType('join_table')).toHaveLength(2);
    deliver(sockets.last, tableState(90));
    expect(table.status).toBe('joined');
    expect(table.state?.table_seq).toBe(90);
    expect(client.stats.rejoins).toBe(1);
  });

  it('off with tableSilenceMs: 0', () => {
    const timers = new FakeTimers();
    const sockets = new FakeSocketFactory();
    const client = new FeltClient({
      gatewayUrls: ['ws://g1/ws'],
      socketFactory: sockets.create,
      timers,
      random: () => 0.5,
      randomBytes: counterBytes(),
      pingIntervalMs: 0,
      tableSilenceMs: 0,
    });
    client.connect();
    sockets.last.acceptOpen();
    client.join(TABLE);
    deliver(sockets.last, tableState(10));
    timers.advance(120_000);
    expect(sockets.last.framesOfType('resync_request')).toHaveLength(0);
  });
});

describe('FeltClient: commands', () => {
  function onTurn() {
    const env = setup();
    deliver(env.sockets.last, tableState(10, { actor: 2 }));
    deliver(env.sockets.last, yourTurn(11));
    return env;
  }

  it('act sends the turn’s hand_id and turn_token with a fresh command_id and resolves on the ack', async () => {
    const { sockets, client, table } = onTurn();
    expect(table.turn?.turnToken).toBe(TOKEN);
    const acked = table.act({ action: 'raise', amount: 60 });
    const [frame] = sockets.last.framesOfType('action');
    expect(frame).toEqual({
      type: 'action',
      table_id: TABLE,
      hand_id: HAND_A,
      turn_token: TOKEN,
      action: 'raise',
      amount: 60,
      command_id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    deliver(sockets.last, { type: 'ack', table_id: TABLE, command_id: frame!.command_id, at_table_seq: 12 });
    await expect(acked).resolves.toMatchObject({ command_id: frame!.command_id });
    expect(client.stats).toMatchObject({ commandsSent: 1, acks: 1 });
    expect(client.ackLatencies).toEqual([{ type: 'action', ms: 0 }]);
  });

  it('an unanswered command is re-sent with the same command_id, then fails with command_timeout', async () => {
    const { sockets, timers, client, table } = onTurn();
    const acked = table.act({ action: 'call' });
    timers.advance(1_000);
    timers.advance(1_000);
    const frames = sockets.last.framesOfType('action');
    expect(frames).toHaveLength(3);
    expect(new Set(frames.map((f) => f.command_id)).size).toBe(1);
    expect(client.stats.commandRetries).toBe(2);
    timers.advance(1_000);
    await expect(acked).rejects.toMatchObject({ code: 'command_timeout' });
  });

  it('a command pending across a reconnect is re-sent with its command_id once the table is joined again', async () => {
    const { sockets, timers, table } = onTurn();
    const acked = table.act({ action: 'call' });
    const first = sockets.last.framesOfType('action')[0]!;
    sockets.last.serverClose(1006);
    timers.advance(100);
    sockets.last.acceptOpen();
    expect(sockets.last.framesOfType('action')).toHaveLength(0);
    deliver(
      sockets.last,
      tableState(13, { actor: 2, hero: { seat: 2, cards: ['As', 'Kd'], valid_actions: VALID, turn_token: TOKEN } }),
    );
    const again = sockets.last.framesOfType('action');
    expect(again).toEqual([first]);
    deliver(sockets.last, { type: 'ack', table_id: TABLE, command_id: first.command_id, at_table_seq: 12 });
    await expect(acked).resolves.toBeDefined();
  });

  it('a refusal rejects with CommandRefusedError carrying the protocol code', async () => {
    const { sockets, table } = onTurn();
    const acked = table.act({ action: 'check' });
    const frame = sockets.last.framesOfType('action')[0]!;
    deliver(sockets.last, {
      type: 'error',
      code: 'illegal_action',
      message: 'cannot check facing a bet',
      reason: 'cannot_check',
      command_id: frame.command_id,
      table_id: TABLE,
    });
    const err = await acked.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandRefusedError);
    expect((err as CommandRefusedError).serverCode).toBe('illegal_action');
  });

  it('an unavailable answer sends the command again with its command_id; a refusal only when it keeps failing', async () => {
    const { sockets, timers, table } = onTurn();
    const unavailable = (commandId: unknown) => ({
      type: 'error',
      code: 'unavailable',
      message: 'the table could not save this in time; retry shortly',
      command_id: commandId,
      table_id: TABLE,
    });
    const acked = table.act({ action: 'call' });
    const first = sockets.last.framesOfType('action')[0]!;
    deliver(sockets.last, unavailable(first.command_id));
    expect(sockets.last.framesOfType('action')).toHaveLength(1);
    timers.advance(500);
    const frames = sockets.last.framesOfType('action');
    expect(frames).toEqual([first, first]);
    deliver(sockets.last, { type: 'ack', table_id: TABLE, command_id: first.command_id, at_table_seq: 12 });
    await expect(acked).resolves.toMatchObject({ command_id: first.command_id });

    // Unavailable at every attempt: refused with that code once the attempts are spent.
    const { sockets: s2, timers: t2, table: table2 } = onTurn();
    const refused = table2.act({ action: 'call' });
    const frame = s2.last.framesOfType('action')[0]!;
    for (let i = 0; i < 3; i++) {
      deliver(s2.last, unavailable(frame.command_id));
      t2.advance(500);
    }
    const err = await refused.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandRefusedError);
    expect((err as CommandRefusedError).serverCode).toBe('unavailable');
    expect(s2.last.framesOfType('action')).toHaveLength(3);
  });

  it('act outside the hero’s turn sends nothing', async () => {
    const { sockets, table } = setup();
    deliver(sockets.last, tableState(10, { actor: 1 }));
    await expect(table.act({ action: 'fold' })).rejects.toMatchObject({ code: 'no_turn' });
    expect(sockets.last.framesOfType('action')).toHaveLength(0);
  });

  it('emits turn once per turn_token', () => {
    const { sockets, table } = setup();
    const turns: string[] = [];
    table.on('turn', (t) => turns.push(t.turnToken));
    deliver(sockets.last, tableState(10, { actor: 2 }));
    deliver(sockets.last, yourTurn(11));
    deliver(
      sockets.last,
      tableState(12, { actor: 2, hero: { seat: 2, cards: ['As', 'Kd'], valid_actions: VALID, turn_token: TOKEN } }),
    );
    deliver(sockets.last, playerAction(13, 2, 'call'));
    deliver(sockets.last, yourTurn(15, { turn_token: 'tok_cccccccccccccccc' }));
    expect(turns).toEqual([TOKEN, 'tok_cccccccccccccccc']);
  });
});

describe('FeltClient: provably fair dealing', () => {
  const serverSeed = Uint8Array.from({ length: 32 }, (_, i) => i);
  const commit = commitOf(serverSeed);

  function seedCommitMsg(tableSeq: number): TableEvent {
    return {
      type: 'seed_commit',
      table_id: TABLE,
      table_seq: tableSeq,
      hand_id: HAND_A,
      hand_seq: 0,
      seed_commit: commit,
      window_closes_at: 1_764_400_001_500,
      seats: [1, 2, 3],
    };
  }

  function revealFor(clientSeeds: { seat: number; seed: string }[], tamper = false): TableEvent {
    const deckSeed = deckSeedOf(
      tamper ? Uint8Array.from({ length: 32 }, () => 9) : serverSeed,
      HAND_A,
      clientSeeds.map((c) => ({ seat: c.seat, seed: fromHex(c.seed)! })),
    );
    const deck = deckOrder(deckSeed, 'standard52');
    return {
      type: 'seed_reveal',
      table_id: TABLE,
      table_seq: 40,
      hand_id: HAND_A,
      hand_seq: 30,
      reveal: {
        hand_id: HAND_A,
        seed_commit: commit,
        server_seed: toHex(serverSeed),
        client_seeds: clientSeeds,
        deck_seed: toHex(deckSeed),
        variant: 'holdem',
        version: 'felt-deck-v1',
        deck: 'standard52',
        dealt: deck.slice(0, 9).map((card, index) => ({ index, card })),
      },
    };
  }

  function playHand(opts: { ackSeed: boolean; tamper?: boolean; dropOwnSeed?: boolean }) {
    const env = setup();
    const { sockets } = env;
    deliver(sockets.last, tableState(5, { hand_id: undefined, phase: 'waiting', seed_commit: undefined }));
    deliver(sockets.last, seedCommitMsg(6));
    const [seedFrame] = sockets.last.framesOfType('client_seed');
    const seed = String(seedFrame?.seed);
    if (opts.ackSeed) {
      deliver(sockets.last, { type: 'ack', table_id: TABLE, command_id: seedFrame!.command_id, at_table_seq: 6 });
    }
    const seeds = opts.dropOwnSeed ? [] : [{ seat: 2, seed }];
    const reveal = revealFor(seeds, opts.tamper) as Extract<TableEvent, { type: 'seed_reveal' }>;
    const deck = reveal.reveal.dealt.map((d) => d.card);
    deliver(sockets.last, holeCards(8, [deck[1]!, deck[4]!]));
    deliver(sockets.last, streetRevealed(20, deck.slice(6, 9)));
    const verdicts: HandFairness[] = [];
    env.table.on('fairness', (v) => verdicts.push(v));
    deliver(sockets.last, reveal);
    return { ...env, seedFrame: seedFrame!, verdicts };
  }

  it('answers seed_commit with a fresh 32-byte seed and verifies the reveal with it', () => {
    const { seedFrame, verdicts, client, table } = playHand({ ackSeed: true });
    expect(seedFrame).toMatchObject({ type: 'client_seed', table_id: TABLE, hand_id: HAND_A });
    expect(seedFrame.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toMatchObject({
      handId: HAND_A,
      ok: true,
      commit,
      commitSeenBeforeDeal: true,
      ownSeed: { seat: 2, status: 'accepted' },
      serverSeedOnly: false,
      problems: [],
    });
    expect(table.fairness(HAND_A)?.ok).toBe(true);
    expect(client.stats).toMatchObject({ clientSeedsSent: 1, handsVerified: 1, handsFailedVerification: 0 });
  });

  it('fails the hand when an accepted own seed is missing from the reveal', () => {
    const { verdicts, client } = playHand({ ackSeed: true, dropOwnSeed: true });
    expect(verdicts[0]!.ok).toBe(false);
    expect(verdicts[0]!.result.failures.map((f) => f.code)).toContain('own_seed_missing');
    expect(client.stats.handsFailedVerification).toBe(1);
  });

  it('fails the hand when a card this client saw is not among the revealed dealt cards', () => {
    const env = setup();
    const { sockets } = env;
    deliver(sockets.last, tableState(5, { hand_id: undefined, phase: 'waiting', seed_commit: undefined }));
    deliver(sockets.last, seedCommitMsg(6));
    const reveal = revealFor([]) as Extract<TableEvent, { type: 'seed_reveal' }>;
    const dealt = new Set(reveal.reveal.dealt.map((d) => d.card));
    const foreign = ['2c', '3c', '4c', '5c', '6c', '7c', '8c', '9c', 'Tc', 'Jc', 'Qc'].filter((c) => !dealt.has(c));
    deliver(sockets.last, holeCards(8, [foreign[0]!, foreign[1]!]));
    const verdicts: HandFairness[] = [];
    env.table.on('fairness', (v) => verdicts.push(v));
    deliver(sockets.last, reveal);
    expect(verdicts[0]).toMatchObject({
      ok: false,
      problems: ['seen_card_not_dealt'],
      unexplainedCards: foreign.slice(0, 2),
    });
  });

  it('fails the hand when the server seed does not match the commit seen before the deal', () => {
    const { verdicts } = playHand({ ackSeed: true, tamper: true });
    expect(verdicts[0]!.ok).toBe(false);
    expect(verdicts[0]!.problems).toContain('verify_failed');
  });

  it('a refused (late) seed leaves the hand verifiable as server-seed-only', () => {
    const env = setup();
    const { sockets } = env;
    deliver(sockets.last, tableState(5, { hand_id: undefined, phase: 'waiting', seed_commit: undefined }));
    deliver(sockets.last, seedCommitMsg(6));
    const [seedFrame] = sockets.last.framesOfType('client_seed');
    deliver(sockets.last, {
      type: 'error',
      code: 'seed_refused',
      message: 'window closed',
      command_id: seedFrame!.command_id,
      table_id: TABLE,
    });
    const verdicts: HandFairness[] = [];
    env.table.on('fairness', (v) => verdicts.push(v));
    const reveal = revealFor([]) as Extract<TableEvent, { type: 'seed_reveal' }>;
    deliver(
      sockets.last,
      streetRevealed(
        20,
        reveal.reveal.dealt.slice(6, 9).map((d) => d.card),
      ),
    );
    deliver(sockets.last, reveal);
    expect(verdicts[0]).toMatchObject({ ok: true, serverSeedOnly: true, ownSeed: { status: 'refused' } });
  });

  it('sends no seed when disabled, or as a spectator', () => {
    const off = setup({ clientSeeds: false });
    deliver(off.sockets.last, tableState(5, { hand_id: undefined, phase: 'waiting', seed_commit: undefined }));
    deliver(off.sockets.last, seedCommitMsg(6));
    expect(off.sockets.last.framesOfType('client_seed')).toHaveLength(0);

    const spectator = setup({ spectate: true });
    expect(spectator.sockets.last.framesOfType('join_table')[0]).toMatchObject({ spectate: true });
    deliver(
      spectator.sockets.last,
      tableState(5, { hand_id: undefined, phase: 'waiting', seed_commit: undefined, hero: undefined }),
    );
    expect(spectator.table.view.role).toBe('spectator');
    deliver(spectator.sockets.last, seedCommitMsg(6));
    expect(spectator.sockets.last.framesOfType('client_seed')).toHaveLength(0);
  });
});

describe('test builders', () => {
  it('produce schema-valid messages', () => {
    for (const m of [tableState(1), tableState(2, { seats: [seat(1), emptySeat(2)], hero: undefined })]) {
      expect(serverMessageSchema.safeParse(m).error).toBeUndefined();
    }
  });
});

describe('FeltClient: the live lobby', () => {
  const room = (n: number) => ({
    session_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    code: String(100000 + n),
    status: 'open',
    game: 'holdem',
    limit: 'nl',
    stakes: '1/2',
    seats: 6,
    players: 0,
    buy_in: { min: 40, max: 200 },
    listed: true,
    practice: false,
    host_id: '00000000-0000-4000-8000-000000000999',
    created_at: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
    waitlist: 0,
  });

  it('subscribes, applies deltas in order, asks again after a gap, a refusal and a reconnect', () => {
    const { timers, sockets, client } = setup();
    const lists: number[] = [];
    const wallets: number[] = [];
    client.on('lobby', (rooms) => lists.push(rooms.length));
    client.on('wallet', (b) => wallets.push(b));
    client.subscribeLobby();
    expect(sockets.last.framesOfType('lobby_subscribe')).toHaveLength(1);
    expect(client.lobbyLive).toBe(false);

    // No list published yet: refused, and asked again a few seconds later (not at once).
    deliver(sockets.last, { type: 'error', code: 'unavailable', reason: 'live_lobby', message: 'not yet' });
    timers.advance(1_000);
    expect(sockets.last.framesOfType('lobby_subscribe')).toHaveLength(1);
    timers.advance(10_000);
    expect(sockets.last.framesOfType('lobby_subscribe')).toHaveLength(2);

    deliver(sockets.last, { type: 'lobby_rooms', version: 3, rooms: [room(1)] });
    deliver(sockets.last, { type: 'wallet', balance: 900 });
    expect(client.lobbyLive).toBe(true);
    deliver(sockets.last, { type: 'lobby_delta', version: 4, prev_version: 3, upserts: [room(2)], removed: [] });
    expect(client.lobbyRooms().map((r) => r.code)).toEqual(['100001', '100002']);
    expect(lists).toEqual([1, 2]);
    expect(wallets).toEqual([900]);

    // A delta that skips one: a fresh list is asked for at once.
    deliver(sockets.last, { type: 'lobby_delta', version: 6, prev_version: 5, upserts: [], removed: [] });
    expect(sockets.last.framesOfType('lobby_subscribe')).toHaveLength(3);
    expect(client.lobbyLive).toBe(false);
    // Too soon after the last one: refused, asked again a second or so later.
    deliver(sockets.last, { type: 'error', code: 'rate_limited', reason: 'live_lobby', message: 'slow down' });
    timers.advance(2_000);
    expect(sockets.last.framesOfType('lobby_subscribe')).toHaveLength(4);
    deliver(sockets.last, { type: 'lobby_rooms', version: 6, rooms: [] });
    expect(lists).toEqual([1, 2, 0]);

    // The socket drops: not live; the next socket subscribes by itself.
    sockets.last.serverClose();
    expect(client.lobbyLive).toBe(false);
    timers.advance(2_000);
    sockets.last.acceptOpen();
    expect(sockets.last.framesOfType('lobby_subscribe')).toHaveLength(1);

    // Unsubscribed: the list messages still in flight are ignored.
    client.unsubscribeLobby();
    expect(sockets.last.framesOfType('lobby_unsubscribe')).toHaveLength(1);
    deliver(sockets.last, { type: 'lobby_rooms', version: 7, rooms: [room(3)] });
    expect(lists).toEqual([1, 2, 0]);
    client.close();
  });
});
