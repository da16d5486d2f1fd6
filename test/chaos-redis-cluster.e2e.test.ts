// The chaos run (scripts/chaos/run.ts, `npm run chaos -- --redis-cluster`) with every service on a
// 3-master Redis Cluster of its own, each master with a replica: workers SIGKILLed and restarted, an
// owner SIGSTOPped past its lease, gateways SIGKILLed and replaced, the persister SIGKILLed mid-batch,
// Postgres stopped and started again, and Redis masters, in turn, failed over to their replicas
// (`CLUSTER FAILOVER`: the slots move under a new epoch, every client of the old master is moved) and
// crashed (SIGKILL: the cluster promotes the replica, the dead node comes back as its replica). The
// workers wait for a replica (FELT_REDIS_WAIT_REPLICAS=1), so a crash loses nothing acknowledged.
// SDK bots play throughout. No acked action lost, no chip created or destroyed, no stale write
// accepted, every client converged, the audit clean.
import { describe, expect, it } from 'vitest';
import { chaosFailed, chaosLine, runChaos } from '../scripts/chaos/run.js';

describe('chaos on a Redis Cluster', () => {
  it(
    '45 s of every fault kind, Redis masters failing over and crashing: lost_actions=0 chips_delta=0 stale_writes=0 unconverged=0 audit=ok',
    { timeout: 400_000 },
    async ({ onTestFailed }) => {
      const lines: string[] = [];
      onTestFailed(() => {
        console.error(`chaos: the run's last log lines\n${lines.slice(-80).join('\n')}`);
      });
      const report = await runChaos({
        seconds: 45,
        tables: 8,
        redisCluster: true,
        killEveryMs: 6_000,
        pauseEveryMs: 15_000,
        gatewayEveryMs: 15_000,
        persisterEveryMs: 15_000,
        redisEveryMs: 12_000,
        postgresEveryMs: 25_000,
        seed: 21,
        log: (l) => lines.push(l),
      });
      const line = chaosLine(report);
      expect(line, `${line}\n${report.problems.slice(0, 60).join('\n')}\n${lines.slice(-15).join('\n')}`).toMatch(
        / lost_actions=0 chips_delta=0 stale_writes=0 unconverged=0 audit=ok$/,
      );
      expect(chaosFailed(report)).toBe(false);
      expect(report.faults.redis, line).toBeGreaterThanOrEqual(2);
      expect(lines.filter((l) => / failed over to \d+$/.test(l)).length, line).toBeGreaterThanOrEqual(1);
      expect(lines.filter((l) => / crashed; its replica \d+ took over/.test(l)).length, line).toBeGreaterThanOrEqual(1);
      expect(report.faults.link).toBe(0);
      expect(report.kills, line).toBeGreaterThanOrEqual(2);
      expect(report.faults.gateway).toBeGreaterThanOrEqual(1);
      expect(report.faults.persister).toBeGreaterThanOrEqual(1);
      expect(report.faults.postgres).toBeGreaterThanOrEqual(1);
      expect(report.hands).toBeGreaterThan(30);
      expect(report.ackedActions).toBeGreaterThan(60);
      expect(report.voided).toBe(0);
    },
  );
});
