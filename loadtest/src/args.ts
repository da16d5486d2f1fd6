import { parseArgs } from 'node:util';

export const ArgsErrorCode = { BAD_ARGS: 'bad_args' } as const;
export type ArgsErrorCode = (typeof ArgsErrorCode)[keyof typeof ArgsErrorCode];

export class ArgsError extends Error {
  override readonly name = 'ArgsError';
  readonly code = ArgsErrorCode.BAD_ARGS;
  constructor(
    /** The option at fault, without dashes, or '(args)' for a problem with the argument list itself. */
    readonly option: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(option === '(args)' ? message : `--${option}: ${message}`, options);
  }
}

/** One load run, fully resolved: every default applied and every value checked. */
export interface LoadConfig {
  /** Lobby base URL (http or https), e.g. http://127.0.0.1:8080. */
  readonly lobby: URL;
  /** Virtual users; each signs up, logs in, joins a room and holds one WebSocket. */
  readonly users: number;
  /** Seconds of steady pinging after the last user has ramped up. */
  readonly durationS: number;
  /** Seconds over which users start, evenly spaced, so the lobby is not hit all at once. */
  readonly rampUpS: number;
  /** Players per room: the first creates it, the others join by code. */
  readonly roomSize: number;
  /** Milliseconds between a pong and the next ping on one socket. */
  readonly pingIntervalMs: number;
  /** Milliseconds a request (HTTP or ping) may take before it counts as an error. */
  readonly timeoutMs: number;
  /** Gateway WebSocket URLs; empty means "use the ones the lobby hands out". */
  readonly gateways: readonly string[];
  /** Origin header sent on upgrade; the gateway checks it against its allowlist. */
  readonly origin: string;
}

export const USAGE = `usage: npm run load -- --lobby URL [options]        (ping: sessions that join and ping)
       npm run load -- --play [options]             (play: bots play hands; --play --help for its options)

  --lobby URL           lobby base URL (required), e.g. http://127.0.0.1:8080
  --users N             virtual users (default 10)
  --duration S          seconds of steady load after ramp-up (default 30)
  --ramp-up S           seconds over which users start (default: min(10, duration))
  --room-size K         players per room, 2..10 (default 2)
  --ping-interval MS    pause between a pong and the next ping (default 1000)
  --timeout MS          per request and per ping (default 10000)
  --gateway URL         gateway WebSocket URL; repeat for several (default: the lobby's list)
  --origin URL          Origin header on upgrade (default: the lobby's origin)
  --help                print this and exit`;

export function intOption(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ArgsError(name, `expected a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ArgsError(name, `expected ${min}..${max}, got ${n}`);
  return n;
}

export function urlOption(name: string, raw: string, schemes: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (err) {
    throw new ArgsError(name, `not a URL: "${raw}"`, { cause: err });
  }
  if (!schemes.includes(url.protocol)) {
    throw new ArgsError(name, `expected a ${schemes.map((s) => s.slice(0, -1)).join(' or ')} URL, got "${raw}"`);
  }
  return url;
}

/**
 * Parses the runner's command line. Returns 'help' for --help; throws {@link ArgsError} naming the
 * option at fault for anything else that is wrong, before any request is made.
 */
export function parseLoadArgs(argv: readonly string[]): LoadConfig | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        lobby: { type: 'string' },
        users: { type: 'string' },
        duration: { type: 'string' },
        'ramp-up': { type: 'string' },
        'room-size': { type: 'string' },
        'ping-interval': { type: 'string' },
        timeout: { type: 'string' },
        gateway: { type: 'string', multiple: true },
        origin: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    throw new ArgsError('(args)', (err as Error).message, { cause: err });
  }
  if (values.help === true) return 'help';
  if (values.lobby === undefined) throw new ArgsError('lobby', 'is required');

  const lobby = urlOption('lobby', values.lobby, ['http:', 'https:']);
  const users = intOption('users', values.users, 10, 1, 100_000);
  const durationS = intOption('duration', values.duration, 30, 1, 86_400);
  const rampUpS = intOption('ramp-up', values['ramp-up'], Math.min(10, durationS), 0, 86_400);
  const roomSize = intOption('room-size', values['room-size'], 2, 2, 10);
  const pingIntervalMs = intOption('ping-interval', values['ping-interval'], 1000, 0, 600_000);
  const timeoutMs = intOption('timeout', values.timeout, 10_000, 1, 600_000);
  const gateways = (values.gateway ?? []).map((g) => urlOption('gateway', g, ['ws:', 'wss:']).toString());
  const origin =
    values.origin === undefined ? lobby.origin : urlOption('origin', values.origin, ['http:', 'https:']).origin;

  return { lobby, users, durationS, rampUpS, roomSize, pingIntervalMs, timeoutMs, gateways, origin };
}
