import type { HandCompletedJob } from '@felt/platform';

export type WriteResult = 'written' | 'duplicate';

/**
 * Where completed hands go. Writing the same hand id twice must change nothing the second time:
 * BullMQ retries and replays jobs, and a worker may enqueue a hand again after failover.
 */
export interface HandStore {
  write(hand: HandCompletedJob): Promise<WriteResult>;
}
