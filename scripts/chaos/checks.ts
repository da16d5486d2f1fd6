// What a chaos run (and each single-fault test) checks once the faults stop: the measures that must
// be zero. Shared by scripts/chaos/run.ts and the fault tests (test/fault-*.e2e.test.ts).
//   lost_actions  acks the bots received for actions missing from the final hand records (the
//                 hands queue's jobs, or the hands the persister wrote)
//   chips_delta   the system total (wallets + escrow + rake + bankroll + tournament pools + fees − grants)
//                 after minus before
//   unconverged   clients whose final state_hash differs from the owner's (a resync's snapshot)
//   audit         the operator's audit (`npm run audit`) after the persister caught up
import { ledgerTotals } from '@felt/db';
import type { CompletedHandJob } from '@felt/platform';
import type { Redis } from 'ioredis';
import type { Cluster } from '../../test/harness/cluster.js';
import { ACTION_OPS, leaseHolder } from '../../test/harness/failover-play.js';
import { auditCluster, waitPersisted } from '../../test/harness/money.js';
import type { HandRecords } from '../../test/harness/privacy.js';
import { waitFor } from '../../test/harness/wait.js';
import type { Member, TableCrew } from '../../test/sdk/crew.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Every chip the system holds, less what was granted into it: constant unless a chip is made or lost. */
export async function systemTotal(cluster: Cluster): Promise<bigint> {
  const t = await ledgerTotals(cluster.db.prisma);
  return t.wallets + t.escrow + t.rake + t.bankroll + t.tournamentPools + t.fees - t.granted;
}

/** The hand ids the workers voided (logged `hand_voided`): their actions moved no chip. */
export function voidedHands(cluster: Cluster): Set<string> {
  return new Set(
    cluster.workers
      .flatMap((w) => w.proc.jsonLogs())
      .filter((l) => l.event === 'hand_voided')
      .map((l) => String(l.handId)),
  );
}

/**
 * unconverged: each client's state against the owner's snapshot for it (a resync), compared while
 * nothing else changes that view (pause the bots first); a view still moving is asked again.
 */
export async function convergence(
  cluster: Cluster,
  redis: Redis,
  members: readonly Member[],
): Promise<{ unconverged: number; problems: string[] }> {
  const problems: string[] = [];
  let unconverged = 0;
  await Promise.all(
    members.map(async (m) => {
      let last = '';
      let lastError = '';
      for (let attempt = 0; attempt < 8; attempt++) {
        const mine = m.session.state;
        const answer = new Promise<{ hash: string; seq: number } | null>((resolve) => {
          const timer = setTimeout(() => {
            off();
            resolve(null);
          }, 5_000);
          const off = m.client.on('raw', (raw) => {
            const r = raw as {
              type?: string;
              table_id?: string;
              code?: string;
              snapshot?: { state_hash: string; table_seq: number };
            };
            if (r.type === 'error' && r.table_id === m.session.tableId) lastError = r.code ?? 'error';
            if (r.type !== 'resync_response' || r.table_id !== m.session.tableId || !r.snapshot) return;
            clearTimeout(timer);
            off();
            resolve({ hash: r.snapshot.state_hash, seq: r.snapshot.table_seq });
          });
        });
        m.session.resync();
        const owner = await answer;
        if (owner && mine && owner.hash === mine.state_hash) return;
        const holder = await leaseHolder(redis, cluster.prefix, m.session.tableId);
        last =
          `status ${m.session.status}, client seq ${mine?.table_seq ?? '-'}, ` +
          `owner ${owner ? `seq ${owner.seq}` : `no answer${lastError ? ` (${lastError})` : ''}`}, ` +
          `lease ${holder?.workerId ?? 'none'}`;
        await sleep(400);
      }
      unconverged++;
      problems.push(`unconverged: ${m.name} at ${m.session.tableId} (${last})`);
      // What the services last said of this table (kept in the report: a failure here must be
      // explainable from one run's output).
      if (unconverged === 1 || process.env.FELT_CHAOS_DEBUG === '1') {
        for (const p of [...cluster.gateways.map((g) => g.proc), ...cluster.workers.map((w) => w.proc)])
          for (const l of p.logs.filter((x) => x.includes(m.session.tableId)).slice(-6))
            problems.push(`  ${p.name}${p.alive ? '' : ' (dead)'}: ${l.slice(0, 300)}`);
      }
    }),
  );
  return { unconverged, problems };
}

/** The engine's operation for a bot's decision (a complete is a raise in the log). */
function opOf(action: string): string {
  return action === 'complete' ? 'raise' : action === 'all_in' ? 'call' : action;
}

/**
 * lost_actions: every ack a bot received names an action its seat took in that hand's record (the
 * completed-hand job). Hands the workers voided are skipped: none of their actions moved a chip.
 * Call after every crew stopped (their last hands finish when the players leave).
 */
