// Real hands through the real cluster (2 gateways, 2 workers, lobby): Hold'em NL, PLO, Stud and a mixed
// rotation, two humans on different gateways with bots filling seats and a spectator, every message
// checked against the schemas, its state_hash, the privacy rule and the fairness verifier.
//
// One suite, run on the shared Redis (test/live-hands.e2e.test.ts) and on a Redis Cluster of the test's
// own (test/live-hands-redis-cluster.e2e.test.ts): `redis` gives the services' REDIS_URL.
import { randomUUID } from 'node:crypto';
import { verifyReveal } from '@felt/client';
import { completedHandJobSchema } from '@felt/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../harness/cluster.js';
import { LobbyClient, type SignedUpUser } from '../harness/lobby-client.js';
import { HandRecords, handIdsIn, privacyViolations, type HandTruth } from '../harness/privacy.js';
import { randomPlay, TableClient, type Msg } from '../harness/table-client.js';
import { waitFor } from '../harness/wait.js';

/** Where the suite's services find Redis, and how it goes away after. */
export interface SuiteRedis {
  readonly url: string;
  stop(): Promise<void>;
}

/** What a caller's own cases (`more`) can look at: the running cluster and its Redis. */
export interface LiveHandsContext {
  readonly cluster: () => Cluster;
}

