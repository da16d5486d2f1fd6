import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GAME_TYPES,
  MIXED_FORMATS,
  ROOM_CHIPS_MAX,
  RoomConfigError,
  defaultLimitFor,
  maxSeatsFor,
  newRoomIssues,
  parseRoomConfig,
  roomConfigInputSchema,
  safeParseRoomConfig,
  stakesLabel,
  type RoomConfigInput,
} from './room-config.js';

function issuesOf(input: unknown): Record<string, string> {
  const r = safeParseRoomConfig(input);
  if (r.success) return {};
  return Object.fromEntries(r.error.issues.map((i) => [i.path, i.message]));
}

describe('rules for a new room', () => {
  it('bot fill leaves a seat free for players to join, except heads-up', () => {
    const fill = (seats: number, targetPlayers: number) =>
      newRoomIssues(parseRoomConfig({ seats, botFill: { mode: 'fill', targetPlayers } }));
    expect(fill(4, 4)).toEqual([
      {
        path: 'botFill.targetPlayers',
        message: 'leave a seat for players to join: bots fill at most 3 of the 4 seats',
      },
    ]);
    expect(fill(4, 3)).toEqual([]);
    expect(fill(2, 2)).toEqual([]);
    // Stored configs keep parsing: the rule is for creation only.
    expect(safeParseRoomConfig({ seats: 4, botFill: { mode: 'fill', targetPlayers: 4 } }).success).toBe(true);
    expect(newRoomIssues(parseRoomConfig({ seats: 4 }))).toEqual([]);
  });
});

