import { RateLimitName, redisKeys, type Redis } from '@felt/platform';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { AddressPolicy } from './client-address.js';
import { ApiErrorCode, retryLater } from './errors.js';
import { WINDOWS, type LobbyLimits } from './limits.js';

/**
 * One counted attempt, taken before the work it guards. Settle it once the outcome is known.
 */
export interface Attempt {
  /** The attempt worked (a log-in with the right password, a join that seated the user). */
  succeeded(): Promise<void>;
  /** It did not (a wrong password, a code that found no room the user could take). */
  failed(): Promise<void>;
  /** It never ran (the server was busy): the attempt is given back. */
  cancelled(): Promise<void>;
}

/** What a limit does with a successful attempt. */
type OnSuccess =
  /** Forget the key's past (a right password clears its name's count and backoff). */
  | 'reset'
  /** Give the attempt back: only failures count. */
  | 'refund'
  /** Keep it: every attempt counts, and one after a block starts the next, longer one. */
  | 'count';

export interface BackoffPolicy {
  /** Attempts per window before the first block. */
  readonly points: number;
  readonly windowSeconds: number;
  readonly baseBlockSeconds: number;
  readonly maxBlockSeconds: number;
  readonly onSuccess: OnSuccess;
}

const nothing = (): Promise<void> => Promise.resolve();

const NO_ATTEMPT: Attempt = { succeeded: nothing, failed: nothing, cancelled: nothing };

/**
 * A limit with exponential backoff, kept in Redis (rate-limiter-flexible) so every lobby replica
 * shares it. A key gets `points` attempts per window; the attempt after them is refused and blocks
 * the key for `baseBlockSeconds`. Blocks are remembered for a day ("strikes"): once a key has been
 * blocked, every further failure blocks it again for twice as long as the last time, up to
 * `maxBlockSeconds`, so a guesser gets one try per block instead of a fresh allowance. When Redis
 * fails, an in-memory limiter of the same shape takes over on each replica.
 */
export class BackoffLimiter {
  private readonly counter: RateLimiterRedis;
  private readonly strikes: RateLimiterRedis;

  constructor(
    redis: Redis,
    /** rate-limiter-flexible's key prefixes of the counts and of the strikes (`redisKeys().rateLimit*`). */
    keyPrefixes: { readonly counter: string; readonly strikes: string },
    private readonly policy: BackoffPolicy,
  ) {
    const counter = { points: policy.points, duration: policy.windowSeconds };
    const strikes = { points: 1_000_000, duration: WINDOWS.strikes };
    this.counter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: keyPrefixes.counter,
      ...counter,
      insuranceLimiter: new RateLimiterMemory(counter),
    });
    this.strikes = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: keyPrefixes.strikes,
      ...strikes,
      insuranceLimiter: new RateLimiterMemory(strikes),
    });
  }

  /** Counts an attempt for `key`, or refuses it (rate_limited, with Retry-After) while over the limit. */
  async attempt(key: string, what: string): Promise<Attempt> {
    try {
      await this.counter.consume(key);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      // The attempt that first went over starts a block; later ones wait for it to end.
      const retryMs =
        err.consumedPoints === this.policy.points + 1 ? (await this.escalate(key)) * 1000 : err.msBeforeNext;
      throw retryLater(ApiErrorCode.RATE_LIMITED, `too many ${what}; try again later`, retryMs);
    }
    return {
      succeeded: async () => {
        if (this.policy.onSuccess === 'reset') await Promise.all([this.counter.delete(key), this.strikes.delete(key)]);
        else if (this.policy.onSuccess === 'refund') await this.counter.reward(key, 1);
        else await this.afterStrike(key);
      },
      failed: () => this.afterStrike(key),
      cancelled: async () => void (await this.counter.reward(key, 1)),
    };
  }

  /** Forgets the key (tests, and an operator unblocking someone). */
  async reset(key: string): Promise<void> {
    await Promise.all([this.counter.delete(key), this.strikes.delete(key)]);
  }

  /** A key blocked before (within a day) is blocked again at once, for longer. */
  private async afterStrike(key: string): Promise<void> {
    const struck = await this.strikes.get(key);
    if (struck && struck.consumedPoints > 0) await this.escalate(key);
  }

  /** Blocks the key for its next, doubled, block; returns its length in seconds. */
  private async escalate(key: string): Promise<number> {
    const strike = await this.strikes.penalty(key, 1);
    const n = Math.max(1, strike.consumedPoints);
    const seconds = Math.min(this.policy.maxBlockSeconds, this.policy.baseBlockSeconds * 2 ** Math.min(n - 1, 30));
    await this.counter.block(key, seconds);
    return seconds;
  }
}

/** Whether a sign-up gets the grant, and how to give the day's grant back if the account isn't made. */
export interface GrantDecision {
  readonly granted: boolean;
  giveBack(): Promise<void>;
}

/**
 * Every abuse limit of the lobby that Redis keeps (keys under `P rl:`): log-in by name and by
 * address, sign-up by address, joins by code by user and by address, and the daily grants per
 * address.
 */
