import { parseTournamentConfig } from '@felt/protocol';
import { createLogger } from '@felt/platform';
import { describe, expect, it } from 'vitest';
import { CountingRandom, flush, ManualTime, MemoryCheckpoints, uid } from '../../test/support/fakes.js';
import { directorKey, type TournamentMessage, type TournamentOrderResult, type TournamentReport } from './contracts.js';
import { DirectorActor, isDirectorJSON, ReportRefusedError, type DirectorDeps } from './director-actor.js';
import { PeerUnavailableError, type LateEntry, type StartedTournament, type TournamentStore } from './ports.js';

const T = '7a1d2c3b-4a5e-4f60-8a7b-9c8d7e6f5a4b';
const TABLE_IDS = [
  'a0000000-0000-4000-8000-000000000001',
  'a0000000-0000-4000-8000-000000000002',
  'a0000000-0000-4000-8000-000000000003',
];

/** Tables as the director sees them answer: every order is accepted; a remove answers the stack it set. */
class FakeTables {
  readonly orders: TournamentMessage[] = [];
  /** Orders of these kinds fail (the table's worker is away) while set. */
  failing = new Set<string>();
  attempts = 0;
  readonly stacks = new Map<string, number>();

  send(message: TournamentMessage): Promise<TournamentOrderResult> {
    this.attempts++;
    if (message.kind !== 'hand_ended' && this.failing.has(message.kind)) {
      return Promise.reject(new PeerUnavailableError(message.table_id, 'away'));
    }
    this.orders.push(message);
    if (message.kind === 'seat') this.stacks.set(message.user_id, message.stack);
    if (message.kind === 'remove') return Promise.resolve({ stack: this.stacks.get(message.user_id) ?? 0 });
    return Promise.resolve({});
  }

  ofKind<K extends TournamentMessage['kind']>(kind: K): Extract<TournamentMessage, { kind: K }>[] {
    return this.orders.filter((o): o is Extract<TournamentMessage, { kind: K }> => o.kind === kind);
  }
}

class FakeStore implements TournamentStore {
  readonly awards: { entryId: string; place: number; prize: number }[] = [];
  readonly seats = new Map<string, string>();
  readonly closed: string[] = [];
  finished = 0;
  constructor(private readonly started: StartedTournament) {}
  toDirect() {
    return Promise.resolve([]);
  }
  start() {
    return Promise.resolve(this.started);
  }
  cancel() {
    return Promise.resolve();
  }
  openTables(_id: string, count: number) {
    return Promise.resolve(TABLE_IDS.slice(0, count));
  }
  closeTable(tableId: string) {
    this.closed.push(tableId);
    return Promise.resolve();
  }
  seated(entryId: string, tableId: string) {
    this.seats.set(entryId, tableId);
    return Promise.resolve();
  }
  openTableIds() {
    return Promise.resolve([]);
  }
  award(_t: string, entryId: string, place: number, prize: number) {
    this.awards.push({ entryId, place, prize });
    return Promise.resolve();
  }
  finish() {
    this.finished++;
    return Promise.resolve();
  }
  /** Entries registered after the start (late registration); `closes` counts the closes asked for. */
  readonly late: LateEntry[] = [];
  closes = 0;
  lateCalls = 0;
  /** While set, lateEntries answers only when it resolves (a slow Postgres). */
  hold: Promise<void> | null = null;
  async lateEntries() {
    this.lateCalls++;
    await this.hold;
    return this.late.filter((e) => !this.seats.has(e.entryId));
  }
  closeRegistration() {
    this.closes++;
    const entries = this.started.players.length + this.late.length;
    return Promise.resolve({ entries, prizePool: entries * 100 });
  }
  /** Entries marked out (busted while registration is open), in order; the closes of re-entry. */
  readonly outs: string[] = [];
  reEntryCloses = 0;
  /** The add-on: when its sale opened (until), what was bought, paid back, and the closes. */
  addOnUntil: Date | null = null;
  readonly bought: { entryId: string; userId: string }[] = [];
  readonly refunds: string[] = [];
  addOnCloses = 0;
  openAddOn(_t: string, until: Date) {
    this.addOnUntil ??= until;
    return Promise.resolve();
  }
  addOnsBought() {
    return Promise.resolve(this.bought.filter((b) => !this.refunds.includes(b.entryId)));
  }
  refundAddOn(_t: string, entryId: string) {
    if (!this.refunds.includes(entryId)) this.refunds.push(entryId);
    return Promise.resolve();
  }
  closeAddOns() {
    this.addOnCloses++;
    const addOns = this.bought.length - this.refunds.length;
    return Promise.resolve({ prizePool: this.started.players.length * 100 + addOns * 50, entries: 5 });
  }
  markOut(_t: string, entryId: string) {
    this.outs.push(entryId);
    return Promise.resolve();
  }
  closeReEntry() {
    this.reEntryCloses++;
    return Promise.resolve();
  }
}