describe('RoomConfig defaults', () => {
  it('fills a complete Hold’em room from an empty input', () => {
    expect(parseRoomConfig({})).toEqual({
      game: 'holdem',
      limit: 'nl',
      stakes: {
        smallBlind: 1,
        bigBlind: 2,
        ante: 0,
        bigBlindAnte: 0,
        buttonBlind: 0,
        bringIn: 0,
        smallBet: 2,
        bigBet: 4,
      },
      seats: 6,
      buyIn: { min: 80, max: 200 },
      clock: { actionSeconds: 30, timeBankSeconds: 60, warningSeconds: 10, refillSeconds: 0, refillEveryHands: 10 },
      rake: { percent: 0, cap: 0, headsUpPercent: null, noFlopNoDrop: true },
      startHand: { autoStart: true, hostMayForceStart: true },
      botFill: { mode: 'off', targetPlayers: 2 },
      rotation: null,
      listed: true,
      rules: {
        shortAllInBlind: 'full_blind',
        oddChips: 'one_each',
        studOpenPairBigBet: true,
        limitHalfBetReopens: false,
        raiseCap: 'default',
        showdown: {
          allowMuck: true,
          showAllHands: false,
          autoMuck: true,
          lastAggressorShowsFirst: true,
          allInMustShow: true,
          contestedWinnerMustShow: true,
        },
      },
      chat: { enabled: true, spectators: false },
      practiceChips: false,
      dealing: 'standard',
    });
  });

  it('picks the betting limit per game as docs/engine.md, "The games", lists it', () => {
    const limits = Object.fromEntries(GAME_TYPES.map((g) => [g, parseRoomConfig({ game: g }).limit]));
    expect(limits).toEqual({
      holdem: 'nl',
      shortdeck: 'nl',
      omaha: 'pl',
      omaha5: 'pl',
      omaha8: 'pl',
      stud: 'fl',
      stud8: 'fl',
      razz: 'fl',
      '27td': 'fl',
      horse: 'fl',
      '8game': 'fl',
    });
    for (const g of GAME_TYPES) expect(defaultLimitFor(g)).toBe(limits[g]);
  });

  it('gives each game family its own forced bets', () => {
    expect(parseRoomConfig({ game: 'stud', stakes: { smallBet: 10 } }).stakes).toEqual({
      smallBlind: 0,
      bigBlind: 0,
      ante: 1,
      bigBlindAnte: 0,
      buttonBlind: 0,
      bringIn: 3,
      smallBet: 10,
      bigBet: 20,
    });
    expect(parseRoomConfig({ game: 'shortdeck', stakes: { bigBlind: 10 } }).stakes).toMatchObject({
      smallBlind: 0,
      ante: 5,
      buttonBlind: 10,
    });
    expect(parseRoomConfig({ game: 'holdem', limit: 'fl', stakes: { bigBlind: 10 } }).stakes).toMatchObject({
      smallBlind: 5,
      smallBet: 10,
      bigBet: 20,
    });
  });

  it('measures buy-ins in big blinds, or in small bets for the Stud family', () => {
    expect(parseRoomConfig({ stakes: { bigBlind: 10 } }).buyIn).toEqual({ min: 400, max: 1000 });
    expect(parseRoomConfig({ game: 'razz', stakes: { smallBet: 10 } }).buyIn).toEqual({ min: 400, max: 1000 });
  });

  it('caps seats per game and defaults to six-handed within the cap', () => {
    expect(maxSeatsFor('holdem')).toBe(10);
    expect(maxSeatsFor('omaha5')).toBe(8);
    expect(maxSeatsFor('stud')).toBe(8);
    expect(maxSeatsFor('horse')).toBe(8);
    expect(maxSeatsFor('8game')).toBe(6);
    expect(parseRoomConfig({ game: 'holdem', seats: 10 }).seats).toBe(10);
    expect(parseRoomConfig({ game: 'stud' }).seats).toBe(6);
  });

  it('expands the named mixed formats with per-game limits and stakes', () => {
    const horse = parseRoomConfig({ game: 'horse', stakes: { bigBlind: 10 } });
    expect(horse.rotation?.order.map((e) => `${e.limit} ${e.game}`)).toEqual(
      MIXED_FORMATS.horse.map((e) => `${e.limit} ${e.game}`),
    );
    expect(horse.rotation?.handsPerVariant).toBe(6);
    const razz = horse.rotation!.order.find((e) => e.game === 'razz')!;
    expect(razz.stakes).toMatchObject({ bigBlind: 0, smallBlind: 0, smallBet: 10, bigBet: 20, bringIn: 3, ante: 1 });
    const holdem = horse.rotation!.order.find((e) => e.game === 'holdem')!;
    expect(holdem.stakes).toMatchObject({ smallBlind: 5, bigBlind: 10, bringIn: 0 });

    const eight = parseRoomConfig({ game: '8game' });
    expect(eight.rotation?.order.map((e) => `${e.limit} ${e.game}`)).toEqual([
      'fl 27td',
      'fl holdem',
      'fl omaha8',
      'fl razz',
      'fl stud',
      'fl stud8',
      'nl holdem',
      'pl omaha',
    ]);
  });

  it('takes a custom rotation with overrides', () => {
    const cfg = parseRoomConfig({
      game: 'horse',
      stakes: { bigBlind: 4 },
      rotation: {
        handsPerVariant: 3,
        order: [
          { game: 'holdem', limit: 'nl', stakes: { bigBlind: 6, smallBlind: 3 } },
          { game: 'stud', stakes: { bringIn: 2, ante: 1 }, maxSeats: 7 },
        ],
      },
      seats: 7,
    });
    expect(cfg.rotation).toMatchObject({
      handsPerVariant: 3,
      order: [
        { game: 'holdem', limit: 'nl', stakes: { smallBlind: 3, bigBlind: 6 }, maxSeats: 10 },
        { game: 'stud', limit: 'fl', stakes: { bringIn: 2, ante: 1, smallBet: 4, bigBet: 8 }, maxSeats: 7 },
      ],
    });
  });
});