export class Throttles {
  private readonly loginByName: BackoffLimiter;
  private readonly loginByAddress: BackoffLimiter;
  private readonly signupByAddress: BackoffLimiter;
  private readonly joinByUser: BackoffLimiter;
  private readonly joinByAddress: BackoffLimiter;
  private readonly waitlistByUser: BackoffLimiter;
  private readonly tournamentByUser: BackoffLimiter;
  private readonly grants: RateLimiterRedis | null;

  constructor(
    redis: Redis,
    prefix: string,
    limits: LobbyLimits,
    private readonly addresses: AddressPolicy,
  ) {
    const backoff = { baseBlockSeconds: limits.backoffBaseSeconds, maxBlockSeconds: limits.backoffMaxSeconds };
    const keys = redisKeys(prefix);
    const limiter = (name: RateLimitName, points: number, windowSeconds: number, onSuccess: OnSuccess) =>
      new BackoffLimiter(
        redis,
        { counter: keys.rateLimit(name), strikes: keys.rateLimitStrikes(name) },
        { points, windowSeconds, onSuccess, ...backoff },
      );
    this.loginByName = limiter(RateLimitName.LOGIN_NAME, limits.loginFailsPerName, WINDOWS.login, 'reset');
    this.loginByAddress = limiter(RateLimitName.LOGIN_ADDRESS, limits.loginFailsPerAddress, WINDOWS.login, 'refund');
    this.signupByAddress = limiter(RateLimitName.SIGNUP_ADDRESS, limits.signupsPerAddress, WINDOWS.signup, 'count');
    this.joinByUser = limiter(RateLimitName.JOIN_USER, limits.joinMissesPerUser, WINDOWS.join, 'refund');
    this.joinByAddress = limiter(RateLimitName.JOIN_ADDRESS, limits.joinMissesPerAddress, WINDOWS.join, 'refund');
    this.waitlistByUser = limiter(
      RateLimitName.WAITLIST_USER,
      limits.waitlistChangesPerUser,
      WINDOWS.waitlist,
      'count',
    );
    this.tournamentByUser = limiter(
      RateLimitName.TOURNAMENT_USER,
      limits.tournamentChangesPerUser,
      WINDOWS.tournament,
      'count',
    );
    const grants = { points: limits.signupGrantsPerAddressPerDay, duration: WINDOWS.grants };
    this.grants =
      limits.signupGrantsPerAddressPerDay > 0
        ? new RateLimiterRedis({
            storeClient: redis,
            keyPrefix: keys.rateLimit(RateLimitName.GRANTS_ADDRESS),
            ...grants,
            insuranceLimiter: new RateLimiterMemory(grants),
          })
        : null;
  }

  /** A log-in attempt for this name (lower-cased) from this address. */
  logIn(nameKey: string, address: string): Promise<Attempt> {
    return this.both(
      () => this.perAddress(this.loginByAddress, address, 'failed log-ins from your address'),
      () => this.loginByName.attempt(nameKey, 'failed log-ins for this name'),
    );
  }

  signUp(address: string): Promise<Attempt> {
    return this.perAddress(this.signupByAddress, address, 'sign-ups from your address');
  }

  /** A join by code: only joins that find no room the user can take count. */
  joinByCode(userId: string, address: string): Promise<Attempt> {
    return this.both(
      () => this.perAddress(this.joinByAddress, address, 'attempts to join by code'),
      () => this.joinByUser.attempt(userId, 'attempts to join by code'),
    );
  }

  /** A tournament registration or unregistration: every one counts (each moves money). */
  tournamentChange(userId: string): Promise<Attempt> {
    return this.tournamentByUser.attempt(userId, 'tournament registrations');
  }

  /** A waitlist join or leave: every one counts (each tells every player in the line). */
  waitlistChange(userId: string): Promise<Attempt> {
    return this.waitlistByUser.attempt(userId, 'waitlist changes');
  }

  /** Takes one of the address's sign-up grants for today, if any are left. */
  async takeGrant(address: string): Promise<GrantDecision> {
    if (this.addresses.isExempt(address)) return { granted: true, giveBack: nothing };
    if (!this.grants) return { granted: false, giveBack: nothing };
    const key = this.addresses.limitKey(address);
    try {
      await this.grants.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) return { granted: false, giveBack: nothing };
      throw err;
    }
    const grants = this.grants;
    return { granted: true, giveBack: async () => void (await grants.reward(key, 1)) };
  }

  private perAddress(limiter: BackoffLimiter, address: string, what: string): Promise<Attempt> {
    if (this.addresses.isExempt(address)) return Promise.resolve(NO_ATTEMPT);
    return limiter.attempt(this.addresses.limitKey(address), what);
  }

  private async both(first: () => Promise<Attempt>, second: () => Promise<Attempt>): Promise<Attempt> {
    const a = await first();
    // Refused on the second key: the first still counts (hammering a blocked name uses up the address).
    const b = await second();
    return {
      succeeded: async () => void (await Promise.all([a.succeeded(), b.succeeded()])),
      failed: async () => void (await Promise.all([a.failed(), b.failed()])),
      cancelled: async () => void (await Promise.all([a.cancelled(), b.cancelled()])),
    };
  }
}
