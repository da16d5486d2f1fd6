import { persistOutcomeSchema, redisKeys, type ChannelSubscriber, type Logger } from '@felt/platform';
import type { Counter } from 'prom-client';
import type { z } from 'zod';

/** What the persister publishes after each job (docs/dev/money-flows.md §6). */
export type PersistOutcomeMessage = z.infer<typeof persistOutcomeSchema>;

export interface PersistOutcomeSinks {
  readonly counter: Counter<'kind' | 'outcome'>;
  readonly logger: Logger;
  /** Only outcomes of tables this returns true for are counted and logged (this worker's, by the ring). */
  readonly owns?: (tableId: string) => boolean;
  /** Every outcome heard, of any table (before `owns`). */
  readonly heard?: (outcome: PersistOutcomeMessage) => void;
}

/**
 * Counts one outcome, and logs the ones an operator must see: a `failed` job holds back every later
 * hand of its table until someone resolves it; a `mismatch` cash-out paid nothing.
 */
export function recordPersistOutcome(raw: string, sinks: PersistOutcomeSinks): PersistOutcomeMessage | null {
  let outcome: PersistOutcomeMessage;
  try {
    outcome = persistOutcomeSchema.parse(JSON.parse(raw));
  } catch {
    sinks.logger.warn({ channel: redisKeys('').persistOutcomes }, 'ignoring malformed persist outcome');
    return null;
  }
  sinks.heard?.(outcome);
  if (sinks.owns !== undefined && !sinks.owns(outcome.room_id)) return null;
  sinks.counter.inc({ kind: outcome.kind, outcome: outcome.outcome });
  const fields = {
    event: 'persist_outcome',
    kind: outcome.kind,
    id: outcome.id,
    tableId: outcome.room_id,
    ...(outcome.hand_no !== undefined ? { handNo: outcome.hand_no } : {}),
    outcome: outcome.outcome,
    attempts: outcome.attempts,
    ...(outcome.error !== undefined ? { error: outcome.error } : {}),
  };
  if (outcome.outcome === 'failed') {
    sinks.logger.error(fields, 'the persister gave up on a job: later hands of this table wait for an operator');
  } else if (outcome.outcome === 'mismatch') {
    sinks.logger.error(fields, 'a cash-out did not match the escrow: nothing was paid');
  } else if (outcome.outcome === 'retrying') {
    sinks.logger.warn(fields, 'the persister will retry a job');
  } else {
    sinks.logger.debug(fields, 'persist outcome');
  }
  return outcome;
}

/** Subscribes to `P persist-outcomes`; returns the unsubscribe function. */
export async function watchPersistOutcomes(
  subscriber: ChannelSubscriber,
  prefix: string,
  sinks: PersistOutcomeSinks,
): Promise<() => Promise<void>> {
  return subscriber.subscribe(redisKeys(prefix).persistOutcomes, (message) => {
    recordPersistOutcome(message, sinks);
  });
}
