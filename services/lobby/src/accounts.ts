import {
  accountBalance,
  grant,
  isUniqueViolation,
  openWallet,
  practiceWalletAccount,
  walletAccount,
  withTransaction,
  type PrismaClient,
} from '@felt/db';
import { SessionTokenError, signSessionToken, verifySessionToken, type SessionClaims } from '@felt/platform';
import { localeSchema, type Locale } from '@felt/protocol';
import { ApiErrorCode, LobbyError } from './errors.js';
import type { HashQueue } from './hash-queue.js';
import { DEFAULT_SCRYPT, dummyHash, hashPassword, verifyPassword, type ScryptParams } from './passwords.js';
import type { Clock, RevocationList } from './ports.js';
import type { Attempt, GrantDecision } from './throttle.js';

/** The limits sign-up and log-in answer to (Throttles, in Redis). */
export interface AuthGuard {
  /** Counts a log-in for this name (lower-cased) from this address; refuses with rate_limited when over. */
  logIn(nameKey: string, address: string): Promise<Attempt>;
  /** Counts a sign-up from this address; refuses with rate_limited when over. */
  signUp(address: string): Promise<Attempt>;
  /** One of the address's sign-up grants for today, if any are left. */
  takeGrant(address: string): Promise<GrantDecision>;
}

export interface AccountsOptions {
  readonly prisma: PrismaClient;
  readonly revocations: RevocationList;
  readonly clock: Clock;
  readonly sessionSecret: string;
  readonly sessionTtlSeconds: number;
  /** Chips granted at sign-up (FELT_SIGNUP_GRANT). */
  readonly signupGrant: bigint;
  readonly guard: AuthGuard;
  /** Every password hash and check goes through it. */
  readonly hashes: HashQueue;
  readonly scrypt?: ScryptParams;
}

/** Why a sign-up got no grant although grants are on. */
export const GrantWithheld = { ADDRESS_DAILY_CAP: 'address_daily_cap' } as const;
export type GrantWithheld = (typeof GrantWithheld)[keyof typeof GrantWithheld];

export interface AuthenticatedUser {
  readonly userId: string;
  readonly name: string;
  /** The account's language for the web client (read with the session, no extra query). */
  readonly locale: Locale | null;
  readonly sessionId: string;
  readonly expiresAt: Date;
}

export interface IssuedSession {
  readonly user: { readonly id: string; readonly name: string };
  readonly token: string;
  readonly expiresAt: Date;
  readonly wallet: bigint;
}

export interface SignedUp extends IssuedSession {
  /** Chips granted: FELT_SIGNUP_GRANT, or 0. */
  readonly grant: bigint;
  /** Set when grants are on but this sign-up got none. */
  readonly grantWithheld: GrantWithheld | null;
}

/** Accounts and sessions: sign-up (with the grant), login, logout, and cookie authentication. */
export class Accounts {
  private readonly scrypt: ScryptParams;
  private dummy: Promise<string> | undefined;

  constructor(private readonly o: AccountsOptions) {
    this.scrypt = o.scrypt ?? DEFAULT_SCRYPT;
  }

  /**
   * Creates the user, their wallet and the sign-up grant (one double-entry transaction keyed by the
   * user id) in one database transaction, then a session. Past the address's grants for the day the
   * account is still made, with no grant and no ledger transaction.
   */
  async signUp(name: string, password: string, address: string): Promise<SignedUp> {
    const attempt = await this.o.guard.signUp(address);
    let passwordHash: string;
    try {
      passwordHash = await this.o.hashes.run(() => hashPassword(password, this.scrypt));
    } catch (err) {
      await attempt.cancelled();
      throw err;
    }
    const decision: GrantDecision =
      this.o.signupGrant > 0n
        ? await this.o.guard.takeGrant(address)
        : { granted: false, giveBack: () => Promise.resolve() };
    const amount = decision.granted ? this.o.signupGrant : 0n;
    let user: { id: string; name: string };
    try {
      user = await withTransaction(this.o.prisma, async (tx) => {
        const created = await tx.user.create({
          data: { name, nameKey: name.toLowerCase(), passwordHash },
          select: { id: true, name: true },
        });
        await openWallet(tx, created.id);
        if (amount > 0n) {
          await grant(tx, {
            userId: created.id,
            amount,
            idempotencyKey: `signup-grant:${created.id}`,
            memo: { reason: 'signup' },
          });
        }
        return created;
      });
    } catch (err) {
      await Promise.all([decision.giveBack(), attempt.failed()]);
      if (isUniqueViolation(err, 'users_name_key_key')) {
        throw new LobbyError(ApiErrorCode.NAME_TAKEN, 'that name is taken');
      }
      throw err;
    }
    await attempt.succeeded();
    const withheld = this.o.signupGrant > 0n && !decision.granted ? GrantWithheld.ADDRESS_DAILY_CAP : null;
    return { ...(await this.issue(user)), grant: amount, grantWithheld: withheld };
  }

