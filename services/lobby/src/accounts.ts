import {
  accountBalance,
  grant,
  isUniqueViolation,
  openWallet,
  walletAccount,
  withTransaction,
  type PrismaClient,
} from '@felt/db';
import { SessionTokenError, signSessionToken, verifySessionToken, type SessionClaims } from '@felt/platform';
import { ApiErrorCode, LobbyError } from './errors.js';
import { DEFAULT_SCRYPT, dummyHash, hashPassword, verifyPassword, type ScryptParams } from './passwords.js';
import type { Clock, RevocationList } from './ports.js';

export interface AccountsOptions {
  readonly prisma: PrismaClient;
  readonly revocations: RevocationList;
  readonly clock: Clock;
  readonly sessionSecret: string;
  readonly sessionTtlSeconds: number;
  /** Chips granted at sign-up (FELT_SIGNUP_GRANT). */
  readonly signupGrant: bigint;
  readonly scrypt?: ScryptParams;
}

export interface AuthenticatedUser {
  readonly userId: string;
  readonly name: string;
  readonly sessionId: string;
  readonly expiresAt: Date;
}

export interface IssuedSession {
  readonly user: { readonly id: string; readonly name: string };
  readonly token: string;
  readonly expiresAt: Date;
  readonly wallet: bigint;
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
   * user id) in one database transaction, then a session.
   */
  async signUp(name: string, password: string): Promise<IssuedSession> {
    const passwordHash = await hashPassword(password, this.scrypt);
    let user: { id: string; name: string };
    try {
      user = await withTransaction(this.o.prisma, async (tx) => {
        const created = await tx.user.create({
          data: { name, nameKey: name.toLowerCase(), passwordHash },
          select: { id: true, name: true },
        });
        await openWallet(tx, created.id);
        if (this.o.signupGrant > 0n) {
          await grant(tx, {
            userId: created.id,
            amount: this.o.signupGrant,
            idempotencyKey: `signup-grant:${created.id}`,
            memo: { reason: 'signup' },
          });
        }
        return created;
      });
    } catch (err) {
      if (isUniqueViolation(err, 'users_name_key_key')) {
        throw new LobbyError(ApiErrorCode.NAME_TAKEN, 'that name is taken');
      }
      throw err;
    }
    return this.issue(user);
  }

  async logIn(name: string, password: string): Promise<IssuedSession> {
    const user = await this.o.prisma.user.findUnique({
      where: { nameKey: name.toLowerCase() },
      select: { id: true, name: true, passwordHash: true },
    });
    // Verify against a dummy hash when the name is unknown, so timing doesn't reveal which names exist.
    this.dummy ??= dummyHash(this.scrypt);
    const ok = await verifyPassword(password, user?.passwordHash ?? (await this.dummy));
    if (!user || !ok) throw new LobbyError(ApiErrorCode.INVALID_CREDENTIALS, 'wrong name or password');
    return this.issue({ id: user.id, name: user.name });
  }

  /** Revokes the session in Postgres and lists it in Redis for the gateways. */
  async logOut(auth: AuthenticatedUser): Promise<void> {
    await this.o.prisma.session.updateMany({
      where: { id: auth.sessionId, revokedAt: null },
      data: { revokedAt: this.o.clock.now() },
    });
    await this.o.revocations.revoke(auth.sessionId, auth.expiresAt);
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
      select: { userId: true, revokedAt: true, expiresAt: true, user: { select: { name: true } } },
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
      sessionId: claims.sessionId,
      expiresAt: session.expiresAt,
    };
  }

  wallet(userId: string): Promise<bigint> {
    return accountBalance(this.o.prisma, walletAccount(userId));
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
