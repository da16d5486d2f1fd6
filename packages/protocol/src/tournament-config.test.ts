import { STRUCTURE_PRESETS, Table, levelAt } from '@felt/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GAME_TYPES, ROOM_CHIPS_MAX, defaultLimitFor, maxSeatsFor, parseRoomConfig } from './room-config.js';
import {
  newTournamentIssues,
  parseTournamentConfig,
  tournamentLevelStakes,
  tournamentTableConfig,
  TournamentConfigError,
  type TournamentConfigInput,
} from './tournament-config.js';

const NOW = Date.parse('2026-12-03T08:00:00Z');
const sng: TournamentConfigInput = { name: 'Six-max turbo', format: 'sit_and_go', seats: 6, buyIn: 100, fee: 10 };
const mtt: TournamentConfigInput = {
  name: 'Sunday 60',
  format: 'scheduled',
  startsAt: '2026-12-06T18:00:00Z',
  buyIn: 1_000,
  fee: 100,
};

function issuesOf(input: unknown): string[] {
  try {
    parseTournamentConfig(input);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(TournamentConfigError);
    return (err as TournamentConfigError).issues.map((i) => `${i.path}: ${i.message}`);
  }
}

describe('parseTournamentConfig', () => {
  it('a sit-and-go: one full table, turbo, starting when full, nothing scheduled', () => {
    expect(parseTournamentConfig(sng)).toEqual({
      name: 'Six-max turbo',
      format: 'sit_and_go',
      game: 'holdem',
      limit: 'nl',
      seats: 6,
      entrants: { min: 6, max: 6 },
      startsAt: null,
      lateRegistrationLevels: 0,
      buyIn: 100,
      fee: 10,
      startingStack: 5_000,
      structure: STRUCTURE_PRESETS.turbo.structure,
      reEntry: null,
      addOn: null,
      simultaneousBusts: 'starting_stack',
      clock: { actionSeconds: 30, timeBankSeconds: 60 },
    });
  });

  it('a scheduled tournament: 2 to 100 entrants at tables of 9, the regular structure', () => {
    const c = parseTournamentConfig({
      ...mtt,
      reEntry: { max: 1, untilLevel: 6 },
      addOn: { chips: 10_000, cost: 1_000 },
    });
    expect(c).toMatchObject({
      seats: 9,
      entrants: { min: 2, max: 100 },
      startsAt: '2026-12-06T18:00:00Z',
      startingStack: 10_000,
      reEntry: { max: 1, untilLevel: 6 },
      addOn: { chips: 10_000, cost: 1_000 },
    });
    expect(c.structure).toEqual(STRUCTURE_PRESETS.regular.structure);
  });

  it('takes a structure of its own: levels, length in hands (no breaks then), a starting stack', () => {
    const c = parseTournamentConfig({
      ...sng,
      game: 'stud',
      startingStack: 1_500,
      structure: { levels: [{ bigBlind: 20 }, { bigBlind: 40, ante: 5 }], levelLength: { unit: 'hands', value: 12 } },
    });
    expect(c.limit).toBe('fl');
    expect(c.startingStack).toBe(1_500);
    expect(c.structure).toEqual({
      levels: [
        { smallBlind: 10, bigBlind: 20, ante: 0, bigBlindAnte: 0 },
        { smallBlind: 20, bigBlind: 40, ante: 5, bigBlindAnte: 0 },
      ],
      levelLength: { unit: 'hands', value: 12 },
      breaks: null,
    });
  });

  it('parses its own output back to itself, whatever the valid input', () => {
    fc.assert(
      fc.property(
        fc.record({
          format: fc.constantFrom('sit_and_go' as const, 'scheduled' as const),
          game: fc.constantFrom(
            'holdem' as const,
            'omaha5' as const,
            'stud' as const,
            'horse' as const,
            '27td' as const,
          ),
          buyIn: fc.integer({ min: 0, max: 10_000 }),
          preset: fc.constantFrom('turbo' as const, 'regular' as const, 'deep' as const),
          levelMinutes: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
        }),
        ({ format, game, buyIn, preset, levelMinutes }) => {
          const input: TournamentConfigInput = {
            name: 'T',
            format,
            game,
            buyIn,
            structure: {
              preset,
              ...(levelMinutes === undefined ? {} : { levelLength: { unit: 'minutes', value: levelMinutes } }),
            },
            ...(format === 'scheduled' ? { startsAt: '2026-12-24T20:00:00+01:00' } : {}),
          };
          const once = parseTournamentConfig(input);
          // The stored form is the resolved one; reading it back changes nothing.
          expect(parseTournamentConfig(JSON.parse(JSON.stringify(once)))).toEqual(once);
          expect(once.seats).toBeLessThanOrEqual(game === 'omaha5' || game === 'stud' || game === 'horse' ? 8 : 9);
        },
      ),
      { seed: 12, numRuns: 200 },
    );
  });

  it('refuses what cannot be run, naming every field', () => {
    expect(issuesOf({ ...sng, startsAt: '2026-12-06T18:00:00Z', reEntry: { max: 1, untilLevel: 3 } })).toEqual([
      'startsAt: only for a scheduled tournament',
      'reEntry: only for a scheduled tournament',
    ]);
    expect(issuesOf({ ...sng, entrants: { min: 4, max: 6 } })).toEqual([
      'entrants.min: a sit-and-go starts when full: min = max',
    ]);
    expect(issuesOf({ ...sng, entrants: { max: 7 } })).toEqual(['entrants.max: a sit-and-go is one table of 6']);
    expect(issuesOf({ ...mtt, entrants: { min: 50, max: 20 } })).toEqual(['entrants.min: at most entrants.max']);
    expect(issuesOf({ ...mtt, startsAt: undefined })).toEqual(['startsAt: required for a scheduled tournament']);
    expect(issuesOf({ ...mtt, startsAt: null })).toEqual(['startsAt: required for a scheduled tournament']);
    expect(issuesOf({ ...mtt, fee: 1_001 })).toEqual(['fee: at most the buy-in']);
    expect(issuesOf({ ...sng, game: 'omaha5', seats: 9, entrants: { max: 9 } })).toEqual([
      'seats: omaha5 seats at most 8',
    ]);
    expect(issuesOf({ ...mtt, addOn: { chips: 1, cost: 1 }, structure: { breaks: null } })).toEqual([
      'addOn: offered at the first break: the structure has none',
    ]);
    expect(
      issuesOf({
        ...sng,
        structure: { levelLength: { unit: 'hands', value: 10 }, breaks: { everyLevels: 2, minutes: 5 } },
      }),
    ).toEqual(['structure: breaks need levels measured in minutes']);
    expect(issuesOf({ ...sng, structure: { levelLength: { unit: 'minutes', value: 241 } } })).toEqual([
      'structure: a level lasts 1 to 240 minutes',
    ]);
    expect(issuesOf({ ...sng, structure: { levels: [{ bigBlind: 40 }, { bigBlind: 20 }] } })).toEqual([
      'structure.levels.1: the big blind never falls from one level to the next',
    ]);
    expect(issuesOf({ ...sng, startingStack: 400 })).toEqual([
      'startingStack: at least 10 big blinds of the first level',
    ]);
    expect(issuesOf({ ...sng, name: 'a\u0007b' })).toEqual(['name: no control characters']);
    expect(issuesOf({ ...sng, name: '   ' })).toHaveLength(1);
    expect(issuesOf({ ...sng, buyIn: -1 })).toHaveLength(1);
    expect(issuesOf({ ...sng, prize: 5 })).toHaveLength(1);
    expect(issuesOf({ ...mtt, startsAt: 'next sunday' })).toHaveLength(1);
  });
});

