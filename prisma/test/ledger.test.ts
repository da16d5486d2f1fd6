import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountBalance,
  createTestDatabase,
  escrowAccount,
  HOUSE_RAKE,
  IdempotencyConflictError,
  InsufficientFundsError,
  Ledger,
  LedgerInvalidError,
  LedgerUnbalancedError,
  ledgerTotals,
  roomEscrows,
  walletAccount,
  type AccountRef,
  type TestDatabase,
} from '@felt/db';

let db: TestDatabase;
let ledger: Ledger;
let hostId: string;
let seq = 0;

async function newUser(): Promise<string> {
  const name = `u${++seq}_${Math.random().toString(36).slice(2, 8)}`;
  const u = await db.prisma.user.create({ data: { name, nameKey: name, passwordHash: 'x' } });
  return u.id;
}

async function newRoom(): Promise<string> {
  const code = String(100000 + (++seq % 900000)).padStart(6, '0');
  const room = await db.prisma.room.create({ data: { code, config: {}, isPublic: false, hostId } });
  return room.id;
}

beforeAll(async () => {
  db = await createTestDatabase();
  ledger = new Ledger(db.prisma);
  hostId = await newUser();
});

afterAll(async () => {
  await db.drop();
});

describe('ledger operations', () => {
  it('grants chips from the grant source and replays an idempotency key as a no-op returning the original', async () => {
    const user = await newUser();
    const first = await ledger.grant({ userId: user, amount: 500n, idempotencyKey: `g:${user}` });
    expect(first.replayed).toBe(false);
    expect(first.kind).toBe('grant');
    expect(first.entries).toEqual([
      { accountKey: 'grant_source', amount: -500n },
      { accountKey: `wallet:${user}`, amount: 500n },
    ]);
    const again = await ledger.grant({ userId: user, amount: 500n, idempotencyKey: `g:${user}` });
    expect(again.replayed).toBe(true);
    expect(again.id).toBe(first.id);
    expect(await ledger.balance(walletAccount(user))).toBe(500n);
    expect(await db.prisma.wallet.count({ where: { userId: user } })).toBe(1);
  });

  it('refuses to reuse an idempotency key for different content', async () => {
    const user = await newUser();
    await ledger.grant({ userId: user, amount: 5n, idempotencyKey: `g2:${user}` });
    await expect(ledger.grant({ userId: user, amount: 6n, idempotencyKey: `g2:${user}` })).rejects.toBeInstanceOf(
      IdempotencyConflictError,
    );
    expect(await ledger.balance(walletAccount(user))).toBe(5n);
  });

  it('moves a buy-in from wallet to escrow and cashes the whole escrow out', async () => {
    const user = await newUser();
    const room = await newRoom();
    await ledger.grant({ userId: user, amount: 1000n, idempotencyKey: `g:${user}` });
    const buy = await ledger.buyIn({ userId: user, roomId: room, amount: 300n, idempotencyKey: `b:${user}` });
    expect(buy.roomId).toBe(room);
    expect(await ledger.balance(walletAccount(user))).toBe(700n);
    expect(await ledger.balance(escrowAccount(room, user))).toBe(300n);
    expect(await roomEscrows(db.prisma, room)).toEqual(new Map([[user, 300n]]));

    const out = await ledger.cashOut({ userId: user, roomId: room, idempotencyKey: `c:${user}` });
    expect(out?.entries).toEqual([
      { accountKey: `escrow:${room}:${user}`, amount: -300n },
      { accountKey: `wallet:${user}`, amount: 300n },
    ]);
    expect(await ledger.balance(walletAccount(user))).toBe(1000n);
    // A replay returns the original even though the escrow is empty now.
    expect((await ledger.cashOut({ userId: user, roomId: room, idempotencyKey: `c:${user}` }))?.replayed).toBe(true);
    // Nothing left to cash out under a new key.
    expect(await ledger.cashOut({ userId: user, roomId: room, idempotencyKey: `c2:${user}` })).toBeNull();
  });

  it('refuses a buy-in larger than the wallet with a typed error and writes nothing', async () => {
    const user = await newUser();
    const room = await newRoom();
    await ledger.grant({ userId: user, amount: 100n, idempotencyKey: `g:${user}` });
    const before = await ledgerTotals(db.prisma);
    const err = await ledger
      .buyIn({ userId: user, roomId: room, amount: 101n, idempotencyKey: `b:${user}` })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientFundsError);
    expect(err).toMatchObject({ code: 'insufficient_funds', balance: 100n, requested: 101n });
    expect(await ledgerTotals(db.prisma)).toEqual(before);
    expect(await db.prisma.ledgerTransaction.count({ where: { idempotencyKey: `b:${user}` } })).toBe(0);
  });

  it('refuses unbalanced, one-sided and non-integer requests before touching the database', async () => {
    const user = await newUser();
    await expect(
      ledger.post({
        idempotencyKey: 'x1',
        kind: 'hand_result',
        postings: [
          { account: walletAccount(user), amount: 5n },
          { account: HOUSE_RAKE, amount: -4n },
        ],
      }),
    ).rejects.toBeInstanceOf(LedgerUnbalancedError);
    await expect(
      ledger.post({
        idempotencyKey: 'x2',
        kind: 'hand_result',
        postings: [
          { account: walletAccount(user), amount: 5n },
          { account: walletAccount(user), amount: -5n },
        ],
      }),
    ).rejects.toBeInstanceOf(LedgerInvalidError);
    await expect(
      ledger.grant({ userId: user, amount: 2.5 as unknown as bigint, idempotencyKey: 'x3' }),
    ).rejects.toBeInstanceOf(LedgerInvalidError);
    await expect(ledger.grant({ userId: user, amount: 0n, idempotencyKey: 'x4' })).rejects.toBeInstanceOf(
      LedgerInvalidError,
    );
  });

  it('posts one transaction when the same key races in from many callers', async () => {
    const user = await newUser();
    const results = await Promise.all(
      Array.from({ length: 12 }, () => ledger.grant({ userId: user, amount: 77n, idempotencyKey: `race:${user}` })),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await ledger.balance(walletAccount(user))).toBe(77n);
  });

  it('never overdraws a wallet under concurrent buy-ins', async () => {
    const user = await newUser();
    const room = await newRoom();
    await ledger.grant({ userId: user, amount: 1000n, idempotencyKey: `g:${user}` });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        ledger.buyIn({ userId: user, roomId: room, amount: 150n, idempotencyKey: `cb:${user}:${i}` }),
      ),
    );
    const ok = outcomes.filter((o) => o.status === 'fulfilled').length;
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(ok).toBe(6);
    for (const r of refused) expect(r.reason).toBeInstanceOf(InsufficientFundsError);
    expect(await ledger.balance(walletAccount(user))).toBe(100n);
    expect(await ledger.balance(escrowAccount(room, user))).toBe(900n);
  });
});