describe('RoomConfig validation', () => {
  it('a short action clock alone is valid: its warning defaults to halfway; one set at the clock is refused', () => {
    expect(parseRoomConfig({ clock: { actionSeconds: 5 } }).clock).toMatchObject({
      actionSeconds: 5,
      warningSeconds: 2,
    });
    expect(parseRoomConfig({ clock: { actionSeconds: 30 } }).clock.warningSeconds).toBe(10);
    expect(issuesOf({ clock: { actionSeconds: 5, warningSeconds: 5 } })).toEqual({
      'clock.warningSeconds': 'the warning must come before the action clock runs out',
    });
  });

  it('names every bad field with a clear message', () => {
    expect(
      issuesOf({
        game: 'stud',
        seats: 9,
        stakes: { smallBet: 10, bigBlind: 2, bringIn: 20 },
        buyIn: { min: 50, max: 40 },
        clock: { actionSeconds: 10, warningSeconds: 10 },
      }),
    ).toEqual({
      seats: 'stud seats at most 8',
      'stakes.bigBlind': 'stud has no big blind (it uses a bring-in)',
      'stakes.bringIn': 'the bring-in cannot exceed the small bet (the completion)',
      'buyIn.min': 'the minimum buy-in must be at least 10× the small bet (100)',
      'buyIn.max': 'the maximum buy-in is below the minimum',
      'clock.warningSeconds': 'the warning must come before the action clock runs out',
    });
  });

  it('takes a time-bank refill (seconds every N hands), off by default, and refuses a refill every 0 hands', () => {
    expect(parseRoomConfig({}).clock).toMatchObject({ refillSeconds: 0, refillEveryHands: 10 });
    expect(parseRoomConfig({ clock: { refillSeconds: 5, refillEveryHands: 3 } }).clock).toMatchObject({
      refillSeconds: 5,
      refillEveryHands: 3,
    });
    expect(issuesOf({ clock: { refillEveryHands: 0 } })).toHaveProperty(['clock.refillEveryHands']);
    expect(issuesOf({ clock: { refillSeconds: 601 } })).toHaveProperty(['clock.refillSeconds']);
  });

  it('refuses blinds that make no sense', () => {
    expect(issuesOf({ stakes: { smallBlind: 5, bigBlind: 2 } })).toEqual({
      'stakes.smallBlind': 'the small blind cannot exceed the big blind',
    });
    expect(issuesOf({ stakes: { bigBlind: 0 } })).toMatchObject({
      'stakes.bigBlind': 'holdem needs a big blind of at least 1 chip',
    });
    expect(issuesOf({ stakes: { bigBlind: 10, ante: 1, bigBlindAnte: 10 } })).toEqual({
      'stakes.bigBlindAnte': 'choose an ante or a big-blind ante, not both',
    });
    expect(issuesOf({ stakes: { bigBlind: 10, ante: 11 } })).toEqual({
      'stakes.ante': 'the ante cannot exceed the big blind',
    });
    expect(issuesOf({ stakes: { bigBlind: 10, bringIn: 2 } })).toEqual({
      'stakes.bringIn': 'only the Stud family has a bring-in',
    });
    expect(issuesOf({ game: 'shortdeck', stakes: { bigBlind: 10, ante: 0 } })).toEqual({
      'stakes.ante': 'Short Deck needs an ante from every player',
    });
    expect(issuesOf({ limit: 'fl', stakes: { bigBlind: 10, smallBet: 10, bigBet: 5 } })).toEqual({
      'stakes.bigBet': 'the big bet cannot be smaller than the small bet',
    });
  });

  it('refuses fractional chips, unknown fields and unknown games', () => {
    expect(issuesOf({ stakes: { bigBlind: 2.5 } })).toEqual({ 'stakes.bigBlind': 'expected whole chips' });
    expect(Object.keys(issuesOf({ stakes: { bigblind: 2 } }))).toEqual(['stakes']);
    expect(Object.keys(issuesOf({ game: 'pineapple' }))).toEqual(['game']);
    expect(Object.keys(issuesOf({ seats: 11 }))).toEqual(['seats']);
    expect(Object.keys(issuesOf({ seats: 1 }))).toEqual(['seats']);
  });

  it('keeps buy-ins sane relative to the big blind', () => {
    expect(issuesOf({ stakes: { bigBlind: 10 }, buyIn: { min: 99, max: 1000 } })).toEqual({
      'buyIn.min': 'the minimum buy-in must be at least 10× the big blind (100)',
    });
    expect(issuesOf({ stakes: { bigBlind: 10 }, buyIn: { min: 100, max: 10_001 } })).toEqual({
      'buyIn.max': 'the maximum buy-in can be at most 1000× the big blind (10000)',
    });
  });

  it('checks rake, bot fill and rotation placement', () => {
    expect(issuesOf({ rake: { percent: 5.555 } })).toEqual({ 'rake.percent': 'at most two decimals' });
    expect(issuesOf({ rake: { percent: 11 } })).toEqual({ 'rake.percent': 'at most 10 percent' });
    expect(issuesOf({ rake: { cap: 5 } })).toEqual({
      'rake.percent': 'set a rake percent before a cap or a heads-up percent',
    });
    expect(issuesOf({ seats: 4, botFill: { mode: 'fill', targetPlayers: 5 } })).toEqual({
      'botFill.targetPlayers': 'bots can fill at most the 4 seats',
    });
    expect(issuesOf({ game: 'holdem', rotation: { handsPerVariant: 2 } })).toEqual({
      rotation: 'a rotation applies only to horse and 8game',
    });
    expect(issuesOf({ game: '8game', seats: 7 })).toEqual({
      seats: '7 seats exceeds the 6-seat cap of 27td in the rotation',
    });
    expect(
      issuesOf({ game: 'horse', rotation: { order: [{ game: 'holdem' }, { game: 'stud', maxSeats: 9 }] } }),
    ).toEqual({ 'rotation.order.1.maxSeats': 'stud seats at most 8' });
    expect(
      Object.keys(issuesOf({ game: 'horse', rotation: { order: [{ game: 'horse' }, { game: 'stud' }] } })),
    ).toEqual(['rotation.order.0.game']);
  });

  it('takes house rules and showdown options, and refuses rules the room’s games never use', () => {
    const c = parseRoomConfig({
      game: 'stud8',
      rules: { oddChips: 'first_winner', studOpenPairBigBet: false, raiseCap: 5, showdown: { autoMuck: false } },
    });
    expect(c.rules).toMatchObject({ oddChips: 'first_winner', studOpenPairBigBet: false, raiseCap: 5 });
    expect(c.rules.showdown).toMatchObject({ autoMuck: false, allowMuck: true });
    expect(issuesOf({ game: 'holdem', rules: { studOpenPairBigBet: false } })).toEqual({
      'rules.studOpenPairBigBet': 'the open-pair rule applies only to Stud and Stud Hi-Lo under fixed limit',
    });
    expect(issuesOf({ game: 'razz', rules: { studOpenPairBigBet: false } })).toHaveProperty([
      'rules.studOpenPairBigBet',
    ]);
    expect(issuesOf({ game: 'holdem', limit: 'nl', rules: { limitHalfBetReopens: true } })).toEqual({
      'rules.limitHalfBetReopens': 'the half-bet rule applies only to fixed limit',
    });
    // HORSE plays Stud under fixed limit: both apply.
    expect(issuesOf({ game: 'horse', rules: { studOpenPairBigBet: false, limitHalfBetReopens: true } })).toEqual({});
    expect(issuesOf({ rules: { raiseCap: 0 } })).toHaveProperty(['rules.raiseCap']);
    expect(issuesOf({ rules: { raiseCap: 2.5 } })).toHaveProperty(['rules.raiseCap']);
    expect(issuesOf({ rules: { oddChips: 'house' } })).toHaveProperty(['rules.oddChips']);
    expect(issuesOf({ rules: { showdown: { muckEverything: true } } })).not.toEqual({});
  });

  it('reads a stored config from before the house rules with their defaults', () => {
    const { rules: _rules, ...old } = parseRoomConfig({ game: 'stud' });
    expect(parseRoomConfig(old).rules).toEqual(parseRoomConfig({}).rules);
  });

  it('throws a typed error from parseRoomConfig', () => {
    let err: unknown;
    try {
      parseRoomConfig({ seats: 42 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RoomConfigError);
    expect((err as RoomConfigError).code).toBe('invalid_room_config');
    expect((err as RoomConfigError).message).toContain('seats');
  });

  it('labels stakes for the lobby', () => {
    expect(stakesLabel(parseRoomConfig({ stakes: { bigBlind: 10 } }))).toBe('5/10');
    expect(stakesLabel(parseRoomConfig({ game: 'stud', stakes: { smallBet: 10 } }))).toBe('10/20');
    expect(stakesLabel(parseRoomConfig({ game: 'shortdeck', stakes: { bigBlind: 10 } }))).toBe('5/10');
  });
});

describe('practice chips', () => {
  it('are off by default, and a stored config from before the field reads as a real-chip room', () => {
    expect(parseRoomConfig({}).practiceChips).toBe(false);
    const stored = JSON.parse(JSON.stringify(parseRoomConfig({ rake: { percent: 5, cap: 10 } }))) as Record<
      string,
      unknown
    >;
    delete stored['practiceChips'];
    expect(parseRoomConfig(stored).practiceChips).toBe(false);
  });

  it('refuse any rake, and keep a room without one', () => {
    expect(issuesOf({ practiceChips: true, rake: { percent: 5 } })).toEqual({
      'rake.percent': 'a practice-chip room takes no rake: set the rake percent to 0',
    });
    expect(() => parseRoomConfig({ practiceChips: true, rake: { percent: 0.5, cap: 3 } })).toThrow(RoomConfigError);
    const practice = parseRoomConfig({ practiceChips: true });
    expect(practice.practiceChips).toBe(true);
    expect(practice.rake.percent).toBe(0);
    expect(newRoomIssues(practice)).toEqual([]);
  });

  it('round-trip through their stored form', () => {
    const config = parseRoomConfig({ practiceChips: true, game: 'omaha', listed: false });
    expect(parseRoomConfig(JSON.parse(JSON.stringify(config)))).toEqual(config);
  });
});

describe('engine-blind dealing', () => {
  it('is off by default, and a stored config from before the field deals standard', () => {
    expect(parseRoomConfig({}).dealing).toBe('standard');
    const stored = JSON.parse(JSON.stringify(parseRoomConfig({}))) as Record<string, unknown>;
    delete stored['dealing'];
    expect(parseRoomConfig(stored).dealing).toBe('standard');
  });

  it('needs practice chips, no bot fill and a game it can deal', () => {
    const ok = parseRoomConfig({ dealing: 'engine_blind', practiceChips: true, game: 'omaha' });
    expect(ok.dealing).toBe('engine_blind');
    expect(parseRoomConfig(JSON.parse(JSON.stringify(ok)))).toEqual(ok);
    expect(issuesOf({ dealing: 'engine_blind' })).toEqual({
      dealing: 'engine-blind dealing is for practice chips only: set practiceChips',
    });
    expect(issuesOf({ dealing: 'engine_blind', practiceChips: true, botFill: { mode: 'fill' } })).toEqual({
      'botFill.mode': 'engine-blind dealing needs every seat a person: no bot fill',
    });
    for (const game of ['stud', 'razz', '27td', 'horse'] as const) {
      expect(Object.keys(issuesOf({ dealing: 'engine_blind', practiceChips: true, game }))).toEqual(['dealing']);
    }
    expect(() => parseRoomConfig({ dealing: 'mental' })).toThrow(RoomConfigError);
  });
});

describe('RoomConfig round trip', () => {
  const stakes = fc.record(
    {
      smallBlind: fc.integer({ min: 0, max: 50 }),
      bigBlind: fc.integer({ min: 0, max: 100 }),
      ante: fc.integer({ min: 0, max: 20 }),
      bringIn: fc.integer({ min: 0, max: 20 }),
      smallBet: fc.integer({ min: 0, max: 100 }),
      bigBet: fc.integer({ min: 0, max: 200 }),
    },
    { requiredKeys: [] },
  );
  const input: fc.Arbitrary<RoomConfigInput> = fc
    .record(
      {
        game: fc.constantFrom(...GAME_TYPES),
        limit: fc.constantFrom('nl' as const, 'pl' as const, 'fl' as const),
        stakes,
        seats: fc.integer({ min: 2, max: 10 }),
        rake: fc.record({ percent: fc.integer({ min: 0, max: 1000 }).map((bps) => bps / 100) }, { requiredKeys: [] }),
        listed: fc.boolean(),
        practiceChips: fc.boolean(),
        rules: fc.record(
          {
            shortAllInBlind: fc.constantFrom('full_blind' as const, 'posted' as const),
            oddChips: fc.constantFrom('one_each' as const, 'first_winner' as const),
            studOpenPairBigBet: fc.boolean(),
            limitHalfBetReopens: fc.boolean(),
            raiseCap: fc.oneof(fc.constantFrom('default' as const, 'none' as const), fc.integer({ min: 1, max: 100 })),
            showdown: fc.record({ allowMuck: fc.boolean(), showAllHands: fc.boolean() }, { requiredKeys: [] }),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    )
    // A practice room with a rake is refused; keep such inputs valid often enough to matter.
    .map((r) => (r.practiceChips === true ? { ...r, rake: { percent: 0 } } : r));

  it('parses its own output back to itself, and every output passes the input schema', () => {
    let accepted = 0;
    fc.assert(
      fc.property(input, (raw) => {
        const r = safeParseRoomConfig(raw);
        if (!r.success) {
          expect(r.error.issues.length).toBeGreaterThan(0);
          return;
        }
        accepted++;
        const stored = JSON.parse(JSON.stringify(r.config)) as unknown;
        expect(roomConfigInputSchema.safeParse(stored).success).toBe(true);
        expect(parseRoomConfig(stored)).toEqual(r.config);
      }),
      { numRuns: 400, seed: 7 },
    );
    // The generator must reach valid configs often enough for the property to mean something.
    expect(accepted).toBeGreaterThan(40);
  });

  // Derived amounts (default buy-ins, big bets) once overflowed the safe-integer bound, so
  // a config parsed, was stored, and then never parsed again.
  // A stakes unit anywhere from 1 chip to the safe-integer bound, and stakes each game accepts at that
  // unit, so that most inputs pass the per-field rules and the bounds on derived amounts decide.
  const unit = fc.oneof(
    fc.integer({ min: 1, max: 1000 }),
    fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    fc.constantFrom(1e10, 1e10 + 1, 1e12, 2 ** 50, 2 ** 52, Number.MAX_SAFE_INTEGER),
  );
  const hugeInput: fc.Arbitrary<RoomConfigInput> = fc
    .record({
      game: fc.constantFrom(...GAME_TYPES),
      unit,
      buyIn: fc.option(fc.record({ min: fc.integer({ min: 10, max: 100 }), max: fc.integer({ min: 100, max: 1000 }) })),
      cap: fc.option(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
    })
    .map(({ game, unit: k, buyIn, cap }): RoomConfigInput => {
      const half = Math.max(1, Math.floor(k / 2));
      const stakes =
        game === 'stud' || game === 'stud8' || game === 'razz'
          ? { smallBet: k, bringIn: Math.max(1, Math.floor(k / 3)) }
          : game === 'shortdeck'
            ? { bigBlind: k }
            : { smallBlind: half, bigBlind: k };
      return {
        game,
        stakes,
        ...(buyIn ? { buyIn: { min: k * buyIn.min, max: k * buyIn.max } } : {}),
        ...(cap !== null ? { rake: { percent: 5, cap } } : {}),
      };
    });

  it('reads back every config it accepts, however large its amounts', () => {
    let accepted = 0;
    fc.assert(
      fc.property(hugeInput, (raw) => {
        const r = safeParseRoomConfig(raw);
        if (!r.success) return;
        accepted++;
        const stored = JSON.parse(JSON.stringify(r.config)) as unknown;
        const again = safeParseRoomConfig(stored);
        expect(again.success, JSON.stringify(raw)).toBe(true);
        if (again.success) expect(again.config).toEqual(r.config);
      }),
      { numRuns: 2000, seed: 13 },
    );
    expect(accepted).toBeGreaterThan(50);
  });

  it('refuses blinds whose default buy-in would leave the safe-integer range', () => {
    const raw = { stakes: { smallBlind: 50_000_000_000_000, bigBlind: 100_000_000_000_000 } };
    expect(issuesOf(raw)).toMatchObject({ 'buyIn.max': expect.stringMatching(/above the 9007199254740991 chips/) });
    // A big bet of two small bets is derived too.
    expect(issuesOf({ game: 'stud', stakes: { smallBet: 2 ** 52, bringIn: 1 } })).toMatchObject({
      'stakes.bigBet': expect.stringMatching(/comes to 9007199254740992 chips/),
    });
  });

  it(`holds every amount of a new room to ${ROOM_CHIPS_MAX} chips, given or derived`, () => {
    const paths = (input: RoomConfigInput) => newRoomIssues(parseRoomConfig(input)).map((i) => i.path);
    expect(paths({ stakes: { smallBlind: 5_000_000, bigBlind: 10_000_000 } })).toEqual([]);
    // 10^10 big blind: the default maximum buy-in (100 big blinds) is 10^12, still allowed ...
    expect(paths({ stakes: { smallBlind: 5e9, bigBlind: 1e10 } })).toEqual([]);
    // ... one more chip on the big blind and it is not.
    expect(paths({ stakes: { smallBlind: 5e9, bigBlind: 1e10 + 1 } })).toEqual(['buyIn.max']);
    expect(paths({ stakes: { smallBlind: 1, bigBlind: 2 }, rake: { percent: 5, cap: ROOM_CHIPS_MAX + 1 } })).toEqual([
      'rake.cap',
    ]);
    expect(
      paths({
        game: 'horse',
        stakes: { smallBlind: 1, bigBlind: 2 },
        rotation: {
          order: [
            { game: 'holdem', limit: 'fl', stakes: { smallBet: 2, bigBet: ROOM_CHIPS_MAX * 2 } },
            { game: 'razz' },
          ],
        },
      }),
    ).toContain('rotation.order.0.stakes.bigBet');
  });
});