describe('newTournamentIssues', () => {
  it('wants a start in the future and at most 90 days ahead', () => {
    const at = (startsAt: string) => newTournamentIssues(parseTournamentConfig({ ...mtt, startsAt }), NOW);
    expect(at('2026-12-06T18:00:00Z')).toEqual([]);
    expect(at('2026-12-03T07:59:59Z')).toEqual([{ path: 'startsAt', message: 'in the future' }]);
    expect(at('2027-03-10T00:00:00Z')).toEqual([{ path: 'startsAt', message: 'at most 90 days ahead' }]);
    expect(newTournamentIssues(parseTournamentConfig(sng), NOW)).toEqual([]);
  });

  it('keeps every total it can make within the chip bound: entry price, prize pool, chips in play', () => {
    const big = ROOM_CHIPS_MAX / 100;
    expect(
      newTournamentIssues(parseTournamentConfig({ ...mtt, buyIn: big, fee: 0, entrants: { max: 100 } }), NOW),
    ).toEqual([]);
    expect(
      newTournamentIssues(parseTournamentConfig({ ...mtt, buyIn: big, fee: 0, entrants: { max: 101 } }), NOW).map(
        (i) => i.path,
      ),
    ).toEqual(['buyIn']);
    expect(
      newTournamentIssues(
        parseTournamentConfig({ ...mtt, startingStack: big, reEntry: { max: 1, untilLevel: 3 } }),
        NOW,
      ).map((i) => i.path),
    ).toEqual(['startingStack', 'reEntry']);
  });

  it('refuses a re-entry that outlasts late registration; takes an add-on (at the first break)', () => {
    const config = parseTournamentConfig({
      ...mtt,
      lateRegistrationLevels: 3,
      reEntry: { max: 1, untilLevel: 4 },
      addOn: { chips: 1_000, cost: 100 },
      structure: { preset: 'regular' },
    });
    expect(newTournamentIssues(config, NOW)).toEqual([
      { path: 'reEntry', message: 'untilLevel at most lateRegistrationLevels (3): a re-entry is a late registration' },
    ]);
    expect(
      newTournamentIssues(
        parseTournamentConfig({ ...mtt, addOn: { chips: 1_000, cost: 100 }, structure: { preset: 'regular' } }),
        NOW,
      ),
    ).toEqual([]);
    const addOnDuringLate = parseTournamentConfig({
      ...mtt,
      lateRegistrationLevels: 4,
      addOn: { chips: 1_000, cost: 100 },
      structure: { preset: 'regular', breaks: { everyLevels: 4, minutes: 5 } },
    });
    expect(newTournamentIssues(addOnDuringLate, NOW)).toEqual([
      {
        path: 'addOn',
        message:
          'sold at the first break, which must come after late registration (structure.breaks.everyLevels above 4)',
      },
    ]);
    expect(newTournamentIssues(parseTournamentConfig({ ...mtt, reEntry: { max: 1, untilLevel: 1 } }), NOW)).toEqual([
      {
        path: 'reEntry',
        message: 'needs late registration (lateRegistrationLevels): a re-entry is a late registration',
      },
    ]);
    expect(newTournamentIssues(parseTournamentConfig({ ...mtt, lateRegistrationLevels: 3 }), NOW)).toEqual([]);
    expect(
      newTournamentIssues(
        parseTournamentConfig({ ...mtt, lateRegistrationLevels: 3, reEntry: { max: 2, untilLevel: 3 } }),
        NOW,
      ),
    ).toEqual([]);
  });
});

