import { randomUUID } from 'node:crypto';
import { runAudit, type AuditReport, type PrismaClient } from '@felt/db';
import { liveTableMoneyReader, redisKeys, type Logger, type Redis, type Registry } from '@felt/platform';
import { Gauge } from 'prom-client';

export interface ScheduledAuditOptions {
  readonly prisma: PrismaClient;
  readonly redis: Redis;
  readonly prefix: string;
  /** Jobs in the hands queue's failed set. */
  readonly failedJobs: () => Promise<number>;
  /** How often the cluster audits its money (one persister replica per period); 0: never. */
  readonly everyMs: number;
  readonly logger: Logger;
  readonly registry: Registry;
  /** Tells this replica apart in the lock (default a fresh UUID). */
  readonly instanceId?: string;
}

/** What the last scheduled audit found, as every replica reads it back from Redis. */
export interface LastAudit {
  /** Unix time (s) it finished. */
  readonly finishedAt: number;
  readonly violations: number;
  readonly ok: boolean;
}

/** The most violations logged one by one per run; the rest are counted. */
const LOGGED_VIOLATIONS = 20;

/**
 * The money audit of `npm run audit` (ledger, hands, live stacks in the workers' checkpoints, the
 * hands queue's failed set), run by the persister every `everyMs`. The replicas take turns through a
 * Redis lock held for most of a period, so each period one of them runs it. The result goes to Redis
 * (`P audit:last`), and every replica exports it at scrape time as `felt_audit_violations` and
 * `felt_audit_last_run_timestamp_seconds`, so all of them report the cluster's last audit and a
 * replica that ran an older one cannot keep a stale count alive (alerts FeltAuditFailed, FeltAuditStale).
 */
export class ScheduledAudit {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<AuditReport | null> | undefined;
  private readonly keys: ReturnType<typeof redisKeys>;
  private readonly instanceId: string;

  constructor(private readonly o: ScheduledAuditOptions) {
    this.keys = redisKeys(o.prefix);
    this.instanceId = o.instanceId ?? randomUUID();
    const last = (): Promise<LastAudit | null> => this.last();
    new Gauge({
      name: 'felt_audit_violations',
      help: 'Violations the last scheduled money audit found (the same on every persister replica)',
      registers: [o.registry],
      async collect() {
        this.set((await last().catch(() => null))?.violations ?? 0);
      },
    });
    new Gauge({
      name: 'felt_audit_last_run_timestamp_seconds',
      help: 'Unix time the last scheduled money audit finished, whatever it found (0: none yet)',
      registers: [o.registry],
      async collect() {
        this.set((await last().catch(() => null))?.finishedAt ?? 0);
      },
    });
  }

  /** Starts the schedule: a first turn soon after start, then one per period. */
  start(): void {
    if (this.o.everyMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.turn(), this.o.everyMs);
    this.timer.unref();
    void this.turn();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /**
   * This replica's turn: runs the audit when no replica has this period yet; null when another one
   * has (or Redis did not answer). A failure to run is logged and leaves the last result as it was,
   * so FeltAuditStale fires if it keeps failing.
   */
  async turn(): Promise<AuditReport | null> {
    if (this.running) return this.running;
    this.running = this.tryRun().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async tryRun(): Promise<AuditReport | null> {
    // Held for 90 % of a period: the next period's turn finds it gone even if clocks drift a little.
    const holdMs = Math.max(1_000, Math.floor(this.o.everyMs * 0.9));
    try {
      const took = await this.o.redis.set(this.keys.auditLock, this.instanceId, 'PX', holdMs, 'NX');
      if (took !== 'OK') return null;
      return await this.run();
    } catch (err) {
      this.o.logger.error({ err, event: 'audit_not_run' }, 'scheduled money audit could not run');
      return null;
    }
  }

  /** Runs the audit now and records the result; throws when it cannot run. */
  async run(): Promise<AuditReport> {
    const started = Date.now();
    const reader = liveTableMoneyReader(this.o.redis, this.o.prefix);
    const report = await runAudit(this.o.prisma, {
      liveTable: (roomId) => reader.read(roomId),
      failedJobs: await this.o.failedJobs(),
    });
    const finishedAt = Math.floor(Date.now() / 1000);
    await this.o.redis.hset(this.keys.auditLast, {
      finishedAt: String(finishedAt),
      violations: String(report.issues.length),
      ok: report.ok ? '1' : '0',
    });
    const summary = {
      event: 'audit',
      ok: report.ok,
      violations: report.issues.length,
      hands: report.hands,
      transactions: report.transactions,
      imbalance: report.imbalance.toString(),
      practiceImbalance: report.practiceImbalance.toString(),
      ms: Date.now() - started,
      notes: [...report.notes, ...reader.notes].length,
    };
    if (report.ok) {
      this.o.logger.info(summary, 'money audit passed');
    } else {
      this.o.logger.error(summary, 'money audit found violations');
      for (const issue of report.issues.slice(0, LOGGED_VIOLATIONS)) {
        this.o.logger.error({ event: 'audit_violation', code: issue.code }, issue.message);
      }
    }
    return report;
  }

  /** The last scheduled audit's result from Redis, or null when none ran yet. */
  async last(): Promise<LastAudit | null> {
    const h = await this.o.redis.hgetall(this.keys.auditLast);
    if (!h.finishedAt) return null;
    return { finishedAt: Number(h.finishedAt), violations: Number(h.violations ?? 0), ok: h.ok === '1' };
  }
}
