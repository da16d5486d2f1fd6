// Bots are users (docs/dev/money-flows.md §1). Through the real cluster (gateway, workers, lobby in
// worker mode, persister): a bot-fill room's bots and an operator's bot-only table's bots are funded
// users with memberships and buy-ins, their hands are persisted like anyone's, and when they leave they
// are cashed out; the audit stays clean and no chip is made or lost.
import { randomUUID } from 'node:crypto';
import { bankrollFlows, type PrismaClient } from '@felt/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, TEST_BANKROLL } from './harness/cluster.js';
import { LobbyClient, type SignedUpUser } from './harness/lobby-client.js';
import { auditCluster, waitPersisted } from './harness/money.js';
import { passivePlay, TableClient } from './harness/table-client.js';
import { makeBotOnlyTable } from './harness/table-ops.js';
import { waitFor } from './harness/wait.js';

let cluster: Cluster;
let lobby: LobbyClient;
let prisma: PrismaClient;
const open: TableClient[] = [];

beforeAll(async () => {
  cluster = await Cluster.start({
    gateways: 1,
    workers: 1,
    lobby: true,
    persister: true,
    env: {
      FELT_MEMBER_TTL_MS: '15000',
      FELT_ACTION_MS: '3000',
      FELT_TIME_BANK_MS: '0',
      FELT_WARNING_MS: '500',
      FELT_HAND_PAUSE_MS: '150',
      FELT_SEED_WINDOW_MS: '300',
      FELT_BOT_THINK_MS: '20',
      FELT_BOT_ITERATIONS: '20',
      FELT_BOT_SEED: 'money-bots',
      FELT_CASH_OUT_MODE: 'worker',
    },
  });
  lobby = new LobbyClient(cluster.lobby!.url);
  prisma = cluster.db.prisma;
});

afterAll(async () => {
  for (const c of open) c.close();
  await cluster?.stop();
});

async function signUp(): Promise<SignedUpUser> {
  return lobby.signUp(`b-${randomUUID().slice(0, 8)}`);
}

/** The room's bot members (users named `bot-<their id>`), active or not. */
async function botMemberships(roomId: string) {
  const rows = await prisma.membership.findMany({ where: { roomId }, include: { user: true } });
  return rows.filter((m) => m.user.name === `bot-${m.userId}`);
}

async function expectCleanAudit(roomIds: string[]): Promise<void> {
  await waitPersisted(cluster, prisma, roomIds, 40_000);
  const audit = await auditCluster(cluster, prisma);
  expect(audit.report.issues).toEqual([]);
  expect(audit.report.ok).toBe(true);
  expect(audit.sum).toBe(0n);
  expect(audit.held).toBe(audit.granted);
}

/** Every cash-out of the room is paid and nobody is seated any more. */
async function allGone(roomId: string): Promise<void> {
  await waitFor(
    'every seat cashed out',
    async () => {
      const active = await prisma.membership.count({ where: { roomId, status: 'active' } });
      const unpaid = await prisma.cashOut.count({ where: { roomId, status: { not: 'paid' } } });
      return active === 0 && unpaid === 0;
    },
    30_000,
    200,
  );
}

