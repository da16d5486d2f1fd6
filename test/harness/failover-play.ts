// Helpers for the failover and chaos suites (docs/architecture.md, Ownership and failover): who
// holds a table's lease, driving a hand action by action through a worker's death, and an
// independent watch on checkpoint epochs.
import { verifyReveal } from '@felt/client';
import type { Redis } from 'ioredis';
import { redisKeys } from '@felt/platform';
import type { Cluster, WorkerHandle } from './cluster.js';
import type { Msg, TableClient } from './table-client.js';
import { waitFor, pause } from './wait.js';

/** Operation types of the engine's hand log that a player's action produces. */
export const ACTION_OPS = new Set(['bring_in', 'discard', 'fold', 'check', 'call', 'bet', 'raise']);

export interface LeaseInfo {
  readonly workerId: string;
  readonly epoch: number;
}

/** `P lease:<tableId>` as the worker writes it: `<workerId>|<instance>|<epoch>`. */
export async function leaseHolder(redis: Redis, prefix: string, tableId: string): Promise<LeaseInfo | null> {
  const v = await redis.get(redisKeys(prefix).lease(tableId));
  if (v === null) return null;
  const [workerId = '', , epoch = '0'] = v.split('|');
  return { workerId, epoch: Number(epoch) };
}

export async function tableEpoch(redis: Redis, prefix: string, tableId: string): Promise<number> {
  return Number((await redis.get(redisKeys(prefix).epoch(tableId))) ?? 0);
}

export function workerById(cluster: Cluster, id: string): WorkerHandle | undefined {
  return cluster.workers.find((w) => w.id === id && w.proc.alive);
}

/** Polls until `check` returns something other than null, undefined or false (harness `waitFor`). */
export function eventually<T>(
  what: string,
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 30_000,
  everyMs = 50,
): Promise<T> {
  return waitFor(
    what,
    async () => {
      const v = await check();
      return v === null ? undefined : v;
    },
    timeoutMs,
    everyMs,
  );
}

/** The action a patient player takes: bring in, check when free, otherwise call. Never folds. */
export function calmAction(state: NonNullable<TableClient['state']>): { action: string } | null {
  const v = state.hero?.valid_actions;
  if (!v) return null;
  if (v.discard !== null) return { action: 'discard' };
  if (v.bring_in !== null) return { action: 'bring_in' };
  if (v.check) return { action: 'check' };
  if (v.call !== null) return { action: 'call' };
  return null;
}

export interface AckedAction {
  readonly commandId: string;
  readonly handId: string;
  readonly seat: number;
  readonly action: string;
}

/** The client whose snapshot shows its turn, with the action it takes; null when nobody may act. */
function turnOf(clients: readonly TableClient[]): { c: TableClient; choice: { action: string } } | null {
  const c = clients.find((x) => x.state?.hero?.turn_token !== undefined && x.state.actor === x.state.hero.seat);
  const choice = c ? calmAction(c.state!) : null;
  return c && choice ? { c, choice } : null;
}

/**
 * Plays the next action of the hand: the client whose snapshot shows its turn acts. A command
 * refused as unavailable (the table is moving) is sent again with the same command_id, which the
 * table answers once. Returns the acked action, or null when nobody is to act.
 */
export async function playOneAction(clients: readonly TableClient[], timeoutMs = 30_000): Promise<AckedAction | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const turn = turnOf(clients);
    if (!turn) return null;
    const { c, choice } = turn;
    const s = c.state!;
    const token = s.hero!.turn_token!;
    const frame = {
      type: 'action',
      hand_id: s.hand_id,
      turn_token: token,
      ...choice,
      ...(choice.action === 'discard' ? { cards: [] } : {}),
    };
    const commandId = c.command(frame);
    for (;;) {
      const answer: Msg = await c.answer(commandId, Math.max(1_000, deadline - Date.now()));
      if (answer.type === 'ack') {
        // The ack is a reply and the action's events come on the stream, before or after it
        // (docs/protocol.md): the next turn is read once this player's stream shows the turn over.
        await waitFor(
          'the acked action on the player’s stream',
          () => c.state?.hero?.turn_token !== token || c.state.hand_id !== s.hand_id,
          Math.max(1_000, deadline - Date.now()),
        );
        return { commandId, handId: s.hand_id!, seat: s.hero!.seat, action: choice.action };
      }
      if (answer.code !== 'unavailable' || Date.now() > deadline) {
        throw new Error(`action refused: ${JSON.stringify(answer)}`);
      }
      // The same command again: applied at most once, answered the same way.
      await pause(250, 'a client backs off before it retries an unavailable table');
      const i = c.errors.indexOf(answer);
      if (i >= 0) c.errors.splice(i, 1);
      c.send({ ...frame, table_id: c.tableId, command_id: commandId });
    }
  }
}

