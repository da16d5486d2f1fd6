import type { Logger } from '@felt/platform';
import { ApiErrorCode, LobbyError } from './errors.js';
import type { History } from './history.js';

/** What the hand-history routes read: a page of hands, one hand, its reveal record, OHH and PHH. */
export type HistoryReader = Pick<History, 'list' | 'get' | 'reveal' | 'ohh' | 'phh'>;

/**
 * Hand history read from a Postgres replica (DATABASE_REPLICA_URL), the primary standing behind it:
 * - a replica that fails (down, unreachable, a query cancelled by its recovery) is not the player's
 *   problem: the same read goes to the primary, and it is logged (`history_replica_failed`);
 * - a hand the replica does not have yet (replication lag: the persister wrote it a moment ago) is
 *   looked up on the primary before it is called not found, so a hand you just played opens.
 * A refusal the primary would give too (a bad cursor, an export the hand cannot have) is the answer.
 * A page of the list may lag the primary by the replica's delay; the next page or refresh catches up.
 */
export class ReplicaHistory implements HistoryReader {
  constructor(
    private readonly replica: History,
    private readonly primary: History,
    private readonly logger: Logger,
    /** Counts each read the replica could not serve, by why (`failed`, `lagging`). */
    private readonly onFallback: (reason: 'failed' | 'lagging') => void = () => undefined,
  ) {}

  list(...args: Parameters<History['list']>): ReturnType<History['list']> {
    return this.read('list', (h) => h.list(...args));
  }

  get(...args: Parameters<History['get']>): ReturnType<History['get']> {
    return this.read('get', (h) => h.get(...args));
  }

  reveal(...args: Parameters<History['reveal']>): ReturnType<History['reveal']> {
    return this.read('reveal', (h) => h.reveal(...args));
  }

  ohh(...args: Parameters<History['ohh']>): ReturnType<History['ohh']> {
    return this.read('ohh', (h) => h.ohh(...args));
  }

  phh(...args: Parameters<History['phh']>): ReturnType<History['phh']> {
    return this.read('phh', (h) => h.phh(...args));
  }

  private async read<T>(what: string, query: (h: History) => Promise<T>): Promise<T> {
    try {
      return await query(this.replica);
    } catch (err) {
      if (err instanceof LobbyError) {
        if (err.code !== ApiErrorCode.HAND_NOT_FOUND) throw err;
        this.onFallback('lagging');
      } else {
        this.onFallback('failed');
        this.logger.warn(
          { event: 'history_replica_failed', read: what, err },
          'the history replica failed; reading the primary',
        );
      }
      return query(this.primary);
    }
  }
}