const PLAYERS = [1, 2, 3, 4, 5].map((n) => uid(n));

function chipsHeldOf(director: DirectorActor): number {
  return Object.values(director.snapshot().state.players).reduce((n, p) => n + p.chips, 0);
}

function rig(config: Record<string, unknown> = {}) {
  const time = new ManualTime();
  const checkpoints = new MemoryCheckpoints();
  const tables = new FakeTables();
  const store = new FakeStore({
    name: 'Five',
    config: parseTournamentConfig({
      name: 'Five',
      format: 'scheduled',
      startsAt: '2030-01-01T00:00:00Z',
      seats: 3,
      buyIn: 100,
      startingStack: 500,
      structure: { levels: [{ bigBlind: 20 }], levelLength: { unit: 'hands', value: 5 } },
      ...config,
    }),
    prizePool: 500,
    players: PLAYERS.map((userId, i) => ({ entryId: `e${i + 1}`, userId, name: `P${i + 1}` })),
  });
  const deps: DirectorDeps = {
    store,
    peers: tables,
    checkpoints,
    clock: time,
    scheduler: time,
    random: new CountingRandom('director'),
    logger: createLogger('table-worker', { level: 'silent' }),
  };
  return { time, checkpoints, tables, store, deps };
}

/** Where each player was seated, by the seat orders: table id → players. */
function seating(tables: FakeTables): Map<string, string[]> {
  const at = new Map<string, string>();
  for (const o of tables.orders) {
    if (o.kind === 'seat') at.set(o.user_id, o.table_id);
    if (o.kind === 'remove') at.delete(o.user_id);
  }
  const out = new Map<string, string[]>();
  for (const [player, table] of at) out.set(table, [...(out.get(table) ?? []), player]);
  return out;
}

function report(tableId: string, handNo: number, results: [string, number, number][]): TournamentReport {
  return {
    kind: 'hand_ended',
    tournament_id: T,
    table_id: tableId,
    hand_no: handNo,
    button: 1,
    results: results.map(([user_id, starting_stack, final_stack]) => ({ user_id, starting_stack, final_stack })),
  };
}

/** Table 1 plays these hands with no chip changing hands (the level count moves on). */
async function evenHands(director: DirectorActor, time: ManualTime, handNos: readonly number[]): Promise<void> {
  for (const handNo of handNos) {
    const players = Object.entries(director.snapshot().state.players).filter(([, p]) => p.table === 1);
    await director.report(
      report(
        TABLE_IDS[0]!,
        handNo,
        players.map(([id, p]) => [id, p.chips, p.chips]),
      ),
    );
    await settle(time);
  }
}

async function settle(time: ManualTime): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await flush();
    time.advance(5_000);
  }
  await flush();
}

