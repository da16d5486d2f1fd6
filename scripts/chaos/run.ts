// The chaos run behind `npm run chaos` and test/chaos.e2e.test.ts: a local cluster of 3 workers and
// 2 gateways (plus lobby and persister), SDK bots playing on many tables, and faults at random
// (scripts/chaos/faults.ts): a worker SIGKILLed and restarted every few seconds, a table's owner
// SIGSTOPped past its lease, a gateway SIGKILLed and replaced, the persister SIGKILLed mid-batch,
// Redis SIGKILLed and restarted from its disk, a worker's link to Redis stalled past its lease. It
// measures what must never happen (scripts/chaos/checks.ts):
//   lost_actions  acks the bots received for actions missing from the final hand records
//   chips_delta   the system total (wallets + escrow + rake + bankroll + tournament pools + fees −
//                 grants, Postgres) after minus before
//   stale_writes  checkpoints written with an epoch older than one already seen (accepted stale writes)
//   unconverged   clients whose final state_hash differs from the owner's (a resync's snapshot)
//   audit         the operator's audit once the persister caught up: ok or the first violation
// With `redis` among the faults the run uses a Redis of its own (a redis-server on a spare port), and
// with `postgres` a Postgres of its own (initdb in a temp directory, a spare port). With `redisCluster`
// (`npm run chaos -- --redis-cluster`) every service runs on a 3-master Redis Cluster of the run's own,
// each master with a replica, and the `redis` fault fails a master over to its replica or crashes it.
import { randomBytes } from 'node:crypto';
import { createRedis } from '@felt/platform';
import { Cluster, type WorkerHandle } from '../../test/harness/cluster.js';
import { CheckpointWatch } from '../../test/harness/failover-play.js';
import { HandRecords } from '../../test/harness/privacy.js';
import { seededRandom, TableCrew } from '../../test/sdk/crew.js';
import { auditAfter, convergence, lostActions, systemTotal } from './checks.js';
import { PrivatePostgres } from '../../test/harness/private-postgres.js';
import { PrivateRedis } from '../../test/harness/private-redis.js';
import { PrivateRedisCluster } from '../../test/harness/private-redis-cluster.js';
import {
  FAULT_KINDS,
  FaultListError,
  killGateway,
  killPersister,
  pauseOwner,
  POSTGRES_DOWNTIME_MS,
  restartPostgres,
  stallLink,
  type FaultKind,
} from './faults.js';

/**
 * The most one phase after the faults may take. A phase that hangs (an await nobody answers) fails the
 * run naming itself, instead of leaving it to the caller's timeout with nothing said: a clean-clone
 * run once hung to the test's 400 s timeout with no line to read.
 */
const PHASE_MS = 90_000;

