import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { CheckpointCounters } from './adapters/counted-checkpoints.js';

export interface WorkerMetrics {
  readonly commands: Counter<'type' | 'result'>;
  readonly commandSeconds: Histogram<'type'>;
  readonly gatewayStreams: Gauge;
  readonly ringChanges: Counter;
  readonly hands: Counter<'event'>;
  readonly handSeconds: Histogram;
  /** What the persister did with this cluster's jobs (P persist-outcomes), by kind and outcome. */
  readonly persistOutcomes: Counter<'kind' | 'outcome'>;
  /** Tournament RPCs this worker answered: orders for its tables, reports for its directors. */
  readonly tournamentMessages: Counter<'kind' | 'result'>;
  /** The tables' checkpoint saves (countedCheckpoints). */
  readonly checkpoints: CheckpointCounters;
}

export function createWorkerMetrics(
  registry: Registry,
  liveTables: () => number,
  liveDirectors: () => number = () => 0,
): WorkerMetrics {
  new Gauge({
    name: 'felt_worker_tournament_directors',
    help: 'Tournament directors running on this worker',
    registers: [registry],
    collect() {
      this.set(liveDirectors());
    },
  });
  new Gauge({
    name: 'felt_worker_live_tables',
    help: 'Table actors in memory on this worker',
    registers: [registry],
    collect() {
      this.set(liveTables());
    },
  });
  return {
    commands: new Counter({
      name: 'felt_worker_commands_total',
      help: 'Gateway requests by type and result (ok, not_owner, or the error code)',
      labelNames: ['type', 'result'] as const,
      registers: [registry],
    }),
    commandSeconds: new Histogram({
      name: 'felt_worker_command_duration_seconds',
      help: 'Time from a request reaching the worker to its ack or error, queueing in the table mailbox included',
      labelNames: ['type'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    gatewayStreams: new Gauge({
      name: 'felt_worker_gateway_streams',
      help: 'Open Connect streams from gateways',
      registers: [registry],
    }),
    ringChanges: new Counter({
      name: 'felt_worker_ring_changes_total',
      help: 'Ring membership changes this worker observed',
      registers: [registry],
    }),
    hands: new Counter({
      name: 'felt_worker_hands_total',
      help: 'Hands by lifecycle event: started, completed, aborted (no deal), voided, and clock timeouts',
      labelNames: ['event'] as const,
      registers: [registry],
    }),
    handSeconds: new Histogram({
      name: 'felt_worker_hand_duration_seconds',
      help: 'From the deal to the hand result',
      buckets: [1, 2, 5, 10, 20, 30, 60, 120, 300, 600],
      registers: [registry],
    }),
    persistOutcomes: new Counter({
      name: 'felt_worker_persist_outcomes_total',
      help: 'Persister outcomes heard on persist-outcomes: kind (hand, cash_out) and outcome (written, duplicate, waiting, retrying, failed, pending, paid, mismatch)',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    }),
    tournamentMessages: new Counter({
      name: 'felt_worker_tournament_messages_total',
      help: 'Tournament RPCs answered: kind (seat, remove, told_moved, deal, info, close, hand_ended, invalid) and result (done, not_owner, denied, or the error code)',
      labelNames: ['kind', 'result'] as const,
      registers: [registry],
    }),
    checkpoints: {
      saves: new Counter({
        name: 'felt_worker_checkpoints_total',
        help: "Tables' checkpoint saves (one per commit) by result: saved, stale_epoch (refused), failed",
        labelNames: ['result'] as const,
        registers: [registry],
      }),
      bytes: new Counter({
        name: 'felt_worker_checkpoint_bytes_total',
        help: "State text written by the tables' checkpoint saves that stood, in bytes",
        registers: [registry],
      }),
    },
  };
}
