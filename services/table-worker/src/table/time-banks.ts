/**
 * Each player's time bank: what is left of it runs after the action clock and carries across
 * hands. A player never seated here, or seated again, starts with a full one.
 */
export class TimeBanks {
  private readonly banks: Map<string, number>;

  constructor(
    json: Readonly<Record<string, number>>,
    private readonly fullMs: number,
  ) {
    this.banks = new Map(Object.entries(json));
  }

  /** What the player has left (a full bank when the table has none for them). */
  of(userId: string): number {
    return this.banks.get(userId) ?? this.fullMs;
  }

  /** A full bank (a bot seated, or a member seated again). */
  fill(userId: string): void {
    this.banks.set(userId, this.fullMs);
  }

  /** A full bank unless the player kept one from an earlier seat at this table. */
  fillIfNew(userId: string): void {
    if (!this.banks.has(userId)) this.banks.set(userId, this.fullMs);
  }

  /** What is left after a turn that ran `usedMs` into the bank. */
  spend(userId: string, bankAtStart: number, usedMs: number): void {
    this.banks.set(userId, Math.max(0, bankAtStart - usedMs));
  }

  /** Adds `amountMs` back to each of these players' banks, never beyond a full one. */
  refill(userIds: Iterable<string>, amountMs: number): void {
    if (amountMs <= 0) return;
    for (const id of userIds) this.banks.set(id, Math.min(this.fullMs, this.of(id) + amountMs));
  }

  forget(userId: string): void {
    this.banks.delete(userId);
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries(this.banks);
  }
}
