import type { ResyncReason } from './table-session.js';

/** Counters for tooling (demo, load runner, dashboards). Monotonic; read them, never write. */
export interface ClientStats {
  /** Server messages received (parsed JSON), every kind. */
  messages: number;
  /** Messages that failed @felt/protocol's schemas and were dropped. */
  invalidMessages: number;
  /** Frames that were not JSON. */
  garbageFrames: number;
  /** Sockets opened after the first one. */
  reconnects: number;
  /** Tables joined again because the cluster answered not_joined to a session that was joined. */
  rejoins: number;
  /** resync_request frames sent, for any reason. */
  resyncs: number;
  resyncsByReason: Record<ResyncReason, number>;
  /** table_state snapshots (live or inside resync_response) whose state_hash was checked. */
  hashChecks: number;
  /** …and did not match. */
  hashMismatches: number;
  /** Live messages whose prev_table_seq proved an earlier one lost. */
  lossesDetected: number;
  /** Private data that reached a spectator view, or other impossible states. */
  anomalies: number;
  commandsSent: number;
  /** Re-sends of a pending command with its original command_id. */
  commandRetries: number;
  acks: number;
  refusals: number;
  commandTimeouts: number;
  clientSeedsSent: number;
  handsVerified: number;
  handsFailedVerification: number;
}

export function newClientStats(): ClientStats {
  return {
    messages: 0,
    invalidMessages: 0,
    garbageFrames: 0,
    reconnects: 0,
    rejoins: 0,
    resyncs: 0,
    resyncsByReason: { reconnect: 0, hash_mismatch: 0, loss: 0, anomaly: 0, manual: 0, silence: 0 },
    hashChecks: 0,
    hashMismatches: 0,
    lossesDetected: 0,
    anomalies: 0,
    commandsSent: 0,
    commandRetries: 0,
    acks: 0,
    refusals: 0,
    commandTimeouts: 0,
    clientSeedsSent: 0,
    handsVerified: 0,
    handsFailedVerification: 0,
  };
}
