// Invariant 2 of docs/architecture.md: every message of at least 500 real hands, to every recipient
// (players at bot-fill tables and spectators of bot-only operator tables), checked against the engine's
// own record of who held which card: no foreign hole card before it is shown, no deck, no seed before
// the reveal. The same run checks the stream itself: schema-valid, hashes right, no gaps.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './harness/cluster.js';
import { LobbyClient } from './harness/lobby-client.js';
import { HandRecords, handIdsIn, privacyViolations, type HandTruth } from './harness/privacy.js';
import { passivePlay, TableClient, type Msg } from './harness/table-client.js';
import { makeBotOnlyTable } from './harness/table-ops.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const HANDS = Number(process.env.FELT_PRIVACY_HANDS ?? 500);

let cluster: Cluster;
let records: HandRecords;
const players: TableClient[] = [];
const spectators: TableClient[] = [];

beforeAll(async () => {
  cluster = await Cluster.start({
    gateways: 2,
    workers: 2,
    lobby: true,
    env: {
      // A loaded test machine must not drop a busy worker from the ring (membership flaps move
      // tables mid-hand; failover has its own tests).
      FELT_MEMBER_TTL_MS: '15000',
      FELT_ACTION_MS: '3000',
      FELT_TIME_BANK_MS: '500',
      FELT_WARNING_MS: '300',
      FELT_HAND_PAUSE_MS: '10',
      FELT_BOT_THINK_MS: '20',
      FELT_BOT_ITERATIONS: '12',
      FELT_BOT_SEED: 'privacy-sweep',
      // Hands here last a fraction of a second; a player's seeds and actions must not hit the
      // per-socket rate limit meant for people.
      GATEWAY_RATE_PER_SEC: '500',
      GATEWAY_RATE_BURST: '1000',
    },
  });
  records = new HandRecords(REDIS_URL, cluster.prefix);
});

afterAll(async () => {
  for (const c of [...players, ...spectators]) c.close();
  await records?.close();
  await cluster?.stop();
});

const CONFIG = { game: 'holdem', buyIn: { min: 80, max: 2000 } };

