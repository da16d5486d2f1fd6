import { parseArgs } from 'node:util';
import {
  AccountSchemeError,
  DEFAULT_ACCOUNT_PREFIX,
  DEFAULT_PASSWORD_SCHEME,
  PASSWORD_SCHEME_ENV,
  checkAccounts,
} from './accounts.js';
import { ArgsError, intOption, urlOption } from './args.js';

/** Think time before each decision: uniform in [minMs, maxMs]; 0..0 is flat out. */
export interface ThinkRange {
  readonly minMs: number;
  readonly maxMs: number;
}

/** Where the players' accounts come from. */
export type AccountSource =
  | {
      /** Existing accounts (`npm run accounts -- --create N --prefix P`): `<prefix><n>`, logged in. */
      readonly kind: 'login';
      readonly prefix: string;
      /** The number of the first account (several generators can take disjoint ranges). */
      readonly first: number;
      /** At most this many logins at once: each one is a password hash at the lobby. */
      readonly concurrency: number;
    }
  | {
      /** New accounts `<prefix><run>-<n>`, signed up through the lobby at `perSecond`. */
      readonly kind: 'signup';
      readonly prefix: string;
      readonly perSecond: number;
    };

/** One play run, fully resolved: every default applied and every value checked. */
export interface PlayConfig {
  readonly lobby: URL;
  readonly tables: number;
  /** Players per table; each plays its own seat over its own WebSocket. */
  readonly playersPerTable: number;
  /** Seconds of measured play once every table is seated. */
  readonly durationS: number;
  readonly think: ThinkRange;
  readonly accounts: AccountSource;
  /** Password template (accounts.ts): `{name}` and `{n}` are replaced. */
  readonly passwordScheme: string;
  /** Gateway WebSocket URLs; empty means "use the ones the lobby hands out". */
  readonly gateways: readonly string[];
  /** Origin header sent on upgrade; the gateway checks it against its allowlist. */
  readonly origin: string;
  /** Milliseconds a lobby request, a join or an action's ack may take before it counts as an error. */
  readonly timeoutMs: number;
  /** Seed of the bots' decisions and think times. */
  readonly seed: number;
}

export const DEFAULT_LOBBY = 'http://127.0.0.1:8080';

export const PLAY_USAGE = `usage: npm run load -- --play [options]

Seats bots (the @felt/client SDK) that play real hands through the gateways, then prints one line:
LOAD tables=… players=… hands=… actions=… hands_per_s=… ack_p50_ms=… ack_p99_ms=… broadcast_p50_ms=… broadcast_p99_ms=… errors=…

  --tables N              tables (default 2)
  --players K             players per table, 2..10 (default 3)
  --duration S            seconds of measured play once every table is seated (default 30)
  --think MIN-MAX|S|0     seconds each bot thinks before acting, uniform in MIN..MAX (default 1-3); 0: flat out
  --lobby URL             lobby base URL (default ${DEFAULT_LOBBY})
  --gateway URL           gateway WebSocket URL; repeat, or --gateways URL,URL (default: the lobby's list)
  --origin URL            Origin header on upgrade (default: the lobby's origin)
  --accounts-prefix P     log in as P1 … P(tables×players), made by \`npm run accounts\` (default ${DEFAULT_ACCOUNT_PREFIX})
  --first-account N       number of the first account (default 1)
  --password-scheme T     password template, {name} and {n} replaced (default: $${PASSWORD_SCHEME_ENV}, else ${DEFAULT_PASSWORD_SCHEME})
  --login-concurrency N   logins at once (default 2, a lobby's FELT_HASH_CONCURRENCY: each is a password hash there)
  --signup-rate R         sign up new accounts (<prefix><run>-<n>) at R per second instead of logging in
  --timeout MS            per lobby request, join and action ack (default 10000)
  --seed N                seed of the bots' decisions (default: random)
  --help                  print this and exit`;

/** Seconds with up to three decimals, as whole milliseconds. */
function secondsToMs(name: string, raw: string): number {
  if (!/^\d+(\.\d{1,3})?$/.test(raw)) throw new ArgsError(name, `expected seconds such as 2 or 0.5, got "${raw}"`);
  return Math.round(Number(raw) * 1000);
}