export async function lostActions(
  cluster: Cluster,
  records: HandRecords,
  crews: readonly TableCrew[],
  log: (line: string) => void = () => undefined,
): Promise<{ lost: number; acked: number; problems: string[] }> {
  const problems: string[] = [];
  const voided = voidedHands(cluster);
  let lost = 0;
  let acked = 0;
  for (const crew of crews) {
    for (const m of crew.members) {
      const ackedActions = (m.bot?.actions ?? []).filter((a) => a.outcome === 'acked');
      const byHand = new Map<string, string[]>();
      for (const a of ackedActions) byHand.set(a.handId, [...(byHand.get(a.handId) ?? []), a.action]);
      const jobs = new Map(
        await Promise.all([...byHand.keys()].map(async (h) => [h, await waitForJob(cluster, records, h)] as const)),
      );
      for (const [handId, actions] of byHand) {
        if (voided.has(handId)) continue;
        acked += actions.length;
        const job = jobs.get(handId);
        if (!job) {
          lost += actions.length;
          problems.push(`lost: hand ${handId} has no record (${actions.length} acked actions of ${m.name})`);
          if (process.env.FELT_CHAOS_DEBUG === '1') {
            for (const w of cluster.workers)
              for (const l of w.proc.logs.filter((x) => x.includes(handId)).slice(-10))
                log(`  ${w.id}: ${l.slice(0, 300)}`);
            const st = m.session.state;
            log(
              `  ${m.name} now: hand=${st?.hand_id} phase=${st?.phase} seq=${st?.table_seq}; bot actions ${JSON.stringify(m.bot?.actions.filter((a) => a.handId === handId))}`,
            );
          }
          continue;
        }
        const seat = job.payload.seats.find((s) => s.name === m.name)?.seat;
        const ops = (job.payload.hand.operations as unknown as { type: string; seat?: number }[]).filter(
          (o) => ACTION_OPS.has(o.type) && o.seat === seat,
        );
        const remaining = ops.map((o) => o.type);
        for (const a of actions) {
          const i = remaining.indexOf(opOf(a));
          if (i >= 0) remaining.splice(i, 1);
          else {
            lost++;
            problems.push(`lost: ${m.name} ${a} in hand ${handId}`);
          }
        }
      }
    }
  }
  return { lost, acked, problems };
}

/**
 * A hand's record: its job in the hands queue, or, once the queue no longer has it (Redis lost its
 * data), the copy the persister wrote to Postgres (`hands.payload` is the job). A hand the bots
 * stopped playing is finished by the action clock: give it time.
 */
async function waitForJob(cluster: Cluster, records: HandRecords, handId: string) {
  const persisted = async (): Promise<CompletedHandJob | undefined> => {
    const row = await cluster.db.prisma.hand.findFirst({ where: { handId }, select: { payload: true } });
    return row ? (row.payload as unknown as CompletedHandJob) : undefined;
  };
  try {
    return await waitFor(
      `the record of hand ${handId}`,
      async () => (await records.job(handId)) ?? (await persisted()),
      30_000,
      100,
    );
  } catch {
    return null;
  }
}

/**
 * The operator's audit once the persister has written everything the tables finished: `ok`, or the
 * first violation (`<code>: <message>`), or why it could not run.
 */
export async function auditAfter(cluster: Cluster, roomIds: readonly string[], timeoutMs = 60_000): Promise<string> {
  const prisma = cluster.db.prisma;
  try {
    await waitPersisted(cluster, prisma, roomIds, timeoutMs);
  } catch (err) {
    return `not_persisted: ${(err as Error).message}`;
  }
  const audit = await auditCluster(cluster, prisma);
  const first = audit.report.issues[0];
  if (first) return `${first.code}: ${first.message}`;
  if (!audit.report.ok) return 'not_ok: the audit failed without naming an issue';
  if (audit.sum !== 0n) return `ledger_sum: the accounts sum to ${audit.sum}, not 0`;
  return 'ok';
}

/**
 * The end of a single-fault test (test/fault-*.e2e.test.ts): the bots pause, every client is
 * compared with the owner's state, everyone leaves (so the last hand finishes and is recorded),
 * then the measures: clients not converged, acked actions lost, the audit, and the chips made or
 * lost since `totalBefore`.
 */
export async function settleAndMeasure(
  cluster: Cluster,
  redis: Redis,
  records: HandRecords,
  crew: TableCrew,
  totalBefore: bigint,
): Promise<{
  readonly unconverged: string[];
  readonly lost: { lost: number; acked: number; problems: string[] };
  readonly audit: string;
  readonly chipsDelta: bigint;
}> {
  crew.pauseBots();
  const converged = await convergence(cluster, redis, crew.members);
  await crew.stop();
  const lost = await lostActions(cluster, records, [crew]);
  const audit = await auditAfter(cluster, [crew.tableId]);
  return { unconverged: converged.problems, lost, audit, chipsDelta: (await systemTotal(cluster)) - totalBefore };
}