  async logIn(name: string, password: string, address: string): Promise<IssuedSession> {
    const nameKey = name.toLowerCase();
    // Counted before the hash, so that parallel guesses can't all slip in under the limit.
    const attempt = await this.o.guard.logIn(nameKey, address);
    let user: { id: string; name: string; passwordHash: string } | null;
    let ok: boolean;
    try {
      user = await this.o.prisma.user.findUnique({
        where: { nameKey },
        select: { id: true, name: true, passwordHash: true },
      });
      // Verify against a dummy hash when the name is unknown, so timing doesn't reveal which names exist.
      const stored = user?.passwordHash ?? (await (this.dummy ??= this.o.hashes.run(() => dummyHash(this.scrypt))));
      ok = await this.o.hashes.run(() => verifyPassword(password, stored));
    } catch (err) {
      // The dummy's promise failed (busy): let the next log-in make it.
      this.dummy = undefined;
      await attempt.cancelled();
      throw err;
    }
    if (!user || !ok) {
      await attempt.failed();
      throw new LobbyError(ApiErrorCode.INVALID_CREDENTIALS, 'wrong name or password');
    }
    await attempt.succeeded();
    return this.issue({ id: user.id, name: user.name });
  }

  /** Revokes the session in Postgres (the truth) and lists it in Redis for the gateways. */
  async logOut(auth: AuthenticatedUser): Promise<void> {
    await this.o.prisma.session.updateMany({
      where: { id: auth.sessionId, revokedAt: null },
      data: { revokedAt: this.o.clock.now() },
    });
    await this.o.revocations.revoke(auth.sessionId, auth.expiresAt);
  }

  /**
   * Log out everywhere: revokes every live session of the user in Postgres, then lists each in
   * Redis, where the gateways find them at their next session check and close those sockets.
   * Returns how many sessions it revoked.
   */
  async logOutAll(userId: string): Promise<number> {
    const now = this.o.clock.now();
    const revoked = await this.o.prisma.session.updateManyAndReturn({
      where: { userId, revokedAt: null, expiresAt: { gt: now } },
      data: { revokedAt: now },
      select: { id: true, expiresAt: true },
    });
    await Promise.all(revoked.map((s) => this.o.revocations.revoke(s.id, s.expiresAt)));
    return revoked.length;
  }

  /**
   * The user behind a session cookie, or an `unauthenticated` refusal: bad signature, expired,
   * revoked (Redis list or the sessions row) or unknown session.
   */
  async authenticate(token: string | undefined): Promise<AuthenticatedUser> {
    if (!token) throw new LobbyError(ApiErrorCode.UNAUTHENTICATED, 'sign in first');
    let claims: SessionClaims;
    try {
      claims = await verifySessionToken(this.o.sessionSecret, token);
    } catch (err) {
      if (err instanceof SessionTokenError) {
        throw new LobbyError(ApiErrorCode.UNAUTHENTICATED, 'the session is invalid or expired; sign in again');
      }
      throw err;
    }
    if (await this.o.revocations.isRevoked(claims.sessionId)) {
      throw new LobbyError(ApiErrorCode.UNAUTHENTICATED, 'the session was signed out; sign in again');
    }
    const session = await this.o.prisma.session.findUnique({
      where: { id: claims.sessionId },
      select: { userId: true, revokedAt: true, expiresAt: true, user: { select: { name: true, locale: true } } },
    });
    if (
      !session ||
      session.userId !== claims.userId ||
      session.revokedAt !== null ||
      session.expiresAt <= this.o.clock.now()
    ) {
      throw new LobbyError(ApiErrorCode.UNAUTHENTICATED, 'the session was signed out; sign in again');
    }
    return {
      userId: claims.userId,
      name: session.user.name,
      locale: parseStoredLocale(session.user.locale),
      sessionId: claims.sessionId,
      expiresAt: session.expiresAt,
    };
  }

  wallet(userId: string): Promise<bigint> {
    return accountBalance(this.o.prisma, walletAccount(userId));
  }

  /** The practice wallet (docs/dev/money-flows.md, "Practice chips"): 0 until the first practice seat. */
  practiceWallet(userId: string): Promise<bigint> {
    return accountBalance(this.o.prisma, practiceWalletAccount(userId));
  }

  /** Keeps the account's language (null forgets it). The value is checked at the HTTP edge. */
  async setLocale(userId: string, locale: Locale | null): Promise<void> {
    await this.o.prisma.user.update({ where: { id: userId }, data: { locale }, select: { id: true } });
  }

  private async issue(user: { id: string; name: string }): Promise<IssuedSession> {
    const now = this.o.clock.now();
    // Whole seconds: the token's exp claim is in seconds, and the row must agree with it.
    const expiresAt = new Date((Math.floor(now.getTime() / 1000) + this.o.sessionTtlSeconds) * 1000);
    const session = await this.o.prisma.session.create({
      data: { userId: user.id, createdAt: now, expiresAt },
      select: { id: true },
    });
    const token = await signSessionToken(this.o.sessionSecret, {
      userId: user.id,
      sessionId: session.id,
      name: user.name,
      expiresAt: Math.floor(expiresAt.getTime() / 1000),
    });
    return { user, token, expiresAt, wallet: await this.wallet(user.id) };
  }
}

/** A stored language the contract no longer lists (a language withdrawn) reads as no choice. */
function parseStoredLocale(value: string | null): Locale | null {
  const parsed = localeSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