describe('privacy sweep', () => {
  it(
    `no recipient ever sees a foreign hole card, a deck or an unrevealed seed (${HANDS}+ hands)`,
    { timeout: 300_000 },
    async () => {
      const lobby = new LobbyClient(cluster.lobby!.url);
      const g = cluster.gateways;
      // Three bot-fill tables, each with a human player, and three bot-only operator tables; a
      // spectator at every table, on the other gateway.
      for (let i = 0; i < 3; i++) {
        const host = await lobby.signUp(`p${i}-${randomUUID().slice(0, 8)}`);
        const room = await lobby.createRoom(
          host,
          { ...CONFIG, botFill: { mode: 'fill', targetPlayers: 4 } },
          { seatHost: false },
        );
        await lobby.joinByCode(host, room.code, 2000);
        players.push(
          await TableClient.join(g[i % 2]!.wsUrl, host.cookie, room.sessionId, host.userId, {
            sendSeeds: true,
            decide: passivePlay,
          }),
        );
        const sam = await lobby.signUp(`s${i}-${randomUUID().slice(0, 8)}`);
        spectators.push(
          await TableClient.join(g[(i + 1) % 2]!.wsUrl, sam.cookie, room.sessionId, sam.userId, { spectate: true }),
        );
      }
      for (let i = 0; i < 4; i++) {
        const operator = await lobby.signUp(`op${i}-${randomUUID().slice(0, 8)}`);
        const room = await lobby.createRoom(
          operator,
          { ...CONFIG, botFill: { mode: 'fill', targetPlayers: 3 } },
          { seatHost: false },
        );
        await makeBotOnlyTable(cluster, room.sessionId);
        const sam = await lobby.signUp(`b${i}-${randomUUID().slice(0, 8)}`);
        spectators.push(
          await TableClient.join(g[i % 2]!.wsUrl, sam.cookie, room.sessionId, sam.userId, { spectate: true }),
        );
      }

      const finished = (): number =>
        new Set(spectators.flatMap((s) => s.received.filter((m) => m.type === 'seed_reveal').map((m) => m.hand_id)))
          .size;
      const watcher = spectators[0]!;
      const started = Date.now();
      const progress = setInterval(
        () => console.log(`privacy sweep: ${finished()} hands in ${Date.now() - started} ms`),
        10_000,
      );
      try {
        await watcher.until(() => finished() >= HANDS || undefined, 240_000, `${HANDS} hands`);
      } finally {
        clearInterval(progress);
      }
      for (const c of [...players, ...spectators]) c.close();

      // Ground truth: the worker's own record of every hand any recipient heard of.
      const ids = new Set<string>();
      for (const c of [...players, ...spectators]) for (const id of handIdsIn(c.received)) ids.add(id);
      const truths = new Map<string, HandTruth>();
      for (const id of ids) {
        const t = await records.truth(id);
        if (t) truths.set(id, t);
      }
      expect(truths.size).toBeGreaterThanOrEqual(HANDS);

      let messages = 0;
      let ownCards = 0;
      for (const p of players) {
        messages += p.received.length;
        expect(JSON.stringify(privacyViolations(`player ${p.userId}`, p.userId, p.received, truths))).toBe('[]');
        // Not vacuous: the player did see their own face-down cards.
        ownCards += p.received.filter((m) => m.type === 'hole_cards_dealt').length;
      }
      for (const s of spectators) {
        messages += s.received.length;
        expect(JSON.stringify(privacyViolations(`spectator ${s.userId}`, null, s.received, truths))).toBe('[]');
        // A spectator gets no hero and no private event at all.
        expect(s.received.some((m) => m.type === 'hole_cards_dealt' || m.type === 'your_turn')).toBe(false);
        expect(s.received.some((m) => m.type === 'table_state' && 'hero' in m)).toBe(false);
      }
      expect(ownCards).toBeGreaterThan(100);
      expect(messages).toBeGreaterThan(HANDS * 20);

      for (const c of [...players, ...spectators]) {
        expect(c.invalidMessages.join(',')).toBe('');
        expect(c.hashMismatches, c.role).toBe(0);
        // Nothing was dropped on purpose here: the prev_table_seq chain never shows a gap.
        expect(c.lossesDetected, `${c.role}: ${c.lossLog.join('; ')}`).toBe(0);
      }
      for (const p of players) {
        expect(p.errors.map((e) => `${e.code as string}: ${e.message as string}`).join('; ')).toBe('');
      }

      // The inspector itself catches what it is for: a foreign card, a seed and a deck slipped into
      // real messages are all reported.
      const [handId, truth] = [...truths].find(([, t]) => t.hidden.size > 0)!;
      const player = players.find((p) => truth.seatOf.has(p.userId)) ?? players[0]!;
      const mySeat = truth.seatOf.get(player.userId);
      const [foreignCard] = [...truth.hidden].find(
        ([c, holders]) => holders.every((h) => h.seat !== mySeat) && !truth.shownAt.has(c),
      )!;
      const forged: Msg[] = [
        { type: 'player_action', table_id: 't', hand_id: handId, hand_seq: 999, note: { deep: [foreignCard] } },
        { type: 'table_state', table_id: 't', hand_id: handId, hand_seq: 3, x: truth.serverSeed },
        { type: 'table_state', table_id: 't', hand_id: handId, hand_seq: 3, setup: { deck: ['As', 'Kd'] } },
      ];
      // Every forged message is caught (the forged deck may hold a foreign card too: more than one
      // violation for that message is fine).
      const caught = privacyViolations('forged', player.userId, forged, truths);
      const what = caught.map((v) => v.what);
      expect(what.some((w) => w.endsWith(`hidden ${foreignCard}`))).toBe(true);
      expect(what).toContain('seed before seed_reveal');
      expect(what).toContain('a deck');
    },
  );
});
