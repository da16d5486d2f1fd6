// The chaos run behind `npm run chaos` and test/chaos.e2e.test.ts (issue 8): a local cluster of 3
// workers and 2 gateways (plus lobby and persister), SDK bots playing on many tables, a worker
// SIGKILLed and restarted every few seconds, and now and then a table's owner SIGSTOPped past its
// lease and SIGCONTed. It measures what must never happen:
//   lost_actions  acks the bots received for actions missing from the final hand records
//   chips_delta   the system total (wallets + escrow + rake − grants, Postgres) after minus before
//   stale_writes  checkpoints written with an epoch older than one already seen (accepted stale writes)
//   unconverged   clients whose final state_hash differs from the owner's (a resync's snapshot)
import { randomBytes } from 'node:crypto';
import { ledgerTotals } from '@felt/db';
import { Redis } from 'ioredis';
import { Cluster, type WorkerHandle } from '../../test/harness/cluster.js';
import { ACTION_OPS, CheckpointWatch, leaseHolder } from '../../test/harness/failover-play.js';
import { HandRecords } from '../../test/harness/privacy.js';
import { seededRandom, TableCrew } from '../../test/sdk/crew.js';

export interface ChaosOptions {
  readonly seconds: number;
  readonly tables?: number;
  readonly playersPerTable?: number;
  /** Mean time between worker kills. */
  readonly killEveryMs?: number;
  /** Mean time between owner pauses (SIGSTOP past the lease). */
  readonly pauseEveryMs?: number;
  readonly seed?: number;
  readonly log?: (line: string) => void;
}

export interface ChaosReport {
  readonly seconds: number;
  readonly kills: number;
  readonly pauses: number;
  readonly hands: number;
  readonly resumed: number;
  readonly voided: number;
  readonly lostActions: number;
  readonly chipsDelta: bigint;
  readonly staleWrites: number;
  readonly unconverged: number;
  /** Informational: fenced writes the workers refused, acked actions checked, clients checked. */
  readonly refusedStaleWrites: number;
  readonly ackedActions: number;
  readonly clients: number;
  readonly problems: readonly string[];
}

export function chaosLine(r: ChaosReport): string {
  return (
    `CHAOS seconds=${r.seconds} kills=${r.kills} pauses=${r.pauses} hands=${r.hands} resumed=${r.resumed} ` +
    `voided=${r.voided} lost_actions=${r.lostActions} chips_delta=${r.chipsDelta} stale_writes=${r.staleWrites} ` +
    `unconverged=${r.unconverged}`
  );
}

