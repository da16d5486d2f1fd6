import type { Logger } from '@felt/platform';

/** At most this many row ids are remembered, so each is logged once (the set starts over past it). */
const LOGGED_MAX = 1_000;

/**
 * The warning for a stored row whose config does not parse (written before a bound existed, or by
 * hand): logged once per row, which is then treated as absent, so it takes down only itself and never
 * a list or a join. Rooms and tournaments share it.
 */
export class UnreadableRows {
  private readonly logged = new Set<string>();

  constructor(
    private readonly logger: Logger,
    private readonly what: 'room' | 'tournament',
  ) {}

  report(id: string, issues: readonly unknown[]): void {
    if (this.logged.has(id)) return;
    if (this.logged.size >= LOGGED_MAX) this.logged.clear();
    this.logged.add(id);
    this.logger.warn(
      { event: `${this.what}_config_unreadable`, [`${this.what}Id`]: id, issues: issues.slice(0, 5) },
      `${this.what} ${id} has a stored config that does not parse; skipping it`,
    );
  }
}
