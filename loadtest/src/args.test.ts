import { describe, expect, it } from 'vitest';
import { ArgsError, parseLoadArgs, type LoadConfig } from './args.js';

const parse = (...argv: string[]): LoadConfig => {
  const r = parseLoadArgs(argv);
  if (r === 'help') throw new Error('unexpected help');
  return r;
};

const failure = (argv: string[]): ArgsError => {
  try {
    parseLoadArgs(argv);
  } catch (err) {
    if (err instanceof ArgsError) return err;
    throw err;
  }
  throw new Error(`accepted ${argv.join(' ')}`);
};

describe('parseLoadArgs', () => {
  it('applies defaults around the required lobby URL', () => {
    const c = parse('--lobby', 'http://127.0.0.1:8080');
    expect(c.lobby.href).toBe('http://127.0.0.1:8080/');
    expect(c).toMatchObject({
      users: 10,
      durationS: 30,
      rampUpS: 10,
      roomSize: 2,
      pingIntervalMs: 1000,
      timeoutMs: 10_000,
      gateways: [],
      origin: 'http://127.0.0.1:8080',
    });
  });

  it('reads every option, including repeated gateways and --name=value', () => {
    const c = parse(
      '--lobby=https://felt.example.com',
      '--users',
      '250',
      '--duration',
      '5',
      '--ramp-up',
      '0',
      '--room-size',
      '6',
      '--ping-interval',
      '0',
      '--timeout',
      '2500',
      '--gateway',
      'ws://10.0.0.1:8081/ws',
      '--gateway',
      'wss://gw2.example.com/ws',
      '--origin',
      'https://play.example.com/lobby',
    );
    expect(c).toMatchObject({
      users: 250,
      durationS: 5,
      rampUpS: 0,
      roomSize: 6,
      pingIntervalMs: 0,
      timeoutMs: 2500,
      gateways: ['ws://10.0.0.1:8081/ws', 'wss://gw2.example.com/ws'],
      origin: 'https://play.example.com',
    });
  });

  it('caps the default ramp-up at the duration', () => {
    expect(parse('--lobby', 'http://x', '--duration', '4').rampUpS).toBe(4);
  });

  it('returns help for --help even without a lobby', () => {
    expect(parseLoadArgs(['--help'])).toBe('help');
  });

  it.each([
    [[], 'lobby', /is required/],
    [['--lobby', 'not a url'], 'lobby', /not a URL/],
    [['--lobby', 'ws://127.0.0.1:8080'], 'lobby', /expected a http or https URL/],
    [['--lobby', 'http://x', '--users', '0'], 'users', /expected 1\.\.100000, got 0/],
    [['--lobby', 'http://x', '--users', '1.5'], 'users', /whole number/],
    [['--lobby', 'http://x', '--users=-3'], 'users', /whole number/],
    [['--lobby', 'http://x', '--duration', 'ten'], 'duration', /whole number/],
    [['--lobby', 'http://x', '--room-size', '1'], 'room-size', /expected 2\.\.10/],
    [['--lobby', 'http://x', '--room-size', '11'], 'room-size', /expected 2\.\.10/],
    [['--lobby', 'http://x', '--gateway', 'http://gw/ws'], 'gateway', /expected a ws or wss URL/],
    [['--lobby', 'http://x', '--origin', 'file:///etc'], 'origin', /http or https/],
    [['--lobby', 'http://x', '--bogus', '1'], '(args)', /Unknown option '--bogus'/],
    [['--lobby', 'http://x', 'extra'], '(args)', /positional/],
  ] as const)('rejects %j naming %s', (argv, option, message) => {
    const err = failure([...argv]);
    expect(err.code).toBe('bad_args');
    expect(err.option).toBe(option);
    expect(err.message).toMatch(message);
  });
});
