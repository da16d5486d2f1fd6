// The tournament routes on the real database: the list and one tournament with its payouts, register
// and unregister with the money they move, and every refusal typed and changing nothing (a full field,
// an empty wallet, a start time passed, a cancelled tournament, too many unregistrations, a stored
// config that does not parse), late registration into a running tournament until its director
// closes it, re-entry: a busted player buys in again through register while re-entry is open, and
// the add-on: a playing entry buys it through POST add-on while its director has it on sale.
import { LobbyApiError, LobbyClient } from '@felt/client';
import {
  cancelTournament,
  closeTournamentAddOns,
  closeTournamentReEntry,
  closeTournamentRegistration,
  createTournament,
  ledgerTotals,
  markTournamentEntryOut,
  newTournament,
  openTournamentAddOn,
  openTournamentTables,
  runAudit,
  seatTournamentEntry,
  startTournament,
} from '@felt/db';
import {
  parseTournamentConfig,
  tournamentDetailSchema,
  tournamentListSchema,
  type TournamentConfigInput,
} from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryNumbers } from '../src/tournaments.js';
import { expectError, startHarness, type Client, type Harness } from './harness.js';

type User = Client & { id: string; name: string };

let h: Harness;

/** An operator's tournament, as `npm run tournaments -- create` makes it. */
async function tournament(input: Partial<TournamentConfigInput> = {}): Promise<string> {
  const config = parseTournamentConfig({
    name: 'Turbo 6',
    format: 'sit_and_go',
    seats: 6,
    buyIn: 100,
    fee: 10,
    ...input,
  });
  const { id } = await createTournament(h.db.prisma, newTournament(config, null));
  return id;
}

/**
 * A scheduled tournament with an add-on (5,000 chips for `cost`), running with `players` seated at
 * its table; its director opened the sale until `until` unless it is null.
 */
async function runningWithAddOn(players: User[], cost = 50, until: Date | null = new Date(Date.now() + 600_000)) {
  const id = await tournament({
    format: 'scheduled',
    seats: 9,
    startsAt: new Date(Date.now() + 3_600_000).toISOString(),
    lateRegistrationLevels: 2,
    addOn: { chips: 5_000, cost },
  });
  for (const u of players) expect((await u.post(`/api/tournaments/${id}/register`)).status).toBe(200);
  const { entries } = await startTournament(h.db.prisma, id);
  const [tableId] = await openTournamentTables(h.db.prisma, id, 1);
  for (const e of entries) await seatTournamentEntry(h.db.prisma, e.id, tableId!);
  if (until !== null) await openTournamentAddOn(h.db.prisma, id, until);
  return { id, tableId: tableId!, entries: new Map(entries.map((e) => [e.userId, e.id])) };
}

/** How many entries hold an add-on (the harness's snapshot covers the ledger, not the entries). */
const addOnsBought = () => h.db.prisma.tournamentEntry.count({ where: { addOnAt: { not: null } } });

async function wallet(user: User): Promise<number> {
  const me = await user.get<{ wallet: number }>('/api/me');
  return me.body.wallet;
}

async function expectAuditClean(): Promise<void> {
  expect((await runAudit(h.db.prisma)).issues).toEqual([]);
  const t = await ledgerTotals(h.db.prisma);
  expect(t.wallets + t.escrow + t.rake + t.bankroll + t.tournamentPools + t.fees).toBe(t.granted);
}

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