/** `1-3` (seconds, uniform), `2` (always 2 s) or `0` (flat out). */
export function parseThink(raw: string): ThinkRange {
  const [lo, hi, ...rest] = raw.trim().split('-');
  if (lo === undefined || rest.length > 0) throw new ArgsError('think', `expected MIN-MAX, S or 0, got "${raw}"`);
  const minMs = secondsToMs('think', lo);
  const maxMs = hi === undefined ? minMs : secondsToMs('think', hi);
  if (maxMs < minMs) throw new ArgsError('think', `MAX must not be below MIN, got "${raw}"`);
  if (maxMs > 600_000) throw new ArgsError('think', `at most 600 seconds, got "${raw}"`);
  return { minMs, maxMs };
}

function rateOption(raw: string): number {
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !(Number(raw) > 0) || Number(raw) > 10_000) {
    throw new ArgsError('signup-rate', `expected sign-ups per second above 0 and at most 10000, got "${raw}"`);
  }
  return Number(raw);
}

/**
 * Parses the play runner's command line (`--play` itself included). Returns 'help' for --help; throws
 * {@link ArgsError} naming the option at fault for anything else that is wrong, before any request.
 * `env` supplies the password template when --password-scheme is absent.
 */
export function parsePlayArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
  randomSeed: () => number = () => Math.floor(Math.random() * 2 ** 31),
): PlayConfig | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        play: { type: 'boolean' },
        lobby: { type: 'string' },
        tables: { type: 'string' },
        players: { type: 'string' },
        duration: { type: 'string' },
        think: { type: 'string' },
        gateway: { type: 'string', multiple: true },
        gateways: { type: 'string', multiple: true },
        origin: { type: 'string' },
        'accounts-prefix': { type: 'string' },
        'first-account': { type: 'string' },
        'password-scheme': { type: 'string' },
        'login-concurrency': { type: 'string' },
        'signup-rate': { type: 'string' },
        timeout: { type: 'string' },
        seed: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    throw new ArgsError('(args)', (err as Error).message, { cause: err });
  }
  if (values.help === true) return 'help';

  const lobby = urlOption('lobby', values.lobby ?? DEFAULT_LOBBY, ['http:', 'https:']);
  const tables = intOption('tables', values.tables, 2, 1, 10_000);
  const playersPerTable = intOption('players', values.players, 3, 2, 10);
  const durationS = intOption('duration', values.duration, 30, 1, 86_400);
  const think = values.think === undefined ? { minMs: 1000, maxMs: 3000 } : parseThink(values.think);
  const gateways = [...(values.gateway ?? []), ...(values.gateways ?? []).flatMap((g) => g.split(','))]
    .map((g) => g.trim())
    .filter((g) => g !== '')
    .map((g) => urlOption('gateway', g, ['ws:', 'wss:']).toString());
  const origin =
    values.origin === undefined ? lobby.origin : urlOption('origin', values.origin, ['http:', 'https:']).origin;
  const timeoutMs = intOption('timeout', values.timeout, 10_000, 1, 600_000);
  const seed = intOption('seed', values.seed, randomSeed(), 0, 2 ** 31 - 1);
  const passwordScheme = values['password-scheme'] ?? env[PASSWORD_SCHEME_ENV] ?? DEFAULT_PASSWORD_SCHEME;
  const prefix = values['accounts-prefix'] ?? DEFAULT_ACCOUNT_PREFIX;
  const players = tables * playersPerTable;

  let accounts: AccountSource;
  if (values['signup-rate'] !== undefined) {
    if (values['first-account'] !== undefined)
      throw new ArgsError('first-account', 'goes with logins, not --signup-rate');
    if (values['login-concurrency'] !== undefined) {
      throw new ArgsError('login-concurrency', 'goes with logins, not --signup-rate');
    }
    accounts = { kind: 'signup', prefix, perSecond: rateOption(values['signup-rate']) };
  } else {
    const first = intOption('first-account', values['first-account'], 1, 1, 10_000_000);
    const concurrency = intOption('login-concurrency', values['login-concurrency'], 2, 1, 256);
    accounts = { kind: 'login', prefix, first, concurrency };
  }
  try {
    // Sign-ups add `<run>-` (7 characters) to the prefix; check the longest names either way.
    const namePrefix = accounts.kind === 'signup' ? `${prefix}000000-` : prefix;
    const first = accounts.kind === 'login' ? accounts.first : 1;
    checkAccounts(namePrefix, passwordScheme, first, first + players - 1);
  } catch (err) {
    if (err instanceof AccountSchemeError) {
      throw new ArgsError(err.subject === 'prefix' ? 'accounts-prefix' : 'password-scheme', err.message, {
        cause: err,
      });
    }
    throw err;
  }

  return {
    lobby,
    tables,
    playersPerTable,
    durationS,
    think,
    accounts,
    passwordScheme,
    gateways,
    origin,
    timeoutMs,
    seed,
  };
}