describe('bots are funded users', () => {
  it('bot-fill: the bots buy in as users, play persisted hands, and are cashed out when the last human leaves', async () => {
    const ann = await signUp();
    const room = await lobby.createRoom(ann, { botFill: { mode: 'fill', targetPlayers: 3 } });
    const a = await TableClient.join(cluster.gateways[0]!.wsUrl, ann.cookie, room.sessionId, ann.userId, {
      decide: passivePlay,
      sendSeeds: true,
    });
    open.push(a);
    await waitFor(
      'two persisted hands',
      async () => ((await prisma.room.findUnique({ where: { id: room.sessionId } }))?.lastHandNo ?? 0) >= 2,
      30_000,
      200,
    );
    const bots = await botMemberships(room.sessionId);
    expect(bots.length).toBeGreaterThanOrEqual(2);
    // Each bot bought in at the room's maximum, staked by the house bankroll: no chip was granted to it.
    for (const b of bots) expect(b.buyIn).toBe(BigInt(room.buyIn.max));
    const botGrants = await prisma.ledgerEntry.count({
      where: { account: { userId: { in: bots.map((b) => b.userId) } }, transaction: { kind: 'grant' } },
    });
    expect(botGrants).toBe(0);
    const players = await prisma.handPlayer.findMany({ where: { hand: { roomId: room.sessionId } } });
    const botIds = new Set(bots.map((b) => b.userId));
    expect(players.filter((p) => botIds.has(p.userId)).length).toBeGreaterThan(0);
    expect(players.every((p) => p.userId === ann.userId || botIds.has(p.userId))).toBe(true);

    await lobby.leaveRoom(ann, room.sessionId);
    await allGone(room.sessionId);
    const cashOuts = await prisma.cashOut.findMany({ where: { roomId: room.sessionId } });
    for (const b of bots) {
      expect(cashOuts.find((c) => c.membershipId === b.id)).toMatchObject({ reason: 'leave', status: 'paid' });
    }
    expect(cashOuts.find((c) => c.userId === ann.userId)).toMatchObject({ reason: 'leave', status: 'paid' });
    // What the bots left the table with went back to the bankroll; their wallets are empty.
    for (const b of bots) {
      const wallet = await prisma.ledgerAccount.findUnique({ where: { key: `wallet:${b.userId}` } });
      expect(wallet?.balance ?? 0n).toBe(0n);
    }
    const flows = (await bankrollFlows(prisma)).report;
    const botsCashedOut = cashOuts
      .filter((c) => c.userId !== ann.userId)
      .reduce((a, c) => a + (c.paidAmount ?? 0n), 0n);
    expect(flows.returned).toBe(botsCashedOut);
    expect(flows.balance).toBe(TEST_BANKROLL - flows.staked + flows.returned);
    await expectCleanAudit([room.sessionId]);
  });

  it('a bot makes way for a waiting player: it leaves at the hand boundary, is cashed out, and the seat is offered to them', async () => {
    const ann = await signUp();
    const room = await lobby.createRoom(ann, { seats: 2, botFill: { mode: 'fill', targetPlayers: 2 } });
    const a = await TableClient.join(cluster.gateways[0]!.wsUrl, ann.cookie, room.sessionId, ann.userId, {
      decide: passivePlay,
      sendSeeds: true,
    });
    open.push(a);
    await waitFor(
      'a persisted hand against the bot',
      async () => ((await prisma.room.findUnique({ where: { id: room.sessionId } }))?.lastHandNo ?? 0) >= 1,
      30_000,
      200,
    );
    const [bot] = (await botMemberships(room.sessionId)).filter((m) => m.status === 'active');
    expect(bot).toBeDefined();
    // The room is full (Ann and the bot): Bob waits for a seat.
    const bob = await signUp();
    expect(await lobby.joinWaitlist(bob, room.sessionId)).toMatchObject({ position: 1, offer_expires_at: null });
    // The table hears of him, lets the bot go when its hand is over, and the persister pays the bot
    // out; the lobby's keeper then holds the free seat for Bob.
    let offer: string | null = null;
    await waitFor(
      'the seat offered to Bob',
      async () => {
        offer = (await lobby.waitlists(bob))[0]?.offer_expires_at ?? null;
        return offer !== null;
      },
      45_000,
      200,
    );
    expect(await prisma.cashOut.findFirst({ where: { membershipId: bot!.id } })).toMatchObject({ status: 'paid' });
    // No other bot took the seat meanwhile, and none does while it is held.
    expect(await prisma.membership.count({ where: { roomId: room.sessionId, status: 'active' } })).toBe(1);
    await lobby.joinByCode(bob, room.code);
    expect(await lobby.waitlists(bob)).toEqual([]);
    const seated = await prisma.membership.findMany({ where: { roomId: room.sessionId, status: 'active' } });
    expect(seated.map((m) => m.userId).sort()).toEqual([ann.userId, bob.userId].sort());
    a.close();
    await lobby.leaveRoom(ann, room.sessionId);
    await lobby.leaveRoom(bob, room.sessionId);
    await allGone(room.sessionId);
    await expectCleanAudit([room.sessionId]);
  });

  it('a seat held by an unrecorded cash-out goes to a bot as soon as the persister records it', async () => {
    const ann = await signUp();
    const room = await lobby.createRoom(ann, { seats: 3, botFill: { mode: 'fill', targetPlayers: 2 } });
    const a = await TableClient.join(cluster.gateways[0]!.wsUrl, ann.cookie, room.sessionId, ann.userId, {
      decide: passivePlay,
      sendSeeds: true,
    });
    open.push(a);
    const bots = () => a.state?.seats.filter((s) => s.bot).length ?? 0;
    await a.until(() => bots() === 1, 30_000, 'a bot beside Ann');
    // The persister stops for a while: every cash-out from here on stays unrecorded, and the seat
    // it leaves stays booked in the room rows.
    const persister = cluster.persister!.proc;
    persister.pause(true);
    try {
      // Bob sits: the bot makes way (seat 3, booked until its cash-out is recorded). Bob goes again
      // (seat 2, likewise). No seat is free for a bot, and no room event will come to say one is.
      const bob = await signUp();
      await lobby.joinByCode(bob, room.code);
      await a.until(
        () => bots() === 0 && a.state!.seats.some((s) => s.user_id === bob.userId),
        30_000,
        'Bob in the bot’s stead',
      );
      await lobby.leaveRoom(bob, room.sessionId);
      await a.until(() => !a.state!.seats.some((s) => s.user_id === bob.userId), 30_000, 'Bob gone');
      expect(bots()).toBe(0);
    } finally {
      persister.pause(false);
    }
    // The persister records both cash-outs; the table hears of it and funds a bot at a freed seat.
    await a.until(() => bots() === 1, 30_000, 'a bot again once the cash-outs are recorded');
    a.close();
    await lobby.leaveRoom(ann, room.sessionId);
    await allGone(room.sessionId);
    await expectCleanAudit([room.sessionId]);
  });

  it('an operator’s bot-only table (npm run bot-table): funded bots deal on their own, and go home when it is switched off', async () => {
    const host = await signUp();
    const room = await lobby.createRoom(host, { seats: 4 }, { seatHost: false });
    await makeBotOnlyTable(cluster, room.sessionId);
    await waitFor(
      'three persisted hands',
      async () => ((await prisma.room.findUnique({ where: { id: room.sessionId } }))?.lastHandNo ?? 0) >= 3,
      30_000,
      200,
    );
    // Every seat holds a funded bot. A bot that goes broke leaves (a cash-out of nothing) and a
    // fresh one is funded a moment later, so wait for the four rather than read one instant.
    await waitFor(
      'four funded bots seated',
      async () => (await botMemberships(room.sessionId)).filter((b) => b.status === 'active').length === 4,
      20_000,
      100,
    );
    const bots = await botMemberships(room.sessionId);
    expect(bots.length).toBeGreaterThanOrEqual(4);
    expect(bots.filter((b) => b.status === 'active').length).toBeLessThanOrEqual(4);
    await makeBotOnlyTable(cluster, room.sessionId, true);
    await allGone(room.sessionId);
    const cashOuts = await prisma.cashOut.findMany({ where: { roomId: room.sessionId } });
    expect(cashOuts.length).toBeGreaterThanOrEqual(4);
    expect(cashOuts.every((c) => c.reason === 'leave' && c.status === 'paid')).toBe(true);
    await expectCleanAudit([room.sessionId]);
  });
});
