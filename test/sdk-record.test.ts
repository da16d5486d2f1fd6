// Recorded traffic: real hands through the real cluster, every message each recipient got. By default
// one short Hold'em session is played and checked live (schemas, state_hash, the reducer ending in the
// last snapshot, privacy, fairness). With FELT_RECORD_FIXTURES=1 every game below is recorded into
// packages/protocol/fixtures/, which packages/client's fixture replay tests then check.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initialTableView, reduceTable, type ReducibleMessage } from '@felt/client';
import { serverMessageSchema, stateHash, type BettingLimit, type GameType, type RoomConfigInput } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './harness/cluster.js';
import { TableCrew } from './sdk/crew.js';
import { cutAfterHands, TRAFFIC_FORMAT, writeFixture, type RecordedRecipient } from './sdk/traffic.js';
import { waitFor } from './harness/wait.js';

const RECORD = process.env.FELT_RECORD_FIXTURES === '1';
const FIXTURES = fileURLToPath(new URL('../packages/protocol/fixtures/', import.meta.url));

interface Session {
  readonly file: string;
  readonly game: GameType;
  readonly limit?: BettingLimit;
  readonly hands: number;
  readonly config?: RoomConfigInput;
}

const SESSIONS: readonly Session[] = RECORD
  ? [
      { file: 'holdem-nl', game: 'holdem', limit: 'nl', hands: 3 },
      { file: 'omaha-pl', game: 'omaha', limit: 'pl', hands: 2 },
      { file: 'stud-fl', game: 'stud', limit: 'fl', hands: 2 },
      { file: 'triple-draw-fl', game: '27td', limit: 'fl', hands: 2 },
      // One hand per game, so three hands walk the rotation: Hold'em, Omaha Hi-Lo, Razz.
      { file: 'horse', game: 'horse', hands: 3, config: { rotation: { handsPerVariant: 1 } } },
    ]
  : [{ file: 'holdem-nl', game: 'holdem', limit: 'nl', hands: 2 }];

let cluster: Cluster;

beforeAll(async () => {
  cluster = await Cluster.start({ gateways: 2, workers: 2, lobby: true, persister: false });
});

afterAll(async () => {
  await cluster?.stop();
});

/** What every recorded stream must satisfy, live or committed. */
function checkStream(r: RecordedRecipient): void {
  let view = initialTableView(String(r.messages[0]?.table_id));
  let last: Record<string, unknown> | undefined;
  for (const m of r.messages) {
    const parsed = serverMessageSchema.safeParse(m);
    expect(parsed.error, `${r.name}: ${JSON.stringify(m).slice(0, 200)}`).toBeUndefined();
    const snapshot = m.type === 'table_state' ? m : m.type === 'resync_response' ? (m.snapshot as typeof m) : null;
    if (snapshot) {
      expect(stateHash(snapshot), `${r.name}: state_hash at ${String(snapshot.table_seq)}`).toBe(snapshot.state_hash);
      if (!last || Number(snapshot.table_seq) > Number(last.table_seq)) last = snapshot;
    }
    if (['ack', 'error', 'pong'].includes(String(m.type))) continue;
    const res = reduceTable(view, parsed.data as ReducibleMessage);
    expect(res.lossDetected, `${r.name}: loss at ${String(m.table_seq)}`).toBe(false);
    view = res.view;
  }
  expect(last).toBeDefined();
  expect(view.state).toEqual(last);
  expect(stateHash(view.state as unknown as Record<string, unknown>)).toBe(last!.state_hash);
  if (r.role === 'spectator') expect(view.state?.hero).toBeUndefined();
  else expect(view.state?.hero?.seat).toBe(r.seat);
}

describe.each(SESSIONS)('recorded traffic: $file', (session) => {
  it(`plays ${session.hands} hands with 3 bots and a spectator, every message valid, private and replayable`, async () => {
    const crew = await TableCrew.create({
      lobbyUrl: cluster.lobby!.url,
      game: session.game,
      ...(session.limit !== undefined ? { limit: session.limit } : {}),
      players: 3,
      spectators: 1,
      namePrefix: `r${Math.random().toString(36).slice(2, 8)}`,
      seed: 6,
      record: true,
      config: { ...session.config, startHand: { autoStart: false, hostMayForceStart: true } },
    });
    try {
      await waitFor('everyone joined', () => crew.members.every((m) => m.session.status === 'joined'), 20_000);
      await crew.startHands(session.hands, 90_000);
      await crew.waitHands(session.hands, 60_000);
      const handIds = [...crew.handsCompleted].slice(0, session.hands);
      const cuts = await waitFor(
        'every recipient received the last hand’s reveal and snapshot',
        () => {
          const all = crew.members.map((m) => cutAfterHands(m.recorded, handIds));
          return all.every((c) => c !== null) ? all : undefined;
        },
        20_000,
      );
      crew.pauseBots();
      const recipients: RecordedRecipient[] = crew.members.map((m, i) => ({
        name: m.name,
        role: m.role,
        seat: m.role === 'player' ? (m.session.heroSeat ?? null) : null,
        messages: cuts[i]!,
      }));
      crew.settlePrivacy();
      for (const m of crew.members) {
        expect(m.problems, m.name).toEqual([]);
        expect(m.auditor.violations, m.name).toEqual([]);
        const { hashMismatches, invalidMessages, lossesDetected } = m.client.stats;
        expect({ name: m.name, hashMismatches, invalidMessages, lossesDetected }).toEqual({
          name: m.name,
          hashMismatches: 0,
          invalidMessages: 0,
          lossesDetected: 0,
        });
        expect(m.bot?.actions.filter((a) => a.outcome !== 'acked') ?? []).toEqual([]);
        // Every hand this recipient saw revealed verified, the players' own seeds included.
        expect(m.fairness.filter((f) => !f.ok)).toEqual([]);
        if (m.role === 'player') expect(m.fairness.every((f) => f.ownSeed?.status === 'accepted')).toBe(true);
      }
      for (const r of recipients) checkStream(r);
      if (RECORD) {
        mkdirSync(FIXTURES, { recursive: true });
        writeFixture(`${FIXTURES}${session.file}.json`, {
          format: TRAFFIC_FORMAT,
          description:
            `${session.hands} hands of ${session.game} (${session.limit ?? 'default limit'}) recorded from a 2-gateway, ` +
            '2-worker cluster by test/sdk-record.test.ts: every frame each recipient received for the table, ' +
            'as received (ids, ts and seeds not normalized, so every state_hash verifies).',
          game: session.game,
          limit: session.limit ?? null,
          hands: session.hands,
          recipients,
        });
      }
    } finally {
      await crew.stop();
    }
  });
});