type Op =
  | { t: 'grant'; user: number; amount: number }
  | { t: 'buyIn'; user: number; room: number; amount: number }
  | { t: 'cashOut'; user: number; room: number; amount: number | null }
  | { t: 'handResult'; room: number; from: number; to: number; amount: number; rake: number };

describe('ledger properties against the real database', () => {
  it('conserves chips and never lets a wallet, escrow or rake go negative, whatever the sequence', async () => {
    const USERS = 4;
    const ROOMS = 2;
    const amount = fc.integer({ min: 1, max: 400 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ t: fc.constant('grant' as const), user: fc.nat(USERS - 1), amount }),
      fc.record({ t: fc.constant('buyIn' as const), user: fc.nat(USERS - 1), room: fc.nat(ROOMS - 1), amount }),
      fc.record({
        t: fc.constant('cashOut' as const),
        user: fc.nat(USERS - 1),
        room: fc.nat(ROOMS - 1),
        amount: fc.option(amount, { nil: null }),
      }),
      fc.record({
        t: fc.constant('handResult' as const),
        room: fc.nat(ROOMS - 1),
        from: fc.nat(USERS - 1),
        to: fc.nat(USERS - 1),
        amount,
        rake: fc.integer({ min: 0, max: 5 }),
      }),
    );

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 25 }), fc.boolean(), async (ops, concurrent) => {
        const users = await Promise.all(Array.from({ length: USERS }, () => newUser()));
        const rooms = await Promise.all(Array.from({ length: ROOMS }, () => newRoom()));
        const before = await ledgerTotals(db.prisma);
        let n = 0;
        const run = async (o: Op): Promise<void> => {
          const key = `p:${users[0]}:${++n}`;
          try {
            switch (o.t) {
              case 'grant':
                await ledger.grant({ userId: users[o.user]!, amount: BigInt(o.amount), idempotencyKey: key });
                break;
              case 'buyIn':
                await ledger.buyIn({
                  userId: users[o.user]!,
                  roomId: rooms[o.room]!,
                  amount: BigInt(o.amount),
                  idempotencyKey: key,
                });
                break;
              case 'cashOut':
                await ledger.cashOut({
                  userId: users[o.user]!,
                  roomId: rooms[o.room]!,
                  idempotencyKey: key,
                  ...(o.amount === null ? {} : { amount: BigInt(o.amount) }),
                });
                break;
              case 'handResult': {
                const room = rooms[o.room]!;
                const from: AccountRef = escrowAccount(room, users[o.from]!);
                const to: AccountRef = escrowAccount(room, users[o.to]!);
                const rake = BigInt(Math.min(o.rake, o.amount));
                await ledger.post({
                  idempotencyKey: key,
                  kind: 'hand_result',
                  roomId: room,
                  handId: key,
                  postings: [
                    { account: from, amount: -BigInt(o.amount) },
                    { account: to, amount: BigInt(o.amount) - rake },
                    ...(rake > 0n ? [{ account: HOUSE_RAKE, amount: rake }] : []),
                  ],
                });
                break;
              }
            }
          } catch (err) {
            // Refusals are expected (overdrafts, a transfer to oneself); anything else is a bug.
            if (!(err instanceof InsufficientFundsError) && !(err instanceof LedgerInvalidError)) throw err;
          }
        };
        // A model of what each account should hold, for the sequential runs: every accepted op
        // applied exactly, every refused one not at all.
        const model = new Map<string, bigint>();
        const get = (k: string): bigint => model.get(k) ?? 0n;
        const modelApply = (o: Op): void => {
          const w = (u: number): string => `w${u}`;
          const e = (r: number, u: number): string => `e${r}:${u}`;
          switch (o.t) {
            case 'grant':
              model.set(w(o.user), get(w(o.user)) + BigInt(o.amount));
              return;
            case 'buyIn':
              if (get(w(o.user)) < BigInt(o.amount)) return;
              model.set(w(o.user), get(w(o.user)) - BigInt(o.amount));
              model.set(e(o.room, o.user), get(e(o.room, o.user)) + BigInt(o.amount));
              return;
            case 'cashOut': {
              const amt = o.amount === null ? get(e(o.room, o.user)) : BigInt(o.amount);
              if (amt === 0n || get(e(o.room, o.user)) < amt) return;
              model.set(e(o.room, o.user), get(e(o.room, o.user)) - amt);
              model.set(w(o.user), get(w(o.user)) + amt);
              return;
            }
            case 'handResult': {
              if (o.from === o.to || get(e(o.room, o.from)) < BigInt(o.amount)) return;
              const rake = BigInt(Math.min(o.rake, o.amount));
              model.set(e(o.room, o.from), get(e(o.room, o.from)) - BigInt(o.amount));
              model.set(e(o.room, o.to), get(e(o.room, o.to)) + BigInt(o.amount) - rake);
              model.set('rake', get('rake') + rake);
              return;
            }
          }
        };
        if (concurrent) await Promise.all(ops.map(run));
        else
          for (const o of ops) {
            await run(o);
            modelApply(o);
          }
        if (!concurrent) {
          for (const [u, user] of users.entries()) {
            expect(await accountBalance(db.prisma, walletAccount(user))).toBe(get(`w${u}`));
            for (const [r, room] of rooms.entries()) {
              expect(await accountBalance(db.prisma, escrowAccount(room, user))).toBe(get(`e${r}:${u}`));
            }
          }
        }

        const totals = await ledgerTotals(db.prisma);
        expect(totals.unbalancedTransactions).toBe(0);
        expect(totals.driftedAccounts).toBe(0);
        expect(totals.negativeAccounts).toBe(0);
        expect(totals.wallets + totals.escrow + totals.rake).toBe(totals.granted);
        const grantedNow = totals.granted - before.granted;
        let held = 0n;
        for (const u of users) {
          held += await accountBalance(db.prisma, walletAccount(u));
          for (const r of rooms) held += await accountBalance(db.prisma, escrowAccount(r, u));
        }
        const rakeNow = totals.rake - before.rake;
        expect(held + rakeNow).toBe(grantedNow);
        if (!concurrent) expect(rakeNow).toBe(get('rake'));
      }),
      { numRuns: 12, seed: 20261129, endOnFailure: true },
    );
  });
});
