/**
 * The lobby's abuse limits (docs/operations.md, "Security"). Each has an environment variable in
 * config.ts; tests pass their own.
 */
export interface LobbyLimits {
  /**
   * Addresses and CIDR ranges the per-address limits skip (FELT_RATE_LIMIT_EXEMPT). By default this
   * host only: `npm start`, the test clusters, `npm run demo` and `npm run chaos` sign up and seat
   * many players from 127.0.0.1. Behind a proxy on the same host, set FELT_TRUST_PROXY, or the
   * proxy's address would be every client's.
   */
  readonly exempt: readonly string[];
  /** Log-in attempts per user name per {@link WINDOWS}.login before the backoff (a success resets it). */
  readonly loginFailsPerName: number;
  /** Failed log-ins per client address per window (a success gives its attempt back). */
  readonly loginFailsPerAddress: number;
  /** Sign-ups per client address per {@link WINDOWS}.signup. */
  readonly signupsPerAddress: number;
  /** Joins by code that found no room the user could take, per user per {@link WINDOWS}.join. */
  readonly joinMissesPerUser: number;
  /** The same per client address. */
  readonly joinMissesPerAddress: number;
  /** The first block after a limit is exceeded; each further one within a day doubles it. */
  readonly backoffBaseSeconds: number;
  /** The longest block. */
  readonly backoffMaxSeconds: number;
  /** Password hashes (scrypt) at once, for sign-up and log-in together. */
  readonly hashConcurrency: number;
  /** Requests that may wait for a hash; past that, 503 busy with Retry-After at once. */
  readonly hashQueue: number;
  /** Sign-ups per client address per day that receive the sign-up grant; later ones get none. */
  readonly signupGrantsPerAddressPerDay: number;
  /** Open rooms one user may host at once. */
  readonly maxOpenRoomsPerUser: number;
  /** Waitlist joins and leaves per user per {@link WINDOWS}.waitlist (each tells everyone in the line). */
  readonly waitlistChangesPerUser: number;
  /** Tournament registrations and unregistrations per user per {@link WINDOWS}.tournament. */
  readonly tournamentChangesPerUser: number;
}

export const DEFAULT_LIMITS: LobbyLimits = {
  exempt: ['127.0.0.0/8', '::1/128'],
  loginFailsPerName: 5,
  loginFailsPerAddress: 20,
  signupsPerAddress: 10,
  joinMissesPerUser: 10,
  joinMissesPerAddress: 30,
  backoffBaseSeconds: 30,
  backoffMaxSeconds: 900,
  // scrypt runs on the libuv thread pool (four threads unless UV_THREADPOOL_SIZE says more), which
  // also verifies every session cookie (WebCrypto HMAC): hashing may take half of it, never all.
  hashConcurrency: 2,
  hashQueue: 32,
  signupGrantsPerAddressPerDay: 5,
  // Generous for a person hosting several tables; a bound for a script.
  maxOpenRoomsPerUser: 20,
  waitlistChangesPerUser: 30,
  tournamentChangesPerUser: 30,
};

/** The windows the limits count in, in seconds. */
export const WINDOWS = {
  login: 15 * 60,
  signup: 60 * 60,
  join: 10 * 60,
  waitlist: 60,
  tournament: 60,
  grants: 24 * 60 * 60,
  /** How long a key's past blocks count towards the next one's length. */
  strikes: 24 * 60 * 60,
} as const;
