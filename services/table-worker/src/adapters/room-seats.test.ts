import { describe, expect, it } from 'vitest';
import { seatCountOf } from './room-seats.js';

describe('seatCountOf', () => {
  it('reads seats from a RoomConfig', () => {
    expect(seatCountOf({ game: 'holdem', seats: 9 }, [])).toBe(9);
  });

  it('never hides an occupied seat, and survives a config that no longer parses', () => {
    expect(seatCountOf({ game: 'holdem', seats: 2 }, [{ seat: 5 }])).toBe(5);
    expect(seatCountOf({ seats: 4, legacy: true }, [{ seat: 1 }])).toBe(4);
    expect(seatCountOf(null, [{ seat: 3 }])).toBe(3);
  });
});
