import { describe, expect, it } from 'vitest';
import { ArgsError } from './args.js';
import { parsePlayArgs, parseThink, type PlayConfig } from './play-args.js';

const parse = (argv: string[], env: Record<string, string> = {}): PlayConfig => {
  const r = parsePlayArgs(['--play', ...argv], env, () => 42);
  if (r === 'help') throw new Error('unexpected help');
  return r;
};

const failure = (argv: string[]): ArgsError => {
  try {
    parsePlayArgs(['--play', ...argv], {}, () => 42);
  } catch (err) {
    if (err instanceof ArgsError) return err;
    throw err;
  }
  throw new Error(`accepted ${argv.join(' ')}`);
};

describe('parsePlayArgs', () => {
  it('defaults to the local cluster, realistic thinking and the load- accounts', () => {
    const c = parse([]);
    expect(c.lobby.href).toBe('http://127.0.0.1:8080/');
    expect(c).toMatchObject({
      tables: 2,
      playersPerTable: 3,
      durationS: 30,
      think: { minMs: 1000, maxMs: 3000 },
      accounts: { kind: 'login', prefix: 'load-', first: 1, concurrency: 2 },
      passwordScheme: 'felt-load-password',
      gateways: [],
      origin: 'http://127.0.0.1:8080',
      timeoutMs: 10_000,
      seed: 42,
    });
  });

  it('reads every option; gateways repeat or come comma-separated', () => {
    const c = parse([
      '--lobby=https://felt.example.com',
      '--tables',
      '40',
      '--players',
      '6',
      '--duration',
      '60',
      '--think',
      '0',
      '--gateway',
      'ws://10.0.0.1:8081/ws',
      '--gateways',
      'ws://10.0.0.2:8081/ws,wss://gw.example.com/ws',
      '--origin',
      'https://play.example.com/x',
      '--accounts-prefix',
      'lt_',
      '--first-account',
      '241',
      '--password-scheme',
      'k{n}-{name}',
      '--login-concurrency',
      '8',
      '--timeout',
      '5000',
      '--seed',
      '9',
    ]);
    expect(c).toMatchObject({
      tables: 40,
      playersPerTable: 6,
      durationS: 60,
      think: { minMs: 0, maxMs: 0 },
      gateways: ['ws://10.0.0.1:8081/ws', 'ws://10.0.0.2:8081/ws', 'wss://gw.example.com/ws'],
      origin: 'https://play.example.com',
      accounts: { kind: 'login', prefix: 'lt_', first: 241, concurrency: 8 },
      passwordScheme: 'k{n}-{name}',
      timeoutMs: 5000,
      seed: 9,
    });
  });

  it('takes the password template from the environment when no option gives one', () => {
    expect(parse([], { FELT_LOAD_PASSWORD_SCHEME: 'env-{name}' }).passwordScheme).toBe('env-{name}');
    expect(parse(['--password-scheme', 'opt-{name}'], { FELT_LOAD_PASSWORD_SCHEME: 'env-{name}' }).passwordScheme).toBe(
      'opt-{name}',
    );
  });

  it('signs up at a controlled rate only when asked', () => {
    expect(parse(['--signup-rate', '2.5']).accounts).toEqual({ kind: 'signup', prefix: 'load-', perSecond: 2.5 });
  });

  it('returns help for --help', () => {
    expect(parsePlayArgs(['--play', '--help'])).toBe('help');
  });

  it.each([
    [['--tables', '0'], 'tables', /expected 1\.\.10000/],
    [['--players', '1'], 'players', /expected 2\.\.10/],
    [['--players', '11'], 'players', /expected 2\.\.10/],
    [['--duration', '1.5'], 'duration', /whole number/],
    [['--think', 'fast'], 'think', /expected seconds/],
    [['--think', '3-1'], 'think', /MAX must not be below MIN/],
    [['--think', '1-2-3'], 'think', /expected MIN-MAX/],
    [['--lobby', 'ws://x'], 'lobby', /http or https/],
    [['--gateways', 'ws://a/ws,http://b/ws'], 'gateway', /ws or wss/],
    [['--signup-rate', '0'], 'signup-rate', /above 0/],
    [['--signup-rate', '1', '--first-account', '3'], 'first-account', /not --signup-rate/],
    [['--accounts-prefix', 'no spaces'], 'accounts-prefix', /letters, digits/],
    [
      ['--tables', '1000', '--players', '10', '--accounts-prefix', 'load-players-prefix-'],
      'accounts-prefix',
      /3\.\.24/,
    ],
    [['--password-scheme', '{name}'], 'password-scheme', /password of 6 characters/],
    [['--users', '5'], '(args)', /Unknown option '--users'/],
  ] as const)('rejects %j naming %s', (argv, option, message) => {
    const err = failure([...argv]);
    expect(err.code).toBe('bad_args');
    expect(err.option).toBe(option);
    expect(err.message).toMatch(message);
  });
});

describe('parseThink', () => {
  it('reads MIN-MAX, a fixed time and flat out, in seconds', () => {
    expect(parseThink('1-3')).toEqual({ minMs: 1000, maxMs: 3000 });
    expect(parseThink('0.25-0.5')).toEqual({ minMs: 250, maxMs: 500 });
    expect(parseThink('2')).toEqual({ minMs: 2000, maxMs: 2000 });
    expect(parseThink('0')).toEqual({ minMs: 0, maxMs: 0 });
    expect(() => parseThink('601')).toThrow(/at most 600/);
    expect(() => parseThink('-1')).toThrow(ArgsError);
  });
});