async function within<T>(what: string, ms: number, p: Promise<T>, log: (line: string) => void): Promise<T> {
  log(`chaos: waiting for ${what}`);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      log(`chaos: ${what} did not finish within ${ms} ms`);
      reject(new Error(`chaos: ${what} did not finish within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([p, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ChaosOptions {
  readonly seconds: number;
  readonly tables?: number;
  readonly playersPerTable?: number;
  /** Mean time between worker kills. */
  readonly killEveryMs?: number;
  /** Mean time between owner pauses (SIGSTOP past the lease). */
  readonly pauseEveryMs?: number;
  /** Mean time between gateway kills. */
  readonly gatewayEveryMs?: number;
  /** Mean time between persister kills. */
  readonly persisterEveryMs?: number;
  /** Mean time between Redis restarts (with its data). */
  readonly redisEveryMs?: number;
  /** Mean time between Postgres restarts (each down POSTGRES_DOWNTIME_MS). */
  readonly postgresEveryMs?: number;
  /** Mean time between stalls of a worker's link to Redis. */
  readonly linkEveryMs?: number;
  /** The fault kinds to inject; default all of FAULT_KINDS (without `link` on a Redis Cluster). */
  readonly faults?: readonly FaultKind[];
  /**
   * Runs every service on a 3-master Redis Cluster of the run's own (a replica each), the workers
   * waiting for a replica (FELT_REDIS_WAIT_REPLICAS=1); the `redis` fault then is, in turn, a master
   * failed over to its replica (`CLUSTER FAILOVER`) and a master SIGKILLed (its replica promoted by
   * the cluster, the dead node back as a replica). The `link` fault stalls one proxied connection,
   * and a cluster client talks to every node: it is refused here.
   */
  readonly redisCluster?: boolean;
  readonly seed?: number;
  readonly log?: (line: string) => void;
}

export interface ChaosReport {
  readonly seconds: number;
  /** Worker SIGKILLs and owner SIGSTOPs (the `worker` fault kind). */
  readonly kills: number;
  readonly pauses: number;
  /** Every fault injected, by kind (`worker` counts kills and pauses). */
  readonly faults: Readonly<Record<FaultKind, number>>;
  readonly hands: number;
  readonly resumed: number;
  readonly voided: number;
  /** Voided hands by the reason the worker logged. */
  readonly voidedBy: Readonly<Record<string, number>>;
  readonly lostActions: number;
  readonly chipsDelta: bigint;
  readonly staleWrites: number;
  readonly unconverged: number;
  /** `ok`, or the audit's first violation. */
  readonly audit: string;
  /** Informational: fenced writes the workers refused, acked actions checked, clients checked. */
  readonly refusedStaleWrites: number;
  readonly ackedActions: number;
  readonly clients: number;
  readonly problems: readonly string[];
}

/**
 * `CHAOS seconds=… faults=worker:…,gateway:…,persister:… kills=… pauses=… hands=… resumed=… voided=…
 * lost_actions=… chips_delta=… stale_writes=… unconverged=… audit=…`; `voided` adds its reasons in
 * parentheses when there are any (`voided=2(checkpoint_missing:2)`), `audit` is `ok` or the first
 * violation's code.
 */
export function chaosLine(r: ChaosReport): string {
  const faults = Object.entries(r.faults)
    .map(([k, n]) => `${k}:${n}`)
    .join(',');
  const reasons = Object.entries(r.voidedBy)
    .map(([k, n]) => `${k}:${n}`)
    .join(',');
  const audit = r.audit === 'ok' ? 'ok' : (r.audit.split(':')[0] ?? 'failed');
  return (
    `CHAOS seconds=${r.seconds} faults=${faults} kills=${r.kills} pauses=${r.pauses} hands=${r.hands} ` +
    `resumed=${r.resumed} voided=${r.voided}${reasons ? `(${reasons})` : ''} lost_actions=${r.lostActions} ` +
    `chips_delta=${r.chipsDelta} stale_writes=${r.staleWrites} unconverged=${r.unconverged} audit=${audit}`
  );
}

export function chaosFailed(r: ChaosReport): boolean {
  return r.lostActions !== 0 || r.chipsDelta !== 0n || r.staleWrites !== 0 || r.unconverged !== 0 || r.audit !== 'ok';
}

const LEASE_TTL_MS = 2_500;
const MEMBER_TTL_MS = 3_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => undefined);
  const tables = options.tables ?? 20;
  const players = options.playersPerTable ?? 2;
  const onCluster = options.redisCluster === true;
  const kinds = new Set<FaultKind>(options.faults ?? FAULT_KINDS.filter((k) => !onCluster || k !== 'link'));
  if (onCluster && kinds.has('link')) {
    throw new FaultListError(
      '--faults link: not on a Redis Cluster (a cluster client reaches every node, past the one proxied link)',
    );
  }
  const killEvery = options.killEveryMs ?? 5_000;
  const pauseEvery = options.pauseEveryMs ?? 15_000;
  const gatewayEvery = options.gatewayEveryMs ?? 20_000;
  const persisterEvery = options.persisterEveryMs ?? 20_000;
  const redisEvery = options.redisEveryMs ?? 30_000;
  const postgresEvery = options.postgresEveryMs ?? 30_000;
  const linkEvery = options.linkEveryMs ?? 20_000;
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const random = seededRandom(seed);
  const problems: string[] = [];

  log(
    `chaos: starting 3 workers, 2 gateways, lobby and persister${onCluster ? ' on a 3-master Redis Cluster' : ''} ` +
      `(seed ${seed}; faults ${[...kinds].join(',')})`,
  );
  // Restarting Redis needs one of the run's own, never the shared one.
  const redisCluster = onCluster ? await PrivateRedisCluster.start({ masters: 3, replicasPerMaster: 1 }) : undefined;
  const server = kinds.has('redis') && !redisCluster ? await PrivateRedis.start() : undefined;
  // So does stopping Postgres.
  const pgServer = kinds.has('postgres') ? await PrivatePostgres.start() : undefined;
  const cluster = await Cluster.start({
    workers: 3,
    gateways: 2,
    gatewayServices: true,
    workerLinks: kinds.has('link'),
    ...(server ? { redisUrl: server.url } : {}),
    ...(redisCluster ? { redisUrl: redisCluster.url } : {}),
    ...(pgServer ? { postgresAdminUrl: pgServer.adminUrl } : {}),
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
      // A killed persister's jobs go to its successor once their locks lapse: seconds, not the
      // default 30 s, so a run's hands are written before it ends.
      PERSISTER_LOCK_MS: '4000',
      PERSISTER_STALLED_INTERVAL_MS: '2000',
      // On a cluster a master may crash: a table's checkpoint and a hand's job count only once its
      // replica holds them, so the promoted replica has everything acknowledged.
      ...(redisCluster ? { FELT_REDIS_WAIT_REPLICAS: '1' } : {}),
      LOG_LEVEL: 'info',
    },
  });
  const redis = createRedis(cluster.redisUrl, { name: 'chaos', maxRetriesPerRequest: 20 });
  redis.on('error', () => undefined);
  const records = new HandRecords(cluster.redisUrl, cluster.prefix);
  const crews: TableCrew[] = [];
  let watch: CheckpointWatch | undefined;
  const paused = new Set<WorkerHandle>();
  const down = { gateway: false, persister: false, redis: false, postgres: false, link: false };
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
    const faults: Record<FaultKind, number> = { worker: 0, gateway: 0, persister: 0, redis: 0, postgres: 0, link: 0 };
    let kills = 0;
    let pauses = 0;
    const next = (every: number) => Date.now() + every * (0.5 + random());
    let nextKill = next(killEvery);
    let nextPause = next(pauseEvery);
    let nextGateway = next(gatewayEvery);
    let nextPersister = next(persisterEvery);
    let nextRedis = next(redisEvery);
    let nextPostgres = next(postgresEvery);
    let nextLink = next(linkEvery);
    let nextProgress = started + 5_000;
    const recoveries: Promise<unknown>[] = [];
    const handsSeen = () => crews.reduce((n, c) => n + c.handsCompleted.size, 0);
    const live = () => cluster.workers.filter((w) => w.proc.alive && !paused.has(w));
    const recover = (what: string, p: Promise<unknown>) =>
      recoveries.push(p.catch((err: Error) => problems.push(`${what}: ${err.message}`)));

    while (Date.now() < end) {
      const now = Date.now();
      if (kinds.has('worker') && now >= nextKill) {
        // Tried again shortly when no worker can be killed now (the others are restarting or paused).
        nextKill = now + 500;
        const candidates = live();
        if (candidates.length > 1) {
          nextKill = next(killEvery);
          const victim = candidates[Math.floor(random() * candidates.length)]!;
          kills++;
          faults.worker++;
          log(`chaos: SIGKILL ${victim.id}; restarting it`);
          // Dead before the loop looks for live workers again; back under its name meanwhile.
          await victim.proc.kill('SIGKILL');
          recover(`restart ${victim.id}`, cluster.addWorker(victim.id));
        }
      }
      if (kinds.has('worker') && now >= nextPause) {
        // Tried again shortly when no owner can be paused now (one worker left, or it is restarting).
        nextPause = now + 500;
        const start = Math.floor(random() * tableIds.length);
        const pauseMs = LEASE_TTL_MS + MEMBER_TTL_MS + 1_000;
        for (let k = 0; k < tableIds.length && live().length > 1; k++) {
          const tableId = tableIds[(start + k) % tableIds.length]!;
          const stopped = await pauseOwner(cluster, redis, tableId, live(), pauseMs);
          if (!stopped) continue;
          pauses++;
          faults.worker++;
          nextPause = next(pauseEvery);
          paused.add(stopped.owner);
          log(`chaos: SIGSTOP ${stopped.owner.id} (owner of ${tableId.slice(0, 8)}) for ${pauseMs} ms`);
          recover(
            `pause ${stopped.owner.id}`,
            stopped.resumed.finally(() => {
              paused.delete(stopped.owner);
              log(`chaos: SIGCONT ${stopped.owner.id}`);
            }),
          );
          break;
        }
      }
      if (kinds.has('gateway') && now >= nextGateway) {
        nextGateway = next(gatewayEvery);
        // One gateway at a time, so the clients always have one to reconnect through.
        if (!down.gateway && cluster.gateways.every((g) => g.proc.alive)) {
          const victim = cluster.gateways[Math.floor(random() * cluster.gateways.length)]!;
          faults.gateway++;
          down.gateway = true;
          log(`chaos: SIGKILL gateway ${victim.id}; replacing it on its port`);
          recover(
            `replace gateway ${victim.id}`,
            killGateway(cluster, victim).finally(() => {
              down.gateway = false;
            }),
          );
        }
      }
      if (kinds.has('persister') && now >= nextPersister) {
        nextPersister = next(persisterEvery);
        if (!down.persister) {
          faults.persister++;
          down.persister = true;
          log('chaos: SIGKILL the persister; restarting it');
          recover(
            'restart the persister',
            killPersister(cluster).finally(() => {
              down.persister = false;
            }),
          );
        }
      }
      if (server && now >= nextRedis) {
        nextRedis = next(redisEvery);
        if (!down.redis) {
          faults.redis++;
          down.redis = true;
          log('chaos: SIGKILL Redis; restarting it from its disk');
          recover(
            'restart Redis',
            server.restart({ keepData: true }).finally(() => {
              down.redis = false;
            }),
          );
        }
      }
      if (redisCluster && kinds.has('redis') && now >= nextRedis) {
        nextRedis = next(redisEvery);
        if (!down.redis) {
          faults.redis++;
          down.redis = true;
          const master = random();
          // Turn about: a planned failover, then a crash (the replica promoted by the cluster itself).
          const crash = faults.redis % 2 === 0;
          const fault = crash
            ? redisCluster.crashMaster((n) => Math.floor(master * n))
            : redisCluster.failover((n) => Math.floor(master * n));
          log(`chaos: ${crash ? 'SIGKILL a Redis master' : 'failing a Redis master over to its replica'}`);
          recover(
            crash ? 'crash a Redis master' : 'fail a Redis master over',
            fault
              .then(({ from, to }) =>
                log(
                  `chaos: Redis master ${from} ${crash ? 'crashed; its replica' : 'failed over to'} ${to}${crash ? ' took over, and it came back as a replica' : ''}`,
                ),
              )
              .finally(() => {
                down.redis = false;
              }),
          );
        }
      }
      if (pgServer && now >= nextPostgres) {
        nextPostgres = next(postgresEvery);
        if (!down.postgres) {
          faults.postgres++;
          down.postgres = true;
          log(`chaos: stopping Postgres (immediate) for ${POSTGRES_DOWNTIME_MS} ms`);
          recover(
            'restart Postgres',
            restartPostgres(pgServer).finally(() => {
              down.postgres = false;
            }),
          );
        }
      }
      if (kinds.has('link') && now >= nextLink) {
        // Tried again shortly when no worker's link can stall now.
        nextLink = now + 500;
        const candidates = live();
        if (!down.link && candidates.length > 1) {
          nextLink = next(linkEvery);
          const victim = candidates[Math.floor(random() * candidates.length)]!;
          const stallMs = LEASE_TTL_MS + MEMBER_TTL_MS + 1_000;
          faults.link++;
          down.link = true;
          // Counted as paused meanwhile: it cannot serve, so it is not killed or paused on top.
          paused.add(victim);
          log(`chaos: stalling ${victim.id}'s link to Redis for ${stallMs} ms`);
          recover(
            `stall ${victim.id}'s link`,
            stallLink(cluster, victim, stallMs).finally(() => {
              down.link = false;
              paused.delete(victim);
            }),
          );
        }
      }
      if (now >= nextProgress) {
        nextProgress = now + 5_000;
        log(
          `chaos: t=${Math.round((now - started) / 1000)}s faults=${JSON.stringify(faults)} hands=${handsSeen()} ` +
            `workers=${live().length} stale_seen=${watch.staleAccepted}`,
        );
      }
      await sleep(100);
    }

    log('chaos: stopping the chaos; letting the cluster settle');
    await within('the recoveries (restarts, resumes, reconnections)', PHASE_MS, Promise.all(recoveries), log);
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
            for (const w of cluster.workers)
              for (const l of w.proc.logs.filter((x) => x.includes(c.tableId)).slice(-15))
                log(`  ${w.id}${w.proc.alive ? '' : ' (dead)'}: ${l.slice(0, 400)}`);
          }
        }),
      ),
    );
    for (const c of crews) c.pauseBots();

    const converged = await within(
      'the convergence check',
      PHASE_MS,
      convergence(
        cluster,
        redis,
        crews.flatMap((c) => c.members),
      ),
      log,
    );
    problems.push(...converged.problems);

    // Every player leaves and every room closes: the clock acts at once for a player who left, so
    // the hand each table is in finishes now and is recorded (with the bots paused it would
    // otherwise wait out every turn clock, and its acked actions would look lost).
    await within('every table closing', PHASE_MS, Promise.all(crews.map((c) => c.stop())), log);

    const lost = await within('the lost-actions check', PHASE_MS, lostActions(cluster, records, crews, log), log);
    problems.push(...lost.problems);

    // Every hand and cash-out is in Postgres before the totals are compared and the audit runs.
    const audit = await within('the audit', PHASE_MS, auditAfter(cluster, tableIds), log);
    if (audit !== 'ok') problems.push(`audit: ${audit}`);
    const totalAfter = await systemTotal(cluster);
    await watch.stop();
    const logs = cluster.workers.flatMap((w) => w.proc.jsonLogs());
    const voidedBy: Record<string, number> = {};
    const voided = new Map<string, string>();
    for (const l of logs) if (l.event === 'hand_voided') voided.set(String(l.handId), String(l.reason));
    for (const reason of voided.values()) voidedBy[reason] = (voidedBy[reason] ?? 0) + 1;
    return {
      seconds: options.seconds,
      kills,
      pauses,
      faults,
      hands: handsSeen(),
      resumed: logs.filter((l) => l.event === 'table_created' && typeof l.resumedHand === 'string').length,
      voided: voided.size,
      voidedBy,
      lostActions: lost.lost,
      chipsDelta: totalAfter - totalBefore,
      staleWrites: watch.staleAccepted,
      unconverged: converged.unconverged,
      audit,
      refusedStaleWrites: logs.filter((l) => l.event === 'stale_write_refused').length,
      ackedActions: lost.acked,
      clients: crews.reduce((n, c) => n + c.members.length, 0),
      problems,
    };
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
    await server?.stop().catch(() => undefined);
    await redisCluster?.stop().catch(() => undefined);
    await pgServer?.stop().catch(() => undefined);
  }
}
