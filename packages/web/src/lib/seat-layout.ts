// Where seats sit around the oval. The hero always sits at the bottom centre, and play goes
// clockwise on screen (the next seat is to the hero's left), as at a real table.

export interface Point {
  /** Percent of the table's width, from the left. */
  readonly x: number;
  /** Percent of the table's height, from the top. */
  readonly y: number;
}

export interface SeatPlacement {
  readonly seat: number;
  /** The seat's plate, on the rail. */
  readonly plate: Point;
  /** Where its current bet sits, between the plate and the middle. */
  readonly bet: Point;
}

const RAIL = { rx: 44, ry: 40 } as const;
const BETS = { rx: 27, ry: 22 } as const;

/**
 * Places `seats` (seat numbers in table order) around the oval with `bottomSeat` at the bottom; a
 * spectator, or a table the hero does not sit at, puts the lowest seat there.
 */
export function placeSeats(seats: readonly number[], bottomSeat: number | null): SeatPlacement[] {
  const ordered = [...seats].sort((a, b) => a - b);
  const n = ordered.length;
  if (n === 0) return [];
  const start = bottomSeat !== null && ordered.includes(bottomSeat) ? ordered.indexOf(bottomSeat) : 0;
  return ordered.map((seat, i) => {
    const k = (i - start + n) % n;
    // Screen angles grow clockwise (y points down): 90° is the bottom, 180° the left.
    const angle = ((90 + (k * 360) / n) * Math.PI) / 180;
    const at = (r: { rx: number; ry: number }): Point => ({
      x: round(50 + r.rx * Math.cos(angle)),
      y: round(50 + r.ry * Math.sin(angle)),
    });
    return { seat, plate: at(RAIL), bet: at(BETS) };
  });
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