describe('the tournament director (actor)', () => {
  it('draws the field to its tables, seats everyone, deals where two can play, and checkpoints first', async () => {
    const r = rig();
    const director = await DirectorActor.start(T, await r.store.start(), r.deps);
    const saved = r.checkpoints.saved.get(directorKey(T));
    expect(isDirectorJSON(saved?.state, T)).toBe(true);
    await settle(r.time);
    const seats = r.tables.ofKind('seat');
    expect(seats.map((s) => s.user_id).sort()).toEqual([...PLAYERS].sort());
    expect(new Set(seats.map((s) => s.order_id)).size).toBe(5);
    expect(seats.every((s) => s.stack === 500)).toBe(true);
    // Five on tables of three: two tables, both deal.
    const byTable = seating(r.tables);
    expect([...byTable.values()].map((p) => p.length).sort()).toEqual([2, 3]);
    expect(
      r.tables
        .ofKind('deal')
        .map((d) => d.table_id)
        .sort(),
    ).toEqual(TABLE_IDS.slice(0, 2).sort());
    expect(r.store.seats.size).toBe(5);
    expect(director.snapshot().pending).toEqual([]);
    await director.stop();
  });

  it('late registration: seats late entries (a new table when all are full), holds busts, and closes after its levels with the final prizes', async () => {
    const r = rig({
      lateRegistrationLevels: 1,
      structure: { levels: [{ bigBlind: 20 }, { bigBlind: 40 }], levelLength: { unit: 'hands', value: 2 } },
    });
    const director = await DirectorActor.start(T, await r.store.start(), r.deps);
    await settle(r.time);
    expect(director.snapshot().state.registrationOpen).toBe(true);
    // Nothing registered late: a poll changes nothing.
    const step = director.snapshot().step;
    await director.poll();
    expect(director.snapshot().step).toBe(step);

    const late = (n: number): LateEntry => ({ entryId: `e${n}`, userId: uid(n), entryNo: 1, name: `P${n}` });
    r.store.late.push(late(6));
    await director.poll();
    await settle(r.time);
    // The smallest table takes the late entry, with the starting stack.
    expect(r.tables.ofKind('seat').filter((s) => s.user_id === uid(6))).toMatchObject([{ stack: 500 }]);
    expect([...seating(r.tables).values()].map((p) => p.length)).toEqual([3, 3]);
    // Every table is told of the larger field at once.
    const infos = r.tables.ofKind('info');
    expect(infos.map((i) => i.table_id).sort()).toEqual(TABLE_IDS.slice(0, 2).sort());
    expect(infos.every((i) => i.info.entrants === 6 && i.info.players_left === 6)).toBe(true);
    // Every table is full: a third one is opened for the next two, and it deals once it has two.
    r.store.late.push(late(7), late(8));
    await director.poll();
    await director.poll();
    await settle(r.time);
    expect(seating(r.tables).get(TABLE_IDS[2]!)?.sort()).toEqual([uid(7), uid(8)].sort());
    expect(r.tables.ofKind('deal').some((d) => d.table_id === TABLE_IDS[2])).toBe(true);
    expect(r.store.seats.get('e8')).toBe(TABLE_IDS[2]);
    const snap = director.snapshot();
    expect(snap.tables['3']).toBe(TABLE_IDS[2]);
    expect(snap.entrants).toBe(8);
    expect(snap.state.chipsInPlay).toBe(8 * 500);

    // A bust while registration is open is held: no place, no prize yet.
    const [a, b] = seating(r.tables).get(TABLE_IDS[2]!)!;
    await director.report(
      report(TABLE_IDS[2]!, 1, [
        [a!, 500, 1_000],
        [b!, 500, 0],
      ]),
    );
    await settle(r.time);
    expect(r.store.awards).toEqual([]);
    expect(director.info(r.time.now()).view.players_left).toBe(7);
    expect(r.store.closes).toBe(0);

    // Level 2 begins (levels of two hands): the next poll closes registration, sets the prizes for
    // eight entries, and places the held bust last of the eight.
    for (const handNo of [1, 2]) {
      const players = seating(r.tables).get(TABLE_IDS[0]!)!;
      await director.report(
        report(
          TABLE_IDS[0]!,
          handNo,
          players.map((p) => [p, 500, 500]),
        ),
      );
      await settle(r.time);
    }
    expect(r.store.closes).toBe(0);
    await director.poll();
    await settle(r.time);
    expect(r.store.closes).toBe(1);
    const closed = director.snapshot();
    expect(closed.state.registrationOpen).toBe(false);
    expect(closed.state.prizes).toEqual([400, 240, 160]);
    expect(r.store.awards).toEqual([
      { entryId: `e${[...PLAYERS, uid(6), uid(7), uid(8)].indexOf(b!) + 1}`, place: 8, prize: 0 },
    ]);
    // Closed: a poll asks Postgres nothing more.
    await director.poll();
    expect(r.store.closes).toBe(1);
    await director.stop();
  });

  it('re-entry: a bust held while registration is open is marked out at once; the re-entry is seated as entry 2 and each entry is paid by its own id', async () => {
    const r = rig({
      lateRegistrationLevels: 2,
      reEntry: { max: 1, untilLevel: 1 },
      structure: {
        levels: [{ bigBlind: 20 }, { bigBlind: 40 }, { bigBlind: 80 }],
        levelLength: { unit: 'hands', value: 2 },
      },
    });
    const director = await DirectorActor.start(T, await r.store.start(), r.deps);
    await settle(r.time);
    // A late entry whose player unregistered once before the start: Postgres numbers it 2, the
    // director seats it as the player's first entry.
    r.store.late.push({ entryId: 'e6', userId: uid(6), entryNo: 2, name: 'P6' });
    await director.poll();
    await settle(r.time);
    expect(director.snapshot().state.players[uid(6)]).toMatchObject({ entryNo: 1, chips: 500 });

    const [tableId, here] = [...seating(r.tables)][0]!;
    const [winner, loser, ...rest] = here;
    await director.report(
      report(tableId, 1, [
        [winner!, 500, 1_000],
        [loser!, 500, 0],
        ...rest.map((p): [string, number, number] => [p, 500, 500]),
      ]),
    );
    await settle(r.time);
    const firstEntry = director.snapshot().players[loser!]!.entryId;
    // Out in Postgres at once, placed later.
    expect(r.store.outs).toEqual([firstEntry]);
    expect(r.store.awards).toEqual([]);

    // The player buys in again: entry 2, a new id, the starting stack.
    r.store.late.push({ entryId: 'e9', userId: loser!, entryNo: 2, name: 'again' });
    await director.poll();
    await director.poll();
    await settle(r.time);
    const snap = director.snapshot();
    expect(snap.state.players[loser!]).toMatchObject({ entryNo: 2, chips: 500 });
    expect(snap.players[loser!]).toEqual({ entryId: 'e9', name: 'again', entryIds: { '1': firstEntry, '2': 'e9' } });
    expect(r.tables.ofKind('seat').filter((s) => s.user_id === loser)).toHaveLength(2);
    expect(snap.entrants).toBe(7);
    expect(snap.state.chipsInPlay).toBe(7 * 500);
    expect(r.store.reEntryCloses).toBe(0);

    // Level 2 (two hands reported): re-entry closes, registration stays open.
    await evenHands(director, r.time, [2, 3]);
    await director.poll();
    await director.poll();
    expect(r.store.reEntryCloses).toBe(1);
    expect(director.snapshot().state.registrationOpen).toBe(true);

    // Level 3: registration closes; the first entry is placed last of the seven entries, by its own id.
    await evenHands(director, r.time, [4, 5]);
    await director.poll();
    await settle(r.time);
    expect(r.store.closes).toBe(1);
    expect(r.store.awards).toEqual([{ entryId: firstEntry, place: 7, prize: 0 }]);
    await director.stop();
  });

  it('late registration with levels in hands: a lone player left waits the action time for late entries, then registration closes and they win', async () => {
    const r = rig({ lateRegistrationLevels: 5, clock: { actionSeconds: 10 } });
    const director = await DirectorActor.start(T, await r.store.start(), r.deps);
    await settle(r.time);
    // Each table's first player takes everything until one is left (the lone one waits: no hand, no level).
    for (let round = 0; round < 10 && director.snapshot().state.remaining > 1; round++) {
      const snap = director.snapshot();
      for (const [no, tableId] of Object.entries(snap.tables)) {
        const t = snap.state.tables.find((x) => x.table === Number(no))!;
        const here = Object.entries(snap.state.players).filter(([, p]) => p.table === Number(no));
        if (t.closed || t.waiting || here.length < 2) continue;
        const total = here.reduce((n, [, p]) => n + p.chips, 0);
        await director.report(
          report(
            tableId,
            t.lastHandNo + 1,
            here.map(([id, p], i) => [id, p.chips, i === 0 ? total : 0]),
          ),
        );
      }
      await settle(r.time);
    }
    expect(director.snapshot().state.remaining).toBe(1);
    expect(director.snapshot().state.registrationOpen).toBe(true);
    await director.poll();
    const since = director.snapshot().loneSince;
    expect(since).toBe(r.time.now());
    r.time.advance(9_000);
    await director.poll();
    expect(r.store.closes).toBe(0);
    r.time.advance(1_000);
    await director.poll();
    await settle(r.time);
    expect(r.store.closes).toBe(1);
    expect(director.done).toBe(true);
    expect(r.store.awards.filter((a) => a.place === 1)).toHaveLength(1);
    // Every entry placed once (two out in one hand with the same stack tie).
    expect(new Set(r.store.awards.map((a) => a.entryId)).size).toBe(5);
    await director.stop();
  });

  it('a break holds the deals in the engine, the add-on is sold through it (given, queued for a hand, or paid back), and the prizes grow with it', async () => {
    const r = rig({
      structure: {
        levels: [{ bigBlind: 20 }, { bigBlind: 40 }],
        levelLength: { unit: 'minutes', value: 1 },
        breaks: { everyLevels: 1, minutes: 1 },
      },
      addOn: { chips: 300, cost: 50 },
    });
    const director = await DirectorActor.start(T, await r.store.start(), r.deps);
    const idle = async () => {
      for (let i = 0; i < 5; i++) await flush();
    };
    await idle();
    const snap0 = director.snapshot();
    const tableOf = (player: string) => snap0.tables[String(director.snapshot().state.players[player]!.table)]!;
    const [small, pair] = [...seating(r.tables)].find(([, p]) => p.length === 2)!;
    const [big, trio] = [...seating(r.tables)].find(([, p]) => p.length === 3)!;
    expect(r.store.addOnUntil).toBeNull();

    // Level 1 ends: the break starts (the level timer), the add-on goes on sale until its end.
    r.time.advance(60_000);
    await idle();
    expect(director.snapshot().state.onBreak).toBe(true);
    await director.poll();
    expect(r.store.addOnUntil?.getTime()).toBe(r.time.now() + 60_000);

    // The small table reports during the break: it waits, no deal goes to it.
    const deals = () => r.tables.ofKind('deal').filter((d) => d.table_id === small).length;
    const dealsBefore = deals();
    await director.report(
      report(small, 1, [
        [pair[0]!, 500, 500],
        [pair[1]!, 500, 500],
      ]),
    );
    await idle();
    expect(deals()).toBe(dealsBefore);

    // Bought at a waiting table: given at once. Bought at the big table in its hand: queued until it
    // reports, then given before anything else there. Bought by a player out by then: paid back.
    const entry = (p: string) => `e${PLAYERS.indexOf(p) + 1}`;
    r.store.bought.push({ entryId: entry(pair[0]!), userId: pair[0]! }, { entryId: entry(trio[0]!), userId: trio[0]! });
    await director.poll();
    await idle();
    expect(r.tables.ofKind('add_chips')).toEqual([
      expect.objectContaining({ table_id: small, user_id: pair[0], chips: 300, order_id: `addon:${pair[0]}:1` }),
    ]);
    expect(director.snapshot().state.players[trio[0]!]).toMatchObject({ chips: 500, addOns: 1 });
    // The big table's hand: trio[1] loses everything to trio[0] (who gets the add-on now, before it).
    await director.report(
      report(big, 1, [
        [trio[0]!, 500, 1_000],
        [trio[1]!, 500, 0],
        [trio[2]!, 500, 500],
      ]),
    );
    await idle();
    expect(r.tables.ofKind('add_chips').map((o) => o.user_id)).toEqual([pair[0], trio[0]]);
    expect(director.snapshot().state.players[trio[0]!]!.chips).toBe(1_300);
    r.store.bought.push({ entryId: entry(trio[1]!), userId: trio[1]! });
    await director.poll();
    expect(r.store.refunds).toEqual([entry(trio[1]!)]);
    expect(tableOf(pair[0]!)).toBe(small);
    expect(director.snapshot().state.chipsInPlay).toBe(2_500 + 600);

    // The break ends: the waiting tables deal, the sale closes, and the prizes include two add-ons.
    r.time.advance(60_000);
    await idle();
    expect(director.snapshot().state.onBreak).toBe(false);
    expect(deals()).toBeGreaterThan(dealsBefore);
    await director.poll();
    await idle();
    // Closed first, then read again once everything bought is given or paid back.
    expect(r.store.addOnCloses).toBe(2);
    expect(director.snapshot().state.prizes.reduce((n, p) => n + p, 0)).toBe(500 + 2 * 50);
    expect(director.snapshot().addOnSale).toMatchObject({ closed: true });
    // Over: later polls ask nothing more.
    await director.poll();
    expect(r.store.addOnCloses).toBe(2);
    expect(chipsHeldOf(director)).toBe(director.snapshot().state.chipsInPlay);
    await director.stop();
  });

  it('late registration: a slow Postgres gets one pass at a time, however often the poll asks', async () => {
    const r = rig({ lateRegistrationLevels: 1 });
    const director = await DirectorActor.start(T, await r.store.start(), r.deps);
    await settle(r.time);
    let release = (): void => undefined;
    r.store.hold = new Promise<void>((resolve) => (release = resolve));
    const passes = [director.poll(), director.poll(), director.poll()];
    await flush();
    expect(r.store.lateCalls).toBe(1);
    release();
    await Promise.all(passes);
    await director.poll();
    expect(r.store.lateCalls).toBe(2);
    await director.stop();
  });

  it('places and pays a bust, ignores the same report again, and refuses one that does not add up', async () => {
    const r = rig();
    const director = await DirectorActor.start(T, await r.store.start(), r.deps);
    await settle(r.time);
    const [small] = [...seating(r.tables)].find(([, p]) => p.length === 2)!;
    const [a, b] = seating(r.tables).get(small)!;
    await expect(
      director.report(
        report(small, 1, [
          [a!, 500, 400],
          [b!, 500, 500],
        ]),
      ),
    ).rejects.toBeInstanceOf(ReportRefusedError);
    await director.report(
      report(small, 1, [
        [a!, 500, 1_000],
        [b!, 500, 0],
      ]),
    );
    await director.report(
      report(small, 1, [
        [a!, 500, 1_000],
        [b!, 500, 0],
      ]),
    );
    await settle(r.time);
    expect(r.store.awards).toEqual([{ entryId: `e${PLAYERS.indexOf(b!) + 1}`, place: 5, prize: 0 }]);
    const snap = director.snapshot();
    expect(snap.placed[0]).toMatchObject({ user_id: b, place: 5 });
    expect(Object.values(snap.state.players).reduce((n, p) => n + p.chips, 0)).toBe(2_500);
    await director.stop();
  });

  it('carries a move out once after a failover between its two halves: the stack leaves one table and reaches the other', async () => {
    const r = rig();
    const director = await DirectorActor.start(T, await r.store.start(), r.deps);
    await settle(r.time);
    const byTable = seating(r.tables);
    const [small, pair] = [...byTable].find(([, p]) => p.length === 2)!;
    const [big, trio] = [...byTable].find(([, p]) => p.length === 3)!;
    // The table of two loses a player: one of three must move over once the big table is between hands.
    await director.report(
      report(small, 1, [
        [pair[0]!, 500, 1_000],
        [pair[1]!, 500, 0],
      ]),
    );
    r.tables.failing.add('seat');
    await director.report(
      report(big, 1, [
        [trio[0]!, 500, 500],
        [trio[1]!, 500, 500],
        [trio[2]!, 500, 500],
      ]),
    );
    await settle(r.time);
    const removed = r.tables.ofKind('remove');
    expect(removed).toHaveLength(1);
    expect(removed[0]!.table_id).toBe(big);
    const moved = removed[0]!.user_id;
    // The worker dies here: the player left the big table and is not seated at the small one yet.
    const before = director.snapshot();
    expect(Object.values(before.inTransit)).toEqual([500]);
    await director.stop();

    const saved = r.checkpoints.saved.get(directorKey(T))!.state;
    expect(isDirectorJSON(saved, T)).toBe(true);
    r.tables.failing.clear();
    const successor = DirectorActor.resume(saved as never, r.deps);
    await settle(r.time);
    expect(r.tables.ofKind('remove')).toHaveLength(1);
    const seatedAgain = r.tables.ofKind('seat').filter((s) => s.user_id === moved);
    expect(seatedAgain.map((s) => s.table_id)).toEqual([big, small]);
    expect(seatedAgain[1]!.stack).toBe(500);
    expect(r.tables.ofKind('told_moved')).toEqual([
      expect.objectContaining({ table_id: big, user_id: moved, to_table_id: small }),
    ]);
    const after = successor.snapshot();
    expect(after.inTransit).toEqual({});
    expect(after.pending).toEqual([]);
    expect(after.state.players[moved]!.table).not.toBeNull();
    await successor.stop();
  });

  it('plays to a winner: every place paid once, the tables closed, the tournament finished', async () => {
    const r = rig();
    const director = await DirectorActor.start(T, await r.store.start(), r.deps);
    await settle(r.time);
    // Each table's first player wins everything at it, hand after hand, until one is left.
    for (let round = 0; round < 20 && !director.done; round++) {
      const snap = director.snapshot();
      const hands = new Map(snap.state.tables.map((t) => [t.table, t.lastHandNo]));
      for (const [no, tableId] of Object.entries(snap.tables)) {
        const t = snap.state.tables.find((x) => x.table === Number(no))!;
        const here = Object.entries(snap.state.players).filter(([, p]) => p.table === Number(no));
        if (t.closed || t.waiting || here.length < 2 || snap.pending.length > 0) continue;
        const total = here.reduce((n, [, p]) => n + p.chips, 0);
        await director.report(
          report(
            tableId,
            hands.get(Number(no))! + 1,
            here.map(([id, p], i) => [id, p.chips, i === 0 ? total : 0]),
          ),
        );
      }
      await settle(r.time);
    }
    expect(director.done).toBe(true);
    expect(r.store.finished).toBe(1);
    // Everyone placed once (players out in the same hand with the same starting stack tie).
    expect(new Set(r.store.awards.map((a) => a.entryId)).size).toBe(5);
    expect(r.store.awards.filter((a) => a.place === 1)).toHaveLength(1);
    expect(r.store.awards.reduce((n, a) => n + a.prize, 0)).toBe(500);
    expect(r.store.closed.sort()).toEqual(TABLE_IDS.slice(0, 2).sort());
    await director.stop();
  });
});
