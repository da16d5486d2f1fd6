import { verifyReveal } from '@felt/client';
import {
  SeededRng,
  hexToBytes,
  seesHoleCard,
  shownCards,
  shuffleDeck,
  viewOperationLog,
  type Card,
  type DeckKind,
  type Operation,
} from '@felt/engine';
import { persistVoidedHand } from '@felt/db';
import { handDetailSchema, historyPageSchema, toHandAction, type HandDetail } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directSink } from '../../../test/money/fixtures.js';
import { SimTable, type HandJob } from '../../../test/money/sim-table.js';
import { playDrawHands } from './draw-table.js';
import { startHarness, type Client, type Harness } from './harness.js';

type User = Client & { id: string; name: string };
type Op = { type: string; seat?: number; cards?: string[]; visibility?: string[]; indices?: number[] };
interface Reveal {
  hand_id: string;
  deck_seed: string;
  deck: DeckKind;
  dealt: { index: number; card: string | null }[];
}

let h: Harness;
let players: User[];
let outsider: User;
let hands: HandJob[];
let roomId: string;

beforeAll(async () => {
  h = await startHarness();
  players = [await h.user(), await h.user(), await h.user()];
  outsider = await h.user();
  const created = await players[0]!.post<{ session_id: string; code: string }>('/api/rooms', {
    config: { game: 'holdem', stakes: { smallBlind: 1, bigBlind: 2 }, rake: { percent: 5, cap: 0 } },
    sit: { buy_in: 200 },
  });
  roomId = created.body.session_id;
  for (const p of players.slice(1)) await p.post('/api/rooms/join', { code: created.body.code, buy_in: 200 });
  const sink = directSink(h.db.prisma);
  const table = await SimTable.load(h.db.prisma, created.body.session_id, sink, new SeededRng('history'));
  for (let i = 0; i < 12; i++) await table.playHand();
  hands = sink.hands;
});

afterAll(async () => {
  await h.close();
});

const ops = (job: HandJob): Op[] => (job.payload as { hand: { operations: Op[] } }).hand.operations;
const seatOf = (job: HandJob, userId: string): number | undefined =>
  (job.payload as { hand: { setup: { players: { seat: number; id: string }[] } } }).hand.setup.players.find(
    (p) => p.id === userId,
  )?.seat;

/** Cards the viewer never saw at the table: other seats' face-down cards that were never shown. */
function secrets(job: HandJob, viewerSeat: number): { cards: string[]; indices: number[] } {
  const shown = new Set(
    ops(job)
      .filter((o) => o.type === 'show')
      .map((o) => o.seat),
  );
  const cards: string[] = [];
  const indices: number[] = [];
  for (const o of ops(job)) {
    if (o.type !== 'deal_hole' || o.seat === viewerSeat || shown.has(o.seat)) continue;
    o.cards!.forEach((c, i) => {
      if (o.visibility![i] === 'down') {
        cards.push(c);
        indices.push(o.indices![i]!);
      }
    });
  }
  return { cards, indices };
}