export function liveHandsSuite(
  title: string,
  redis: () => Promise<SuiteRedis>,
  more?: (ctx: LiveHandsContext) => void,
): void {
  let server: SuiteRedis | undefined;
  let cluster: Cluster;
  let lobby: LobbyClient;
  let records: HandRecords;
  const clients: TableClient[] = [];

  beforeAll(async () => {
    server = await redis();
    cluster = await Cluster.start({
      gateways: 2,
      workers: 2,
      lobby: true,
      redisUrl: server.url,
      env: {
        // A loaded test machine must not drop a busy worker from the ring (membership flaps move
        // tables mid-hand; failover has its own tests).
        FELT_MEMBER_TTL_MS: '15000',
        FELT_ACTION_MS: '4000',
        FELT_TIME_BANK_MS: '1000',
        FELT_WARNING_MS: '500',
        FELT_HAND_PAUSE_MS: '150',
        FELT_BOT_THINK_MS: '20',
        FELT_BOT_ITERATIONS: '40',
        FELT_BOT_SEED: 'live-hands',
      },
    });
    lobby = new LobbyClient(cluster.lobby!.url);
    records = new HandRecords(server.url, cluster.prefix);
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await records?.close();
    await cluster?.stop();
    await server?.stop();
  });

  interface Table {
    readonly ann: TableClient;
    readonly bob: TableClient;
    readonly spectator: TableClient;
    readonly annUser: SignedUpUser;
  }

  async function playTable(config: Record<string, unknown>, hands: number): Promise<Table> {
    const annUser = await lobby.signUp(`ann-${randomUUID().slice(0, 8)}`);
    const bobUser = await lobby.signUp(`bob-${randomUUID().slice(0, 8)}`);
    const sam = await lobby.signUp(`sam-${randomUUID().slice(0, 8)}`);
    const room = await lobby.createRoom(annUser, { ...config, botFill: { mode: 'fill', targetPlayers: 4 } });
    await lobby.joinByCode(bobUser, room.code);
    const g = cluster.gateways;
    const opts = { sendSeeds: true, decide: randomPlay };
    const ann = await TableClient.join(g[0]!.wsUrl, annUser.cookie, room.sessionId, annUser.userId, {
      ...opts,
      seed: 1,
    });
    const bob = await TableClient.join(g[1]!.wsUrl, bobUser.cookie, room.sessionId, bobUser.userId, {
      ...opts,
      seed: 2,
    });
    const spectator = await TableClient.join(g[1]!.wsUrl, sam.cookie, room.sessionId, sam.userId, { spectate: true });
    clients.push(ann, bob, spectator);
    const reveals = (c: TableClient) => c.received.filter((m) => m.type === 'seed_reveal').length;
    try {
      await spectator.until(() => reveals(spectator) >= hands, 90_000, `${hands} hands`);
    } catch (err) {
      const tail = (c: TableClient) =>
        c.received
          .slice(-6)
          .map(
            (m) => `${m.type}${m.type === 'table_state' ? `(${m.phase as string},actor=${m.actor as number})` : ''}`,
          );
      throw new Error(
        `${(err as Error).message}; ann: ${tail(ann).join(' ')}; spectator: ${tail(spectator).join(' ')}; ann errors: ${JSON.stringify(ann.errors)}`,
        { cause: err },
      );
    }
    return { ann, bob, spectator, annUser };
  }

  async function truths(clientsOf: readonly TableClient[]): Promise<Map<string, HandTruth>> {
    const ids = new Set<string>();
    for (const c of clientsOf) for (const id of handIdsIn(c.received)) ids.add(id);
    const out = new Map<string, HandTruth>();
    for (const id of ids) {
      const t = await records.truth(id);
      if (t) out.set(id, t);
    }
    return out;
  }

  /** Everything the clients received is valid, hashed right, private, and each finished hand verifies. */
  async function checkTable(t: Table): Promise<{ handIds: string[]; starts: Msg[] }> {
    const all = [t.ann, t.bob, t.spectator];
    for (const c of all) {
      expect(c.invalidMessages, `${c.role} got schema-invalid messages`).toEqual([]);
      expect(c.hashMismatches).toBe(0);
      expect(c.errors.filter((e) => e.code !== 'stale_turn_token')).toEqual([]);
    }
    const reveals = t.spectator.received.filter((m) => m.type === 'seed_reveal');
    // The worker enqueues a hand right after publishing its end.
    for (const r of reveals)
      await waitFor(`hand ${r.hand_id as string} enqueued`, () => records.job(r.hand_id as string));
    const known = await truths(all);
    expect(reveals.length).toBeGreaterThan(0);
    for (const r of reveals) {
      const handId = r.hand_id as string;
      expect(known.has(handId), `the worker enqueued hand ${handId}`).toBe(true);
      const job = await records.job(handId);
      expect(completedHandJobSchema.safeParse(job).success).toBe(true);
      const commit = t.spectator.received.find((m) => m.type === 'seed_commit' && m.hand_id === handId);
      for (const [c, seat] of [
        [t.ann, job!.payload.seats.find((s) => s.user_id === t.ann.userId)?.seat],
        [t.bob, job!.payload.seats.find((s) => s.user_id === t.bob.userId)?.seat],
      ] as const) {
        const own = c.sentSeeds.get(handId);
        const opts = {
          ...(commit ? { expectedCommit: commit.seed_commit as string } : {}),
          ...(own !== undefined && seat !== undefined ? { ownSeed: { seat, seed: own } } : {}),
        };
        const result = verifyReveal(r.reveal, opts);
        expect(result.ok, JSON.stringify(result)).toBe(true);
      }
    }
    for (const [c, user] of [
      [t.ann, t.ann.userId],
      [t.bob, t.bob.userId],
      [t.spectator, null],
    ] as const) {
      expect(privacyViolations(c.role, user, c.received, known)).toEqual([]);
    }
    // Two gateways, one table: both players saw the same public decisions in the same order, over the
    // stretch of the table's sequence both were there for (Bob joins after Ann; bots may act between).
    const seqs = (c: TableClient) =>
      c.received.map((m) => m.table_seq).filter((n): n is number => typeof n === 'number' && n > 0);
    const from = Math.max(Math.min(...seqs(t.ann)), Math.min(...seqs(t.bob)));
    const to = Math.min(Math.max(...seqs(t.ann)), Math.max(...seqs(t.bob)));
    const decisions = (c: TableClient) =>
      c.received
        .filter((m) => m.type === 'player_action' && (m.table_seq as number) > from && (m.table_seq as number) <= to)
        .map((m) => `${m.table_seq as number}:${m.seat as number}:${m.action as string}:${m.amount as number}`);
    expect(decisions(t.ann).length).toBeGreaterThan(5);
    expect(decisions(t.ann)).toEqual(decisions(t.bob));
    return {
      handIds: reveals.map((r) => r.hand_id as string),
      starts: t.spectator.received.filter((m) => m.type === 'hand_started'),
    };
  }

  describe(title, () => {
    it("Hold'em NL: real hands, seeds from both players in the deal, verifiable and private", async () => {
      const t = await playTable({ game: 'holdem', limit: 'nl' }, 3);
      const { handIds } = await checkTable(t);
      // The humans' seeds counted: both are in every reveal of a hand they were dealt into.
      const job = await records.job(handIds[0]!);
      expect(job!.payload.reveal!.client_seeds.length).toBeGreaterThanOrEqual(1);
      // Bot-fill keeps the table at four players: two bots beside the two humans. A funded bot that
      // goes broke leaves and a fresh one is funded a moment later, so wait for the table to settle
      // rather than read whichever snapshot came last.
      const bots = () => t.ann.state?.seats.filter((s) => s.bot) ?? [];
      // A replacement is seated at a hand boundary, and a loaded CI machine plays slowly: up to 45 s.
      // Never more than two at any time.
      const counts = new Set<number>();
      await t.ann
        .until(
          () => {
            counts.add(bots().length);
            return bots().length === 2;
          },
          45_000,
          'two bots seated beside the humans',
        )
        .catch((err: unknown) => {
          const seats = t.ann.state?.seats.map((x) => [x.seat, x.bot === true, x.stack, x.status]);
          throw new Error(
            `${(err as Error).message} (bot counts seen: ${[...counts].join(',')}; last snapshot: ` +
              `${t.ann.state?.phase ?? 'none'}, seats ${JSON.stringify(seats)})`,
            { cause: err },
          );
        });
      expect(bots()).toHaveLength(2);
      expect(Math.max(...counts)).toBeLessThanOrEqual(2);
    });

    it('PLO: four hole cards each, pot-limit raises', async () => {
      const t = await playTable({ game: 'omaha', limit: 'pl' }, 3);
      const { starts } = await checkTable(t);
      expect(starts.every((s) => (s.variant as { game: string; limit: string }).game === 'omaha')).toBe(true);
      const dealt = t.ann.received.find((m) => m.type === 'hole_cards_dealt');
      expect((dealt?.cards as string[]).length).toBe(4);
    });

    it('Stud: up cards are public, down cards private, the bring-in opens', async () => {
      const t = await playTable({ game: 'stud' }, 3);
      await checkTable(t);
      const actions = t.spectator.received.filter((m) => m.type === 'player_action');
      expect(actions.some((a) => a.action === 'bring_in' || a.action === 'bet')).toBe(true);
      const streets = t.spectator.received.filter((m) => m.type === 'street_revealed' && m.street === 'third');
      expect(streets.length).toBeGreaterThan(0);
      // Everyone sees every door card; nobody but the owner sees the down cards.
      for (const s of streets) expect((s.up_cards as unknown[]).length).toBeGreaterThanOrEqual(2);
      const specCards = t.spectator.received
        .filter((m) => m.type === 'table_state' && m.phase === 'betting')
        .flatMap((m) => (m.seats as { cards?: (string | null)[]; up?: boolean[] }[]).flatMap((s) => s.cards ?? []));
      expect(specCards.some((c) => c !== null)).toBe(true);
      expect(specCards.some((c) => c === null)).toBe(true);
    });

    it('logs never carry cards, seeds or turn tokens', () => {
      const secrets = new Set<string>();
      for (const c of clients) {
        for (const m of c.received) {
          if (m.type === 'seed_reveal') {
            const r = m.reveal as { server_seed: string; deck_seed: string; client_seeds: { seed: string }[] };
            secrets.add(r.server_seed);
            secrets.add(r.deck_seed);
            for (const s of r.client_seeds) secrets.add(s.seed);
          }
          if (m.type === 'your_turn') secrets.add(m.turn_token as string);
        }
      }
      expect(secrets.size).toBeGreaterThan(10);
      const card = /"[2-9TJQKA][cdhs]"/;
      const lines = [...cluster.workers, ...cluster.gateways].flatMap((p) => p.proc.logs);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(card.test(line), line).toBe(false);
        for (const s of secrets) expect(line.includes(s), line).toBe(false);
      }
    });

    it('HORSE: the rotation moves between hands and each hand plays its own game', async () => {
      const t = await playTable({ game: 'horse', rotation: { handsPerVariant: 1 } }, 3);
      await checkTable(t);
      // The spectator joins after the players, so the first hand may have started before it was there:
      // wait until it has seen three hands start (any three of them span fewer than five hands, so
      // the rotation gives each its own game).
      const started = () =>
        new Set(t.spectator.received.filter((m) => m.type === 'hand_started').map((m) => m.hand_id));
      await t.spectator.until(() => started().size >= 3, 90_000, 'three hands started');
      const starts = t.spectator.received.filter((m) => m.type === 'hand_started');
      // One entry per hand (a resync may replay a hand_started the spectator already had).
      const byHand = new Map(starts.map((s) => [s.hand_id as string, (s.variant as { game: string }).game]));
      const games = [...byHand.values()];
      expect(new Set(games.slice(0, 3)).size, games.join(' ')).toBe(3);
      const snapshot = t.spectator.state!;
      expect(snapshot.game).toBe('horse');
      expect(snapshot.rotation?.hands_per_variant).toBe(1);
    });
    more?.({ cluster: () => cluster });
  });
}