describe('tournaments over HTTP', () => {
  it('lists a tournament, registers and unregisters with the money moving, and shows the payouts', async () => {
    const id = await tournament();
    const [alice, bob] = [await h.user(), await h.user()];
    const before = await wallet(alice);

    const listed = await alice.get<{ tournaments: { id: string }[] }>('/api/tournaments');
    expect(listed.status).toBe(200);
    expect(tournamentListSchema.parse(listed.body)).toEqual(listed.body);
    expect(listed.body.tournaments.map((t) => t.id)).toContain(id);

    const reg = await alice.post(`/api/tournaments/${id}/register`);
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    expect(reg.body).toEqual({
      tournament_id: id,
      entry_no: 1,
      status: 'registered',
      wallet: before - 110,
      replayed: false,
    });
    const again = await alice.post(`/api/tournaments/${id}/register`);
    expect(again.body).toMatchObject({ replayed: true, wallet: before - 110 });
    expect((await bob.post(`/api/tournaments/${id}/register`)).status).toBe(200);

    const detail = await alice.get<Record<string, unknown>>(`/api/tournaments/${id}`);
    expect(detail.status).toBe(200);
    expect(tournamentDetailSchema.parse(detail.body)).toEqual(detail.body);
    expect(detail.body).toMatchObject({
      id,
      name: 'Turbo 6',
      format: 'sit_and_go',
      status: 'registering',
      entrants: 2,
      min_entrants: 6,
      max_entrants: 6,
      prize_pool: 200,
      starting_stack: 5_000,
      registered: true,
      payouts: [{ place: 1, amount: 200 }],
    });
    expect((detail.body.players as { name: string }[]).map((p) => p.name).sort()).toEqual(
      [alice.name, bob.name].sort(),
    );

    const out = await alice.req('DELETE', `/api/tournaments/${id}/register`);
    expect(out.body).toEqual({ tournament_id: id, wallet: before });
    expectError(await alice.req('DELETE', `/api/tournaments/${id}/register`), 409, 'not_registered');
    expect((await alice.get(`/api/tournaments/${id}`)).body).toMatchObject({ registered: false, entrants: 1 });
    // Registering again after an unregistration is still a first entry (as the director numbers it).
    expect((await alice.post(`/api/tournaments/${id}/register`)).body).toMatchObject({ entry_no: 1, replayed: false });
    const rows = (await alice.get<{ players: { user_id: string; entry_no: number }[] }>(`/api/tournaments/${id}`)).body
      .players;
    expect(rows.filter((p) => p.user_id === alice.id).map((p) => p.entry_no)).toEqual([1]);
    await expectAuditClean();
  });

  it('refuses a full field, an empty wallet, a passed start time and a cancelled tournament, changing nothing', async () => {
    const small = await tournament({ seats: 2 });
    const [a, b, c] = [await h.user(), await h.user(), await h.user()];
    await a.post(`/api/tournaments/${small}/register`);
    await b.post(`/api/tournaments/${small}/register`);
    const snapshot = await h.snapshot();
    expectError(await c.post(`/api/tournaments/${small}/register`), 409, 'tournament_full');

    const dear = await tournament({ buyIn: 20_000, fee: 0 });
    expectError(await c.post(`/api/tournaments/${dear}/register`), 409, 'insufficient_funds');
    expect(await h.snapshot()).toEqual(snapshot);

    const scheduled = await tournament({
      format: 'scheduled',
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect((await c.post(`/api/tournaments/${scheduled}/register`)).status).toBe(200);
    // An hour later the start time has come: registration and unregistration are closed.
    const later = await startHarness({ clock: { now: () => new Date(Date.now() + 3_600_001) } });
    try {
      const lateUser = await later.user();
      const lateId = await (async () => {
        const config = parseTournamentConfig({
          name: 'Late',
          format: 'scheduled',
          startsAt: new Date(Date.now() + 60_000).toISOString(),
          buyIn: 10,
        });
        return (await createTournament(later.db.prisma, newTournament(config, null))).id;
      })();
      expectError(await lateUser.post(`/api/tournaments/${lateId}/register`), 409, 'tournament_closed');
    } finally {
      await later.close();
    }

    await cancelTournament(h.db.prisma, scheduled);
    expectError(await c.post(`/api/tournaments/${scheduled}/register`), 409, 'tournament_closed');
    expect((await c.get(`/api/tournaments/${scheduled}`)).body).toMatchObject({
      status: 'cancelled',
      entrants: 0,
      prize_pool: 0,
    });
    const listed = await c.get<{ tournaments: { id: string }[] }>('/api/tournaments');
    expect(listed.body.tournaments.map((t) => t.id)).not.toContain(scheduled);
    await expectAuditClean();
  });

  it('lists a running tournament with late registration open, registers into it until the director closes it', async () => {
    const late = await tournament({
      format: 'scheduled',
      seats: 9,
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      lateRegistrationLevels: 2,
    });
    const plain = await tournament({
      format: 'scheduled',
      seats: 9,
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const [a, b, c, d] = [await h.user(), await h.user(), await h.user(), await h.user()];
    for (const id of [late, plain]) {
      for (const u of [a, b]) expect((await u.post(`/api/tournaments/${id}/register`)).status).toBe(200);
    }
    type Listed = { tournaments: { id: string; status: string; late_registration_open: boolean }[] };
    const flags = async () => {
      const listed = await c.get<Listed>('/api/tournaments');
      expect(tournamentListSchema.parse(listed.body)).toEqual(listed.body);
      return Object.fromEntries(
        listed.body.tournaments
          .filter((t) => t.id === late || t.id === plain)
          .map((t) => [t.id, [t.status, t.late_registration_open]]),
      );
    };
    // Registering, neither is a late registration.
    expect(await flags()).toEqual({ [late]: ['registering', false], [plain]: ['registering', false] });
    await startTournament(h.db.prisma, late);
    await startTournament(h.db.prisma, plain);
    // The default list (registering and running) shows both; only one still takes entries.
    expect(await flags()).toEqual({ [late]: ['running', true], [plain]: ['running', false] });

    const before = await wallet(c);
    const reg = await c.post(`/api/tournaments/${late}/register`);
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    expect(reg.body).toEqual({
      tournament_id: late,
      entry_no: 1,
      status: 'registered',
      wallet: before - 110,
      replayed: false,
    });
    expectError(await c.req('DELETE', `/api/tournaments/${late}/register`), 409, 'tournament_closed');
    expectError(await d.post(`/api/tournaments/${plain}/register`), 409, 'tournament_closed');

    const detail = await c.get<Record<string, unknown>>(`/api/tournaments/${late}`);
    expect(tournamentDetailSchema.parse(detail.body)).toEqual(detail.body);
    expect(detail.body).toMatchObject({
      status: 'running',
      late_registration_open: true,
      entrants: 3,
      prize_pool: 300,
      registered: true,
      your_table_id: null,
    });
    expect(detail.body.players).toContainEqual({
      user_id: c.id,
      name: c.name,
      entry_no: 1,
      status: 'registered',
      place: null,
      prize: 0,
      table_id: null,
    });

    expect(await closeTournamentRegistration(h.db.prisma, late)).toMatchObject({ entries: 3, prizePool: 300n });
    expect(await flags()).toEqual({ [late]: ['running', false], [plain]: ['running', false] });
    const snapshot = await h.snapshot();
    expectError(await d.post(`/api/tournaments/${late}/register`), 409, 'tournament_closed');
    expect(await h.snapshot()).toEqual(snapshot);
    expect((await d.get(`/api/tournaments/${late}`)).body).toMatchObject({
      late_registration_open: false,
      entrants: 3,
    });
    await expectAuditClean();
  });

  it('re-entry: a busted player is shown busted, may re-enter through register while re_entry_open, up to reEntry.max', async () => {
    const scheduled = {
      format: 'scheduled' as const,
      seats: 9,
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      lateRegistrationLevels: 3,
    };
    const re = await tournament({ ...scheduled, reEntry: { max: 1, untilLevel: 2 } });
    const late = await tournament(scheduled);
    const [a, b, c] = [await h.user(), await h.user(), await h.user()];
    for (const id of [re, late]) {
      for (const u of [a, b]) expect((await u.post(`/api/tournaments/${id}/register`)).status).toBe(200);
    }
    type Listed = { tournaments: { id: string; late_registration_open: boolean; re_entry_open: boolean }[] };
    const flags = async () => {
      const listed = await c.get<Listed>('/api/tournaments');
      expect(tournamentListSchema.parse(listed.body)).toEqual(listed.body);
      return Object.fromEntries(
        listed.body.tournaments
          .filter((t) => t.id === re || t.id === late)
          .map((t) => [t.id, [t.late_registration_open, t.re_entry_open]]),
      );
    };
    type Detail = {
      registered: boolean;
      can_re_enter: boolean;
      re_entry_open: boolean;
      entrants: number;
      prize_pool: number;
      players: {
        user_id: string;
        entry_no: number;
        status: string;
        place: number | null;
        prize: number;
        table_id: string | null;
      }[];
    };
    const detail = async (u: User, id: string) => {
      const res = await u.get<Detail>(`/api/tournaments/${id}`);
      expect(tournamentDetailSchema.parse(res.body)).toEqual(res.body);
      return res.body;
    };
    // Registering, re-entry is not open yet.
    expect(await flags()).toEqual({ [re]: [false, false], [late]: [false, false] });
    const entries = new Map<string, string>();
    for (const id of [re, late]) {
      for (const e of (await startTournament(h.db.prisma, id)).entries) entries.set(`${id}:${e.userId}`, e.id);
    }
    expect(await flags()).toEqual({ [re]: [true, true], [late]: [true, false] });
    expect(await detail(a, re)).toMatchObject({ registered: true, can_re_enter: false, re_entry_open: true });

    // a busts: the director holds them unplaced, the lobby offers the re-entry to them only.
    await markTournamentEntryOut(h.db.prisma, { tournamentId: re, entryId: entries.get(`${re}:${a.id}`)! });
    const busted = await detail(a, re);
    expect(busted).toMatchObject({ registered: false, can_re_enter: true, entrants: 1, prize_pool: 200 });
    expect(busted.players).toContainEqual({
      user_id: a.id,
      name: a.name,
      entry_no: 1,
      status: 'busted',
      place: null,
      prize: 0,
      table_id: null,
    });
    expect((await detail(b, re)).can_re_enter).toBe(false);
    expect((await detail(c, re)).can_re_enter).toBe(false);

    const before = await wallet(a);
    const reg = await a.post(`/api/tournaments/${re}/register`);
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    expect(reg.body).toEqual({
      tournament_id: re,
      entry_no: 2,
      status: 'registered',
      wallet: before - 110,
      replayed: false,
    });
    expect((await a.post(`/api/tournaments/${re}/register`)).body).toMatchObject({ entry_no: 2, replayed: true });
    const reEntered = await detail(a, re);
    expect(reEntered).toMatchObject({ registered: true, can_re_enter: false, entrants: 2, prize_pool: 300 });
    expect(reEntered.players.filter((p) => p.user_id === a.id).map((p) => [p.entry_no, p.status])).toEqual([
      [1, 'busted'],
      [2, 'registered'],
    ]);

    // Seated and out again: the one re-entry is used.
    const [tableId] = await openTournamentTables(h.db.prisma, re, 1);
    const second = await h.db.prisma.tournamentEntry.findFirstOrThrow({
      where: { tournamentId: re, userId: a.id, entryNo: 2 },
    });
    await seatTournamentEntry(h.db.prisma, second.id, tableId!);
    await markTournamentEntryOut(h.db.prisma, { tournamentId: re, entryId: second.id });
    expect(await detail(a, re)).toMatchObject({ registered: false, can_re_enter: false, re_entry_open: true });
    let snapshot = await h.snapshot();
    expectError(await a.post(`/api/tournaments/${re}/register`), 409, 'tournament_entry_limit');
    expect(await h.snapshot()).toEqual(snapshot);

    // Without reEntry in its config, a busted player may not come back.
    await markTournamentEntryOut(h.db.prisma, { tournamentId: late, entryId: entries.get(`${late}:${a.id}`)! });
    expect(await detail(a, late)).toMatchObject({ registered: false, can_re_enter: false, re_entry_open: false });
    snapshot = await h.snapshot();
    expectError(await a.post(`/api/tournaments/${late}/register`), 409, 'tournament_closed');
    expect(await h.snapshot()).toEqual(snapshot);

    // The director closes re-entry: late registration stays open to new players, not to busted ones.
    await markTournamentEntryOut(h.db.prisma, { tournamentId: re, entryId: entries.get(`${re}:${b.id}`)! });
    expect((await detail(b, re)).can_re_enter).toBe(true);
    await closeTournamentReEntry(h.db.prisma, re);
    expect(await flags()).toEqual({ [re]: [true, false], [late]: [true, false] });
    expect((await detail(b, re)).can_re_enter).toBe(false);
    snapshot = await h.snapshot();
    expectError(await b.post(`/api/tournaments/${re}/register`), 409, 'tournament_closed');
    expect(await h.snapshot()).toEqual(snapshot);
    expect((await c.post(`/api/tournaments/${re}/register`)).body).toMatchObject({ entry_no: 1, replayed: false });

    await closeTournamentRegistration(h.db.prisma, re);
    expect(await flags()).toEqual({ [re]: [false, false], [late]: [true, false] });
    await expectAuditClean();
  });

  it('add-on: the detail shows the sale and can_add_on, a playing entry buys it once through the route with the money moving', async () => {
    const [a, b, c] = [await h.user(), await h.user(), await h.user()];
    type Detail = {
      add_on_open: boolean;
      add_on_until: string | null;
      can_add_on: boolean;
      prize_pool: number;
      payouts: { place: number; amount: number }[];
    };
    const detail = async (u: User, id: string) => {
      const res = await u.get<Detail>(`/api/tournaments/${id}`);
      expect(res.status).toBe(200);
      expect(tournamentDetailSchema.parse(res.body)).toEqual(res.body);
      return res.body;
    };
    const t = await runningWithAddOn([a, b], 50, null);
    // Running, the sale not opened yet.
    expect(await detail(a, t.id)).toMatchObject({ add_on_open: false, add_on_until: null, can_add_on: false });
    const snapshot = await h.snapshot();
    expectError(await a.post(`/api/tournaments/${t.id}/add-on`), 409, 'tournament_closed');
    expect(await h.snapshot()).toEqual(snapshot);

    const until = new Date(Date.now() + 600_000);
    await openTournamentAddOn(h.db.prisma, t.id, until);
    expect(await detail(a, t.id)).toMatchObject({
      add_on_open: true,
      add_on_until: until.toISOString(),
      can_add_on: true,
      prize_pool: 200,
    });
    // Not in it: on sale, but not for c.
    expect(await detail(c, t.id)).toMatchObject({ add_on_open: true, can_add_on: false });

    const before = await wallet(a);
    const bought = await a.post(`/api/tournaments/${t.id}/add-on`);
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expect(bought.body).toEqual({
      tournament_id: t.id,
      entry_no: 1,
      chips: 5_000,
      cost: 50,
      wallet: before - 50,
      replayed: false,
    });
    expect((await a.post(`/api/tournaments/${t.id}/add-on`)).body).toEqual({
      tournament_id: t.id,
      entry_no: 1,
      chips: 5_000,
      cost: 50,
      wallet: before - 50,
      replayed: true,
    });
    expect(await wallet(a)).toBe(before - 50);
    const after = await detail(a, t.id);
    expect(after).toMatchObject({ add_on_open: true, can_add_on: false, prize_pool: 250 });
    expect(after.payouts.reduce((sum, p) => sum + p.amount, 0)).toBe(250);
    expect((await detail(b, t.id)).can_add_on).toBe(true);

    // The wallet's history names it.
    const history = await a.get<{ entries: { kind: string; amount: number }[] }>('/api/wallet/history?page_size=1');
    expect(history.body.entries).toEqual([expect.objectContaining({ kind: 'tournament_add_on', amount: -50 })]);

    // The director closes the sale: nothing on sale, nothing bought.
    await closeTournamentAddOns(h.db.prisma, t.id);
    expect(await detail(b, t.id)).toMatchObject({
      add_on_open: false,
      add_on_until: until.toISOString(),
      can_add_on: false,
    });
    const closed = await h.snapshot();
    expectError(await b.post(`/api/tournaments/${t.id}/add-on`), 409, 'tournament_closed');
    expect(await h.snapshot()).toEqual(closed);
    await expectAuditClean();
  });

  it('add-on refusals: none offered, its sale over, no entry in play, an empty wallet; each changes nothing', async () => {
    const [a, b, c] = [await h.user(), await h.user(), await h.user()];
    const t = await runningWithAddOn([a, b]);
    await markTournamentEntryOut(h.db.prisma, { tournamentId: t.id, entryId: t.entries.get(b.id)! });
    // Registered late and not seated yet.
    expect((await c.post(`/api/tournaments/${t.id}/register`)).body).toMatchObject({ status: 'registered' });
    const stranger = await h.user();
    const ended = await runningWithAddOn([a, b], 50, new Date(Date.now() - 1));
    const plain = await tournament({ seats: 2 });
    await a.post(`/api/tournaments/${plain}/register`);
    await b.post(`/api/tournaments/${plain}/register`);
    const dear = await runningWithAddOn([a, b], 20_000);

    const snapshot = await h.snapshot();
    const bought = await addOnsBought();
    for (const u of [b, c, stranger]) {
      expect((await u.get<{ can_add_on: boolean }>(`/api/tournaments/${t.id}`)).body.can_add_on).toBe(false);
      expectError(await u.post(`/api/tournaments/${t.id}/add-on`), 409, 'not_registered');
    }
    expect((await a.get(`/api/tournaments/${ended.id}`)).body).toMatchObject({ add_on_open: false, can_add_on: false });
    expectError(await a.post(`/api/tournaments/${ended.id}/add-on`), 409, 'tournament_closed');
    expect((await a.get(`/api/tournaments/${plain}`)).body).toMatchObject({
      add_on_open: false,
      add_on_until: null,
      can_add_on: false,
    });
    expectError(await a.post(`/api/tournaments/${plain}/add-on`), 409, 'tournament_closed');
    expect((await a.get(`/api/tournaments/${dear.id}`)).body).toMatchObject({ add_on_open: true, can_add_on: true });
    expectError(await a.post(`/api/tournaments/${dear.id}/add-on`), 409, 'insufficient_funds');
    expectError(await a.post(`/api/tournaments/${crypto.randomUUID()}/add-on`), 404, 'tournament_not_found');
    expectError(await a.post('/api/tournaments/not-a-uuid/add-on'), 400, 'invalid_request');
    expectError(await h.client().post(`/api/tournaments/${t.id}/add-on`), 401, 'unauthenticated');
    expect(await h.snapshot()).toEqual(snapshot);
    expect(await addOnsBought()).toBe(bought);
    await expectAuditClean();
  });

  it('stops a player who registers and unregisters over and over', async () => {
    const id = await tournament();
    const churner = await h.user();
    for (let i = 0; i < 5; i++) {
      expect((await churner.post(`/api/tournaments/${id}/register`)).status).toBe(200);
      expect((await churner.req('DELETE', `/api/tournaments/${id}/register`)).status).toBe(200);
    }
    expectError(await churner.post(`/api/tournaments/${id}/register`), 409, 'tournament_entry_limit');
    expect(await h.db.prisma.tournamentEntry.count({ where: { tournamentId: id } })).toBe(5);
  });

  it('throttles registration changes per player across tournaments: past the limit rate_limited, nothing moves', async () => {
    const limited = await startHarness({ limits: { tournamentChangesPerUser: 3 } });
    try {
      const ids = await Promise.all(
        [1, 2].map(async (n) => {
          const config = parseTournamentConfig({
            name: `Loop ${n}`,
            format: 'sit_and_go',
            seats: 6,
            buyIn: 100,
            fee: 10,
          });
          return (await createTournament(limited.db.prisma, newTournament(config, null))).id;
        }),
      );
      const u = await limited.user();
      expect((await u.post(`/api/tournaments/${ids[0]}/register`)).status).toBe(200);
      expect((await u.req('DELETE', `/api/tournaments/${ids[0]}/register`)).status).toBe(200);
      expect((await u.post(`/api/tournaments/${ids[1]}/register`)).status).toBe(200);
      const before = (await u.get<{ wallet: number }>('/api/me')).body.wallet;
      const refused = await u.req('DELETE', `/api/tournaments/${ids[1]}/register`);
      expectError(refused, 429, 'rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // An add-on counts with them (here refused before the tournament is even read).
      expectError(await u.post(`/api/tournaments/${ids[0]}/add-on`), 429, 'rate_limited');
      // The refused unregistration left the entry and the wallet where they were.
      expect((await u.get<{ wallet: number }>('/api/me')).body.wallet).toBe(before);
      expect(await limited.db.prisma.tournamentEntry.count({ where: { userId: u.id, status: 'registered' } })).toBe(1);
      // Another player is not held back by it.
      const other = await limited.user();
      expect((await other.post(`/api/tournaments/${ids[0]}/register`)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('the SDK lists, reads, registers, unregisters and buys the add-on, and turns refusals into LobbyApiError codes', async () => {
    const id = await tournament({ seats: 2 });
    // The SDK's own HTTP path, answered by this lobby app in process (it always passes a URL string).
    const sdk = (address: string) =>
      new LobbyClient({
        baseUrl: 'http://lobby',
        fetch: (input, init) =>
          Promise.resolve(
            h.lobby.app.request((input as string).replace('http://lobby', ''), init, {
              incoming: { socket: { remoteAddress: address } },
            }),
          ),
      });
    const [ann, ben, cat] = [sdk('127.0.0.1'), sdk('127.0.0.1'), sdk('127.0.0.1')];
    for (const [i, c] of [ann, ben, cat].entries()) await c.signup(`sdk${i}_${Date.now().toString(36)}`, 'password-1');
    expect((await ann.listTournaments()).map((t) => t.id)).toContain(id);
    expect(await ann.registerTournament(id)).toMatchObject({ status: 'registered', replayed: false });
    await ben.registerTournament(id);
    const refused = await cat.registerTournament(id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LobbyApiError);
    expect((refused as LobbyApiError).code).toBe('tournament_full');
    expect(await ann.getTournament(id)).toMatchObject({ entrants: 2, prize_pool: 200, registered: true });
    expect((await ann.unregisterTournament(id)).tournament_id).toBe(id);
    expect((await ann.getTournament(id)).registered).toBe(false);

    // The add-on: refused where none is on sale, bought once where it is.
    const noAddOn = await ben.addOnTournament(id).catch((e: unknown) => e);
    expect(noAddOn).toBeInstanceOf(LobbyApiError);
    expect((noAddOn as LobbyApiError).code).toBe('tournament_closed');
    const withAddOn = await tournament({
      format: 'scheduled',
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      addOn: { chips: 5_000, cost: 50 },
    });
    for (const c of [ann, ben]) await c.registerTournament(withAddOn);
    const { entries } = await startTournament(h.db.prisma, withAddOn);
    const [tableId] = await openTournamentTables(h.db.prisma, withAddOn, 1);
    for (const e of entries) await seatTournamentEntry(h.db.prisma, e.id, tableId!);
    await openTournamentAddOn(h.db.prisma, withAddOn, new Date(Date.now() + 600_000));
    expect(await ann.getTournament(withAddOn)).toMatchObject({ add_on_open: true, can_add_on: true });
    expect(await ann.addOnTournament(withAddOn)).toMatchObject({ chips: 5_000, cost: 50, replayed: false });
    expect(await ann.addOnTournament(withAddOn)).toMatchObject({ replayed: true });
    expect((await ann.getTournament(withAddOn)).can_add_on).toBe(false);
  });

  it('answers 404 for an unknown tournament and 400 for a bad id, and needs a session', async () => {
    const user = await h.user();
    expectError(await user.get(`/api/tournaments/${crypto.randomUUID()}`), 404, 'tournament_not_found');
    expectError(await user.post(`/api/tournaments/${crypto.randomUUID()}/register`), 404, 'tournament_not_found');
    expectError(await user.get('/api/tournaments/not-a-uuid'), 400, 'invalid_request');
    expectError(await user.get('/api/tournaments?status=cancelled'), 400, 'invalid_request');
    expectError(await h.client().get('/api/tournaments'), 401, 'unauthenticated');
  });

  it('leaves a tournament whose stored config does not parse out of the list, for everyone else it still works', async () => {
    const good = await tournament();
    const bad = await tournament();
    await h.db.prisma.tournament.update({ where: { id: bad }, data: { config: { name: 'x', format: 'nonsense' } } });
    const user = await h.user();
    const listed = await user.get<{ tournaments: { id: string }[] }>('/api/tournaments');
    expect(listed.status).toBe(200);
    const ids = listed.body.tournaments.map((t) => t.id);
    expect(ids).toContain(good);
    expect(ids).not.toContain(bad);
    expectError(await user.get(`/api/tournaments/${bad}`), 404, 'tournament_not_found');
  });
});

describe('entry numbers', () => {
  it("numbers each player's entries not refunded 1, 2, … in entry_no order, whatever the rows' order", () => {
    const numbers = entryNumbers([
      { id: 'a3', userId: 'a', entryNo: 3 },
      { id: 'b1', userId: 'b', entryNo: 1 },
      // a's entry_no 1 was refunded before the start: its entries paid for are 2 and 3.
      { id: 'a2', userId: 'a', entryNo: 2 },
    ]);
    expect(Object.fromEntries(numbers)).toEqual({ a2: 1, a3: 2, b1: 1 });
  });
});