describe('hand history', () => {
  it('shows each player their own cards, the board and shown hands, never another player’s unshown cards', async () => {
    let hidden = 0;
    let shownSomewhere = 0;
    for (const job of hands) {
      for (const p of players) {
        const seat = seatOf(job, p.id);
        if (seat === undefined) continue;
        const res = await p.get<{
          players: { seat: number; cards: (string | null)[]; shown: boolean }[];
          board: string[];
        }>(`/api/hands/${job.hand_id}`);
        expect(res.status).toBe(200);
        const text = JSON.stringify(res.body);
        const secret = secrets(job, seat);
        hidden += secret.cards.length;
        for (const c of secret.cards) expect(text, `${c} leaked to seat ${seat}`).not.toContain(`"${c}"`);
        const mine = res.body.players.find((x) => x.seat === seat)!;
        const dealt = ops(job).find((o) => o.type === 'deal_hole' && o.seat === seat)!.cards!;
        expect(mine.cards).toEqual(dealt);
        for (const other of res.body.players.filter((x) => x.shown)) {
          shownSomewhere++;
          expect(other.cards.every((c) => c !== null)).toBe(true);
        }

        const ohh = await p.get<Record<string, unknown>>(`/api/hands/${job.hand_id}/ohh`);
        expect(ohh.status).toBe(200);
        for (const c of secret.cards) expect(JSON.stringify(ohh.body)).not.toContain(`"${c}"`);

        const phh = await p.get<string>(`/api/hands/${job.hand_id}/phh`);
        expect(phh.status).toBe(200);
        const actions = phh.body.split('\n').filter((l) => /^\s*"(d d[hb]|p\d+ )/.test(l));
        expect(actions.length).toBeGreaterThan(0);
        for (const c of secret.cards) expect(actions.join('\n')).not.toContain(c);
      }
    }
    // The session had both kinds, or the checks above proved little.
    expect(hidden).toBeGreaterThan(10);
    expect(shownSomewhere).toBeGreaterThan(0);
  });

  it('serves the reveal record with every unseen card withheld; the seeds still rebuild them (the stated limit)', async () => {
    for (const job of hands.slice(0, 6)) {
      const p = players.find((x) => seatOf(job, x.id) !== undefined)!;
      const seat = seatOf(job, p.id)!;
      const res = await p.get<{ reveal: Reveal; withheld: number[] }>(`/api/hands/${job.hand_id}/reveal`);
      expect(res.status).toBe(200);
      const { reveal, withheld } = res.body;
      expect(withheld.sort((a, b) => a - b)).toEqual(secrets(job, seat).indices.sort((a, b) => a - b));
      for (const d of reveal.dealt) expect(d.card === null).toBe(withheld.includes(d.index));
      // The record as served verifies: seeds, deck and every card shown, the withheld ones counted.
      const served = verifyReveal(reveal);
      expect(served.failures).toEqual([]);
      expect(served.ok).toBe(true);
      expect(served.cardsWithheld).toBe(withheld.length);
      // Anyone holding the revealed seeds can rebuild the deck, so the withheld cards are only a
      // matter of presentation: filled in from the seeds, the record verifies in full.
      const deck = shuffleDeck(hexToBytes(reveal.deck_seed), reveal.deck);
      const filled = {
        ...reveal,
        dealt: reveal.dealt.map((d) => ({ index: d.index, card: d.card ?? deck[d.index]! })),
      };
      const verdict = verifyReveal(filled);
      expect(verdict.failures).toEqual([]);
      expect(verdict.ok).toBe(true);
      const tampered = { ...filled, dealt: filled.dealt.map((d, i) => (i === 0 ? { ...d, card: deck[1]! } : d)) };
      expect(verifyReveal(tampered).ok).toBe(false);
    }
  });

  it('lists a player’s hands newest first, page by page, with nothing repeated or skipped', async () => {
    const p = players[0]!;
    const mine = hands.filter((j) => seatOf(j, p.id) !== undefined).map((j) => j.hand_id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: { hands: { hand_id: string; net: number }[]; next: string | null } } =
        await p.get(`/api/hands?page_size=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.hands.map((x) => x.hand_id));
      cursor = res.body.next;
      pages++;
    } while (cursor !== null && pages < 20);
    expect(seen).toEqual([...mine].reverse());
    expect(pages).toBe(Math.ceil(mine.length / 5) + (mine.length % 5 === 0 ? 1 : 0));
    const bad = await p.get('/api/hands?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
  });

  it('answers 404 for a hand the user was not dealt into, and 401 without a session', async () => {
    const job = hands[0]!;
    for (const path of ['', '/reveal', '/ohh', '/phh']) {
      const res = await outsider.get(`/api/hands/${job.hand_id}${path}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: { code: 'hand_not_found' } });
    }
    expect((await outsider.get('/api/hands/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await h.client().get(`/api/hands/${job.hand_id}`)).status).toBe(401);
    expect((await h.client().get('/api/hands')).status).toBe(401);
    expect((await outsider.get<{ hands: unknown[] }>('/api/hands')).body.hands).toEqual([]);
  });

  it('shows a voided hand as voided: listed with no result, no cards, pots or actions, and nothing to export', async () => {
    const [a, b] = [players[0]!, players[1]!];
    const handId = '0f0e0d0c-0b0a-4909-8807-060504030201';
    await persistVoidedHand(h.db.prisma, {
      kind: 'voided',
      hand_id: handId,
      room_id: roomId,
      reason: 'checkpoint_lost',
      voided_at: '2099-01-01T00:00:00.000Z',
      players: [
        { seat: 1, user_id: a.id, name: a.name, stack: 180 },
        { seat: 2, user_id: b.id, name: b.name, stack: 220 },
      ],
    });
    const list = await a.get<{ hands: Record<string, unknown>[] }>('/api/hands?page_size=2');
    expect(list.status).toBe(200);
    expect(list.body.hands[0]).toMatchObject({
      hand_id: handId,
      hand_no: null,
      voided_reason: 'checkpoint_lost',
      starting_stack: 180,
      final_stack: 180,
      net: 0,
      won: 0,
      cards: [],
      pot_total: 0,
    });
    // A completed hand has no such field.
    expect(list.body.hands[1]).not.toHaveProperty('voided_reason');
    const detail = await b.get<Record<string, unknown>>(`/api/hands/${handId}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ voided_reason: 'checkpoint_lost', actions: [], pots: [], hand_no: null });
    expect((detail.body.players as { net: number; final_stack: number }[]).map((p) => [p.net, p.final_stack])).toEqual([
      [0, 180],
      [0, 220],
    ]);
    for (const path of ['/reveal', '/ohh', '/phh']) {
      const res = await a.get(`/api/hands/${handId}${path}`);
      expect(res.body).toMatchObject({ error: { code: 'export_unsupported' } });
    }
    expect((await players[2]!.get(`/api/hands/${handId}`)).status).toBe(404);
  });
});

describe('the operation log of a hand history', () => {
  // Six-handed triple draw: every draw-game operation (discards, replacements, reshuffles) besides
  // the betting ones, for a history that shows the one redaction rule at work.
  let drawPlayers: User[];
  let drawHands: HandJob[];

  beforeAll(async () => {
    drawPlayers = [];
    for (let i = 0; i < 6; i++) drawPlayers.push(await h.user());
    const created = await drawPlayers[0]!.post<{ session_id: string; code: string }>('/api/rooms', {
      config: { game: '27td', limit: 'fl', stakes: { smallBlind: 1, bigBlind: 2 }, seats: 6, listed: false },
      sit: { buy_in: 200 },
    });
    for (const p of drawPlayers.slice(1)) await p.post('/api/rooms/join', { code: created.body.code, buy_in: 200 });
    const sink = directSink(h.db.prisma);
    await playDrawHands(h.db.prisma, created.body.session_id, sink, new SeededRng('history-draw'), 16);
    drawHands = sink.hands;
  });

  it('is the engine’s view of the log for each player, in the contract’s shape', async () => {
    const seen = new Set<string>();
    let checked = 0;
    for (const [job, who] of [
      ...hands.map((j) => [j, players] as const),
      ...drawHands.map((j) => [j, drawPlayers] as const),
    ]) {
      const log = ops(job) as unknown as Operation[];
      for (const p of who) {
        const seat = seatOf(job, p.id);
        if (seat === undefined) continue;
        const res = await p.get<HandDetail>(`/api/hands/${job.hand_id}`);
        expect(res.status).toBe(200);
        expect(handDetailSchema.parse(res.body)).toEqual(res.body);
        // The history, the engine and the contract's mapping agree, operation by operation.
        expect(res.body.actions).toEqual(viewOperationLog(log, seat).map((v, seq) => toHandAction(seq, v)));
        // And the players' cards follow the same rule as the log.
        const shown = shownCards(log);
        for (const player of res.body.players) {
          const dealt = log.flatMap((op) =>
            op.type === 'deal_hole' && op.seat === player.seat
              ? op.cards.map((c, i) => [c, op.visibility[i]] as const)
              : [],
          );
          expect(player.cards).toEqual(
            dealt.map(([c, vis]) => (seesHoleCard(seat, player.seat, c, vis === 'up', shown) ? c : null)),
          );
        }
        for (const a of res.body.actions) seen.add(a.type);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
    for (const type of ['discard', 'draw_round', 'deal_hole', 'show', 'award']) expect(seen).toContain(type);
  });

  it('hides a reshuffle’s dead cards and other players’ discards from every player', async () => {
    let discards = 0;
    let reshuffles = 0;
    for (const job of drawHands) {
      for (const p of drawPlayers) {
        const seat = seatOf(job, p.id);
        if (seat === undefined) continue;
        const { body } = await p.get<HandDetail>(`/api/hands/${job.hand_id}`);
        for (const a of body.actions) {
          if (a.type === 'reshuffle') {
            reshuffles++;
            expect(a.discards.length).toBeGreaterThan(0);
            expect(a.discards.every((c) => c === null)).toBe(true);
          }
          if (a.type === 'discard' && a.seat !== seat) {
            discards += a.cards.length;
            expect(a.cards.every((c) => c === null)).toBe(true);
          }
        }
      }
    }
    expect(discards).toBeGreaterThan(0);
    expect(reshuffles).toBeGreaterThan(0);
  });
});

describe('engine-blind hands in the history', () => {
  // The players dealt these hands among themselves (docs/fairness.md, "Engine-blind dealing"): the
  // server knows the board and the hands shown, nothing else, and there is no seed to reveal. The
  // decks the players shuffled are the test's oracle of what must never appear.
  let blindPlayers: User[];
  let blindHands: HandJob[];
  let decks: ReadonlyMap<string, readonly Card[]>;

  beforeAll(async () => {
    blindPlayers = [await h.user(), await h.user(), await h.user()];
    const created = await blindPlayers[0]!.post<{ session_id: string; code: string }>('/api/rooms', {
      config: {
        game: 'holdem',
        stakes: { smallBlind: 1, bigBlind: 2 },
        practiceChips: true,
        dealing: 'engine_blind',
        listed: false,
      },
      sit: { buy_in: 200 },
    });
    expect(created.status).toBe(201);
    for (const p of blindPlayers.slice(1)) {
      expect((await p.post('/api/rooms/join', { code: created.body.code, buy_in: 200 })).status).toBe(200);
    }
    const sink = directSink(h.db.prisma);
    const table = await SimTable.load(h.db.prisma, created.body.session_id, sink, new SeededRng('history-blind'), {
      blind: true,
    });
    for (let i = 0; i < 12; i++) await table.playHand();
    blindHands = sink.hands;
    decks = table.playersDecks;
  });

  /** Hole cards of `job` that nobody showed: the cards the server never knew. */
  function unshown(job: HandJob): string[] {
    const log = ops(job);
    const shown = new Set(log.filter((o) => o.type === 'show').map((o) => o.seat));
    const deck = decks.get(job.hand_id)!;
    return log.flatMap((o) => (o.type === 'deal_hole' && !shown.has(o.seat) ? o.indices!.map((i) => deck[i]!) : []));
  }

  it('says engine_blind, has no seeds, and shows the board and the shown hands only, to every player', async () => {
    let secret = 0;
    let shownHands = 0;
    for (const job of blindHands) {
      const log = ops(job);
      for (const p of blindPlayers) {
        const seat = seatOf(job, p.id)!;
        const res = await p.get<HandDetail>(`/api/hands/${job.hand_id}`);
        expect(res.status).toBe(200);
        expect(handDetailSchema.parse(res.body)).toEqual(res.body);
        expect(res.body.dealing).toBe('engine_blind');
        expect(res.body.fairness).toEqual({
          seed_commit: null,
          server_seed: null,
          client_seeds: null,
          deck_seed: null,
          version: null,
          deck: null,
        });
        const text = JSON.stringify(res.body);
        for (const c of unshown(job)) {
          secret++;
          expect(text, `${c} was never shown`).not.toContain(`"${c}"`);
        }
        for (const player of res.body.players) {
          const dealt = log.filter((o) => o.type === 'deal_hole' && o.seat === player.seat).flatMap((o) => o.indices!);
          const show = log.find((o) => o.type === 'show' && o.seat === player.seat);
          // Shown: the cards, in deal order; not shown: as many nulls as cards dealt, the viewer's own too.
          expect(player.cards).toEqual(show?.cards ?? dealt.map(() => null));
          expect(player.shown).toBe(show !== undefined);
          if (show !== undefined && player.seat !== seat) shownHands++;
        }
        expect(res.body.actions).toEqual(
          viewOperationLog(log as unknown as Operation[], seat).map((v, seq) => toHandAction(seq, v)),
        );
      }
    }
    expect(secret).toBeGreaterThan(20);
    expect(shownHands).toBeGreaterThan(0);
  });

  it('lists them as engine_blind beside standard hands', async () => {
    const p = blindPlayers[0]!;
    const res = await p.get<{ hands: { hand_id: string; dealing?: string; cards: string[] }[] }>(
      '/api/hands?page_size=100',
    );
    expect(res.status).toBe(200);
    expect(historyPageSchema.parse(res.body)).toEqual(res.body);
    expect(res.body.hands.map((x) => x.hand_id).sort()).toEqual(blindHands.map((j) => j.hand_id).sort());
    for (const x of res.body.hands) expect(x.dealing).toBe('engine_blind');
    const standard = await players[0]!.get<{ hands: { dealing?: string }[] }>('/api/hands?page_size=3');
    expect(standard.body.hands.length).toBeGreaterThan(0);
    for (const x of standard.body.hands) expect(x.dealing).toBe('standard');
  });

  it('shows a blind hand its players failed to deal as voided, and engine_blind', async () => {
    const [a, b] = [blindPlayers[0]!, blindPlayers[1]!];
    const handId = '0f0e0d0c-0b0a-4909-8807-0605040302b1';
    await persistVoidedHand(h.db.prisma, {
      kind: 'voided',
      hand_id: handId,
      room_id: blindHands[0]!.room_id,
      reason: 'engine_blind_failed',
      voided_at: '2099-01-02T00:00:00.000Z',
      players: [
        { seat: 1, user_id: a.id, name: a.name, stack: 200 },
        { seat: 2, user_id: b.id, name: b.name, stack: 200 },
      ],
    });
    const list = await a.get<{ hands: Record<string, unknown>[] }>('/api/hands?page_size=1');
    expect(list.body.hands[0]).toMatchObject({
      hand_id: handId,
      voided_reason: 'engine_blind_failed',
      dealing: 'engine_blind',
      net: 0,
      cards: [],
    });
    const detail = await b.get<HandDetail>(`/api/hands/${handId}`);
    expect(detail.body).toMatchObject({ voided_reason: 'engine_blind_failed', dealing: 'engine_blind', actions: [] });
    const reveal = await a.get(`/api/hands/${handId}/reveal`);
    expect(reveal.body).toMatchObject({ error: { code: 'export_unsupported' } });
  });

  it('has no reveal record; its PHH writes every unshown hole card ????, its OHH leaves them out', async () => {
    let unknownDeals = 0;
    for (const job of blindHands) {
      const log = ops(job);
      for (const p of blindPlayers) {
        const reveal = await p.get(`/api/hands/${job.hand_id}/reveal`);
        expect(reveal.status).toBe(422);
        expect(reveal.body).toMatchObject({ error: { code: 'export_unsupported', message: /no seed reveal/ } });

        const phh = await p.get<string>(`/api/hands/${job.hand_id}/phh`);
        expect(phh.status).toBe(200);
        const ohh = await p.get<{
          ohh: { rounds: { actions: { action: string; cards?: string[] }[] }[] };
        }>(`/api/hands/${job.hand_id}/ohh`);
        expect(ohh.status).toBe(200);
        // The hand's actions, and the shows after it (`_shown_after_hand`): every card PHH writes.
        const actions = phh.body
          .split('\n')
          .filter((l) => /^\s*"(d d[hb]|p\d+ )/.test(l) || l.startsWith('_shown_after_hand'))
          .join('\n');
        for (const c of unshown(job)) {
          expect(actions).not.toContain(c);
          expect(JSON.stringify(ohh.body)).not.toContain(`"${c}"`);
        }
        // PHH numbers the players p1, p2, … as its `seats` list orders them.
        const seats = JSON.parse(/^seats = (\[.*\])$/m.exec(phh.body)![1]!) as number[];
        const pOf = (seat: number): string => `p${seats.indexOf(seat) + 1}`;
        for (const o of log.filter((x) => x.type === 'deal_hole')) {
          // Every hole card was dealt unknown, to everyone: the viewer's own too.
          expect(actions).toContain(`"d dh ${pOf(o.seat!)} ${'??'.repeat(o.indices!.length)}"`);
          unknownDeals++;
        }
        for (const o of log.filter((x) => x.type === 'show')) {
          expect(actions).toContain(`"${pOf(o.seat!)} sm ${o.cards!.join('')}"`);
        }
        const dealt = ohh.body.ohh.rounds.flatMap((r) => r.actions).filter((a) => a.action === 'Dealt Cards');
        expect(dealt).toHaveLength(log.filter((x) => x.type === 'deal_hole').length);
        for (const a of dealt) expect(a.cards).toBeUndefined();
      }
    }
    expect(unknownDeals).toBeGreaterThan(30);
  });
});