export function chaosFailed(r: ChaosReport): boolean {
  return r.lostActions !== 0 || r.chipsDelta !== 0n || r.staleWrites !== 0 || r.unconverged !== 0;
}

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const LEASE_TTL_MS = 2_500;
const MEMBER_TTL_MS = 3_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function systemTotal(cluster: Cluster): Promise<bigint> {
  const t = await ledgerTotals(cluster.db.prisma);
  return t.wallets + t.escrow + t.rake + t.bankroll - t.granted;
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => undefined);
  const tables = options.tables ?? 20;
  const players = options.playersPerTable ?? 2;
  const killEvery = options.killEveryMs ?? 5_000;
  const pauseEvery = options.pauseEveryMs ?? 15_000;
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const random = seededRandom(seed);
  const problems: string[] = [];

  log(`chaos: starting 3 workers, 2 gateways, lobby and persister (seed ${seed})`);
  const cluster = await Cluster.start({
    workers: 3,
    gateways: 2,
    lobby: true,
    persister: true,
    env: {
      FELT_MEMBER_TTL_MS: String(MEMBER_TTL_MS),
      FELT_LEASE_TTL_MS: String(LEASE_TTL_MS),
      FELT_LEASE_WAIT_MS: '2000',
      FELT_ACTION_MS: '6000',
      FELT_TIME_BANK_MS: '0',
      FELT_WARNING_MS: '1000',
      FELT_HAND_PAUSE_MS: '1500',
      FELT_FREEZE_AFTER_MS: '60000',
      LOG_LEVEL: 'info',
    },
  });
  const redis = new Redis(REDIS_URL);
  const records = new HandRecords(REDIS_URL, cluster.prefix);
  const crews: TableCrew[] = [];
  const workerLogs = (): Record<string, unknown>[] => cluster.workers.flatMap((w) => w.proc.jsonLogs());
  let watch: CheckpointWatch | undefined;
  const paused = new Set<WorkerHandle>();
  try {
    const run = randomBytes(3).toString('hex');
    log(`chaos: seating ${players} SDK bots at each of ${tables} tables`);
    for (let i = 0; i < tables; i++) {
      crews.push(
        await TableCrew.create({
          lobbyUrl: cluster.lobby!.url,
          // Fixed limit: heads-up stacks last long enough that tables keep dealing through the run.
          game: 'holdem',
          limit: 'fl',
          players,
          spectators: 0,
          namePrefix: `c${run}t${i}`,
          seed: seed + i,
        }),
      );
    }
    const tableIds = crews.map((c) => c.tableId);
    watch = new CheckpointWatch(redis, cluster.prefix, () => tableIds);
    watch.start();
    // Everyone at the table before the measurement starts: all buy-ins are in the ledger.
    await Promise.all(crews.map((c) => c.waitHands(1, 60_000)));
    const totalBefore = await systemTotal(cluster);

    const started = Date.now();
    const end = started + options.seconds * 1_000;
    let kills = 0;
    let pauses = 0;
    let nextKill = started + killEvery * (0.5 + random());
    let nextPause = started + pauseEvery * (0.5 + random());
    let nextProgress = started + 5_000;
    const restarts: Promise<unknown>[] = [];
    const handsSeen = () => crews.reduce((n, c) => n + c.handsCompleted.size, 0);
    const live = () => cluster.workers.filter((w) => w.proc.alive && !paused.has(w));

    while (Date.now() < end) {
      const now = Date.now();
      if (now >= nextKill) {
        nextKill = now + killEvery * (0.5 + random());
        const candidates = live();
        if (candidates.length > 1) {
          const victim = candidates[Math.floor(random() * candidates.length)]!;
          await victim.proc.kill('SIGKILL');
          kills++;
          log(`chaos: SIGKILL ${victim.id}; restarting it`);
          // A StatefulSet pod comes back under its own name.
          restarts.push(
            cluster.addWorker(victim.id).catch((err: Error) => problems.push(`restart ${victim.id}: ${err.message}`)),
          );
        }
      }
      if (now >= nextPause) {
        // Tried again shortly when no owner can be paused now (one worker left, or it is restarting).
        nextPause = now + 500;
        // The owner of a random table that has one now.
        const start = Math.floor(random() * tableIds.length);
        let owner: WorkerHandle | undefined;
        let tableId = '';
        for (let k = 0; k < tableIds.length && !owner; k++) {
          tableId = tableIds[(start + k) % tableIds.length]!;
          const holder = await leaseHolder(redis, cluster.prefix, tableId);
          owner = holder ? live().find((w) => w.id === holder.workerId) : undefined;
        }
        if (owner && live().length > 1) {
          pauses++;
          nextPause = now + pauseEvery * (0.5 + random());
          paused.add(owner);
          const pauseMs = LEASE_TTL_MS + MEMBER_TTL_MS + 1_000;
          log(`chaos: SIGSTOP ${owner.id} (owner of ${tableId.slice(0, 8)}) for ${pauseMs} ms`);
          process.kill(owner.proc.pid, 'SIGSTOP');
          setTimeout(() => {
            if (owner.proc.alive) process.kill(owner.proc.pid, 'SIGCONT');
            paused.delete(owner);
            log(`chaos: SIGCONT ${owner.id}`);
          }, pauseMs);
        }
      }
      if (now >= nextProgress) {
        nextProgress = now + 5_000;
        log(
          `chaos: t=${Math.round((now - started) / 1000)}s kills=${kills} pauses=${pauses} hands=${handsSeen()} ` +
            `workers=${live().length} stale_seen=${watch.staleAccepted}`,
        );
      }
      await sleep(100);
    }

    log('chaos: stopping the chaos; letting the cluster settle');
    while (paused.size > 0) await sleep(100);
    await Promise.all(restarts);
    // Every table still deals after the chaos: each plays one more hand (unless a player is out of
    // chips: then it waits for a top-up, which is no failure of the cluster).
    const settleFrom = crews.map((c) => c.handsCompleted.size);
    const busted = (c: TableCrew): boolean =>
      (c.members[0]?.session.state?.seats ?? []).some(
        (s) => s.user_id !== null && s.stack === 0 && s.status !== 'active',
      );
    await Promise.all(
      crews.map((c, i) =>
        c.waitHands(settleFrom[i]! + 1, 60_000).catch((err: Error) => {
          if (busted(c)) return;
          problems.push(`settle: ${err.message}`);
          if (process.env.FELT_CHAOS_DEBUG === '1') {
            for (const m of c.members) {
              const st = m.session.state;
              log(
                `  member ${m.name}: status=${m.session.status} seq=${st?.table_seq} phase=${st?.phase} hand=${st?.hand_id?.slice(0, 8)} actor=${st?.actor} hero=${st?.hero?.seat} token=${st?.hero?.turn_token !== undefined} deadline=${st?.deadline}`,
              );
            }
            void redis.get(`${cluster.prefix}checkpoint:${c.tableId}`).then((raw) => {
              const cp = raw
                ? (JSON.parse(raw) as { epoch: number; tableSeq: number; state: Record<string, unknown> })
                : null;
              const st = cp?.state ?? {};
              log(
                `  checkpoint epoch=${cp?.epoch} seq=${cp?.tableSeq} conns=${JSON.stringify(st.connections)} turn=${JSON.stringify(st.turn)} pending=${st.pending !== null} nextHandAt=${String(st.nextHandAt)} frozenAt=${String(st.frozenAt)} noHumanSince=${String(st.noHumanSince)} now=${Date.now()}`,
              );
            });
            for (const w of cluster.workers)
              for (const l of w.proc.logs.filter((x) => x.includes(c.tableId)).slice(-15))
                log(`  ${w.id}${w.proc.alive ? '' : ' (dead)'}: ${l.slice(0, 400)}`);
          }
        }),
      ),
    );
    for (const c of crews) c.pauseBots();

    // unconverged: each client's state against the owner's snapshot for it (a resync), compared
    // while nothing else changes that view; a view still moving is asked again.
    let unconverged = 0;
    const members = crews.flatMap((c) => c.members);
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

    // Every player leaves and every room closes: the clock acts at once for a player who left, so
    // the hand each table is in finishes now and is recorded (with the bots paused it would
    // otherwise wait out every turn clock, and its acked actions would look lost).
    await Promise.all(crews.map((c) => c.stop()));

    // lost_actions: every ack a bot received names an action its seat took in that hand's record.
    let lostActions = 0;
    let ackedActions = 0;
    const voidedHands = new Set(
      workerLogs()
        .filter((l) => l.event === 'hand_voided')
        .map((l) => String(l.handId)),
    );
    for (const crew of crews) {
      for (const m of crew.members) {
        const acked = (m.bot?.actions ?? []).filter((a) => a.outcome === 'acked');
        const byHand = new Map<string, string[]>();
        for (const a of acked) byHand.set(a.handId, [...(byHand.get(a.handId) ?? []), a.action]);
        const jobs = new Map(
          await Promise.all([...byHand.keys()].map(async (h) => [h, await waitForJob(records, h)] as const)),
        );
        for (const [handId, actions] of byHand) {
          if (voidedHands.has(handId)) continue;
          ackedActions += actions.length;
          const job = jobs.get(handId);
          if (!job) {
            lostActions += actions.length;
            problems.push(`lost: hand ${handId} has no record (${actions.length} acked actions of ${m.name})`);
            if (process.env.FELT_CHAOS_DEBUG === '1') {
              for (const w of cluster.workers)
                for (const l of w.proc.logs.filter((x) => x.includes(handId)).slice(-10))
                  log(`  ${w.id}: ${l.slice(0, 300)}`);
              const st = m.session.state;
              log(
                `  ${m.name} now: hand=${st?.hand_id} phase=${st?.phase} seq=${st?.table_seq}; bot actions ${JSON.stringify(m.bot?.actions.filter((a) => a.handId === handId))}`,
              );
              const seen = crew.members.flatMap((x) => x.session.fairnessHistory?.() ?? []).length;
              log(`  fairness records seen: ${seen}`);
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
              lostActions++;
              problems.push(`lost: ${m.name} ${a} in hand ${handId}`);
            }
          }
        }
      }
    }

    // Every persisted hand is in Postgres before the totals are compared.
    await sleep(1_000);
    const totalAfter = await systemTotal(cluster);
    await watch.stop();
    const logs = workerLogs();
    const report: ChaosReport = {
      seconds: options.seconds,
      kills,
      pauses,
      hands: handsSeen(),
      resumed: logs.filter((l) => l.event === 'table_created' && typeof l.resumedHand === 'string').length,
      voided: voidedHands.size,
      lostActions,
      chipsDelta: totalAfter - totalBefore,
      staleWrites: watch.staleAccepted,
      unconverged,
      refusedStaleWrites: logs.filter((l) => l.event === 'stale_write_refused').length,
      ackedActions,
      clients: members.length,
      problems,
    };
    return report;
  } finally {
    await watch?.stop().catch(() => undefined);
    for (const w of cluster.workers) if (w.proc.alive) process.kill(w.proc.pid, 'SIGCONT');
    for (const c of crews) {
      c.pauseBots();
      for (const m of c.members) m.client.close();
    }
    await records.close().catch(() => undefined);
    redis.disconnect();
    await cluster.stop().catch(() => undefined);
  }
}

/** The engine's operation for a bot's decision (a complete is a raise in the log). */
function opOf(action: string): string {
  return action === 'complete' ? 'raise' : action === 'all_in' ? 'call' : action;
}

/** A hand the bots stopped playing is finished by the action clock: give it time. */
async function waitForJob(records: HandRecords, handId: string) {
  for (let i = 0; i < 300; i++) {
    const job = await records.job(handId);
    if (job) return job;
    await sleep(100);
  }
  return null;
}