describe('tournamentLevelStakes', () => {
  it.each(GAME_TYPES)('%s: every level of every preset, and those past it, is stakes its tables can play', (game) => {
    const limit = defaultLimitFor(game);
    // A table of the game as a room would run it, then each level's stakes set on it.
    const room = parseRoomConfig({ game, seats: Math.min(6, maxSeatsFor(game)) });
    const rotation = room.rotation;
    const table = new Table({
      game,
      limit,
      stakes: room.stakes,
      maxSeats: room.seats,
      ...(rotation
        ? {
            rotation: {
              order: rotation.order.map((e) => ({ game: e.game, limit: e.limit, stakes: e.stakes })),
              handsPerVariant: rotation.handsPerVariant,
            },
          }
        : {}),
    });
    for (const preset of Object.values(STRUCTURE_PRESETS)) {
      for (let i = 0; i < 36; i++) {
        const stakes = tournamentLevelStakes(game, limit, levelAt(preset.structure, i));
        expect(stakes).toHaveLength(rotation ? rotation.order.length : 1);
        expect(() => table.setStakes(stakes)).not.toThrow();
      }
    }
  });

  it('refuses a level one of the games cannot play', () => {
    expect(
      issuesOf({ ...sng, startingStack: 1_000, structure: { levels: [{ bigBlind: 1 }, { bigBlind: 2 }] } }),
    ).toEqual(['structure.levels.0.smallBlind: holdem needs a small blind of at least 1 chip']);
    expect(issuesOf({ ...sng, game: 'stud', startingStack: 1_000, structure: { levels: [{ bigBlind: 1 }] } })).toEqual(
      [],
    );
  });
});

describe('tournamentTableConfig', () => {
  it.each(GAME_TYPES)('%s: its tables play the first level, unlisted, without rake, bots or auto-start', (game) => {
    const config = parseTournamentConfig({ ...sng, game, seats: Math.min(6, maxSeatsFor(game)) });
    const room = tournamentTableConfig(config);
    expect(parseRoomConfig(room)).toEqual(room);
    expect(room.game).toBe(game);
    expect(room.seats).toBe(config.seats);
    expect(room.listed).toBe(false);
    expect(room.rake.percent).toBe(0);
    expect(room.botFill.mode).toBe('off');
    expect(room.startHand).toEqual({ autoStart: false, hostMayForceStart: false });
    expect(room.clock.actionSeconds).toBe(config.clock.actionSeconds);
    const first = tournamentLevelStakes(game, config.limit, levelAt(config.structure, 0));
    if (room.rotation) expect(room.rotation.order.map((e) => e.stakes)).toEqual(first);
    else expect(room.stakes).toEqual(first[0]);
  });

  it('gives every clock a tournament may have a table: the shortest one warns halfway', () => {
    for (const actionSeconds of [5, 9, 10, 11, 300]) {
      const room = tournamentTableConfig(parseTournamentConfig({ ...sng, clock: { actionSeconds } }));
      expect(room.clock.actionSeconds).toBe(actionSeconds);
      expect(room.clock.warningSeconds).toBe(Math.min(10, Math.floor(actionSeconds / 2)));
    }
  });
});