/**
 * One step of playing a hand out until `over()`: the player whose turn it is acts (playOneAction);
 * when nobody may act, it waits for a turn or for `over()`, never for a fixed time. With
 * `backOffOnRefusal`, an action that failed (refused, or unanswered while the table moved between
 * owners) is given up after a back-off and the step returns null, so the caller plays on.
 */
export async function playStep(
  clients: readonly TableClient[],
  over: () => boolean,
  options: { readonly actionTimeoutMs: number; readonly backOffOnRefusal?: boolean },
): Promise<AckedAction | null> {
  let acked: AckedAction | null;
  try {
    acked = await playOneAction(clients, options.actionTimeoutMs);
  } catch (err) {
    if (!options.backOffOnRefusal) throw err;
    await pause(250, 'an action failed while the table moved: the player backs off before it acts again');
    return null;
  }
  if (acked === null) {
    await waitFor('a turn to play, or the end of the hand', () => over() || turnOf(clients) !== null, 30_000);
  }
  return acked;
}

/**
 * Plays hand `handId` out through its owner's changes (playStep, backing off a refused action) until
 * its seed_reveal reaches the first client; appends each acked action of that hand to `acked`.
 * Resolves with the reveal.
 */
export async function playToReveal(
  clients: readonly TableClient[],
  handId: string,
  acked: AckedAction[],
): Promise<Msg> {
  const reveal = () => clients[0]!.received.find((m) => m.type === 'seed_reveal' && m.hand_id === handId);
  while (!reveal()) {
    const a = await playStep(clients, () => reveal() !== undefined, {
      actionTimeoutMs: 10_000,
      backOffOnRefusal: true,
    });
    if (a?.handId === handId) acked.push(a);
  }
  return reveal()!;
}

/**
 * Each client's check of a hand's reveal (the fairness verifier): the deck comes from the commitment
 * sent before the deal, with the client's own seed mixed in.
 */
export function revealChecks(clients: readonly TableClient[], handId: string): { ok: boolean; detail: string }[] {
  const first = clients[0]!;
  const commit = first.received.find((m) => m.type === 'seed_commit' && m.hand_id === handId);
  const reveal = first.received.find((m) => m.type === 'seed_reveal' && m.hand_id === handId);
  if (!commit || !reveal) return [{ ok: false, detail: `hand ${handId}: no commitment or no reveal` }];
  return clients.map((c) => {
    const own = c.sentSeeds.get(handId);
    const result = verifyReveal(reveal.reveal, {
      expectedCommit: commit.seed_commit as string,
      ...(own !== undefined && c.state?.hero ? { ownSeed: { seat: c.state.hero.seat, seed: own } } : {}),
    });
    return { ok: result.ok, detail: JSON.stringify(result) };
  });
}

/**
 * An independent check of fencing: reads every watched table's checkpoint envelope (its epoch and
 * table_seq) over and over. A checkpoint whose epoch is lower than one seen before for that table
 * was written by a stale owner after a newer owner wrote: a stale write that was accepted. A
 * table_seq going backwards is counted too.
 */
export class CheckpointWatch {
  private readonly seen = new Map<string, { epoch: number; tableSeq: number }>();
  private readonly counted = new Set<string>();
  staleAccepted = 0;
  seqRegressions = 0;
  samples = 0;
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly tables: () => readonly string[],
  ) {}

  start(everyMs = 40): void {
    // A sample that fails (Redis restarting under a chaos run) is skipped; the next one reads again.
    this.timer = setInterval(() => void this.sample().catch(() => undefined), everyMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sample();
  }

  async sample(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const ids = this.tables();
      if (ids.length === 0) return;
      const keys = ids.map((id) => redisKeys(this.prefix).tableCheckpoint(id));
      // Tables' checkpoints live in different slots of a Redis Cluster: one GET each there.
      const raws = this.redis.isCluster
        ? await Promise.all(keys.map((k) => this.redis.get(k)))
        : await this.redis.mget(...keys);
      ids.forEach((id, i) => {
        const raw = raws[i];
        if (!raw) return;
        // Only the envelope's head: `{"version":1,"tableId":..,"tableSeq":N,"epoch":E,"state":...`.
        const head = raw.slice(0, 200);
        const seq = /"tableSeq":(\d+)/.exec(head);
        const ep = /"epoch":(\d+)/.exec(head);
        if (!seq || !ep) return;
        const now = { epoch: Number(ep[1]), tableSeq: Number(seq[1]) };
        const before = this.seen.get(id);
        const key = `${id}:${now.epoch}:${now.tableSeq}`;
        if (before && !this.counted.has(key)) {
          if (now.epoch < before.epoch) this.staleAccepted++;
          if (now.tableSeq < before.tableSeq) this.seqRegressions++;
          if (now.epoch < before.epoch || now.tableSeq < before.tableSeq) this.counted.add(key);
        }
        if (!before || now.epoch >= before.epoch) this.seen.set(id, now);
        this.samples++;
      });
    } finally {
      this.busy = false;
    }
  }
}
