import { ErrorCode } from '@felt/protocol';
import { CheckpointCorruptError, StaleEpochError, type CheckpointMark, type CheckpointStore } from '../ports.js';
import type { LiveTableJSON } from '../table/live-table-json.js';
import type { ConnectionState } from '../table/seating.js';
import type { MoneyJobSink, MoneySeed, MoneySeedSource } from '../money/ports.js';
import { withHandEnqueue, type UnconfirmedHands } from '../money/unconfirmed-hands.js';
import { NotOwnerError, type HeldLease, type TableOwnership } from '../ownership/table-ownership.js';
import { TableActor, type TableActorDeps } from './table-actor.js';
import { TableError, tableNotFound } from './table-error.js';

export interface TableDirectoryOptions extends TableActorDeps {
  /** A table with no connection for this long is dropped from memory (its checkpoint stays). */
  readonly idleMs: number;
  /**
   * The table leases (docs/architecture.md, "Ownership and failover"). With it, an actor exists only
   * while this worker holds its table's lease, and every checkpoint is fenced by the lease's epoch.
   * Without it (single-process tests), checkpoints are written unfenced.
   */
  readonly ownership?: TableOwnership;
  /** During a drain: the worker that should take a table this worker no longer accepts. */
  readonly successorOf?: (tableId: string) => string | undefined;
  /**
   * Whether this worker should still serve the table (it is the table's ring owner). A table whose
   * lease was lost while this stays true is taken again at once under a new epoch (when the lease is
   * free), and the connections it had are attached again, so that they are not left dangling.
   */
  readonly shouldServe?: (tableId: string) => boolean;
  /** The worker the ring names as the table's owner (the hint of a NOT_OWNER), if any. */
  readonly ringOwnerOf?: (tableId: string) => string | undefined;
  /** Whether a gateway stream is still open here (connections on a closed one are not re-attached). */
  readonly streamOpen?: (streamId: string) => boolean;
  /**
   * A table rebuilt from the room rows (its checkpoint lost) waits this long at most for the
   * persister to write the hands it completed before; meanwhile, and after, it is unavailable.
   * Default 20 s.
   */
  readonly persistWaitMs?: number;
  /**
   * The hand jobs this worker queued that the persister has not confirmed: a table rebuilt from the
   * room rows sends the ones the rows lack again (Redis lost the queue with the checkpoint) and waits
   * for them to be written before it deals on.
   */
  readonly unconfirmed?: UnconfirmedHands;
}

/** The reason of the NotOwnerError readopt gives itself while the ring names another worker. */
const RING_ELSEWHERE = 'the ring names another worker';
/** How often a table lost with its lease is tried again (a lease TTL apart) before its connections are left. */
const READOPT_ATTEMPTS = 10;
/**
 * A Postgres write under `lease`: refused for a stale epoch, the lease is lost (as after a refused
 * checkpoint, and the table's epoch counter raised to what Postgres saw) and the caller gets
 * NOT_OWNER.
 */
async function refusedByPostgres<T>(ownership: TableOwnership, lease: HeldLease, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof StaleEpochError)) throw err;
    await ownership.staleDbWrite(lease, err.current);
    throw new NotOwnerError(lease.tableId, '', 'stale epoch');
  }
}

const PERSIST_POLL_MS = 250;
const QUEUE_POLL_MS = 1_000;
/** Times a rebuilt table reads the rows again when a hand landed between its read and its seal. */
const SEAL_ATTEMPTS = 5;

function isLiveTable(state: unknown, tableId: string): state is LiveTableJSON {
  const s = state as Partial<LiveTableJSON> | null;
  return typeof s === 'object' && s !== null && s.format === 'felt-live-table/1' && s.tableId === tableId;
}

/** Whether a live table is between hands: no hand dealt and unfinished, no seed window open. */
export function atHandBoundary(state: LiveTableJSON): boolean {
  if (state.pending !== null || (state.blind?.pending ?? null) !== null) return false;
  return state.hand === null || state.meta === null || state.meta.endedAt !== null;
}

/** What Redis still holds of a table: its checkpoint, or only its mark, or nothing (`nothing`). */
interface SavedTable {
  readonly tableSeq: number;
  readonly state: unknown;
  readonly events: Parameters<typeof TableActor.restore>[1];
  readonly voided?: string;
  readonly handNo?: number;
  /** Neither checkpoint nor mark: a table never served, or one whose Redis data is gone. */
  readonly nothing: boolean;
}

interface Entry {
  readonly actor: TableActor;
  readonly lease: HeldLease | undefined;
}

/**
 * The live tables of one worker. An actor is created lazily on first use, once this worker holds
 * the table's lease, from its last checkpoint (a hand in progress continues) and the room rows;
 * concurrent first uses share one creation, so a table never has two actors here. A table whose
 * lease is lost (a fenced write refused, a renewal refused or late) is evicted at once.
 */
export class TableDirectory {
  private readonly actors = new Map<string, Entry>();
  private readonly creating = new Map<string, Promise<TableActor>>();
  /** Actors being stopped: a new actor for the same table waits for the old one to finish. */
  private readonly stopping = new Map<string, Promise<void>>();
  /** Tables stopped by a drain and not yet released: refused as unavailable meanwhile. */
  private readonly frozen = new Set<string>();
  /** Leases this worker has claimed the room with: a reload under one is no fresh claim. */
  private readonly claimed = new WeakSet<HeldLease>();
  private closed = false;
  private draining = false;

  constructor(private readonly options: TableDirectoryOptions) {
    options.ownership?.onLost((lease) => {
      const entry = this.actors.get(lease.tableId);
      // Not awaited: the loss may be noticed inside one of this actor's own commands.
      if (entry?.lease === lease) this.evictThenReadopt(lease.tableId, entry.actor, 'lease');
    });
  }

  get size(): number {
    return this.actors.size;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  tableIds(): string[] {
    return [...this.actors.keys()];
  }

  peek(tableId: string): TableActor | undefined {
    return this.actors.get(tableId)?.actor;
  }

  /** The epoch this worker serves the table under, if it does. */
  epochOf(tableId: string): number | undefined {
    return this.actors.get(tableId)?.lease?.epoch;
  }

  /**
   * The table's actor, created if needed. Throws TableError(table_not_found) for an unknown room,
   * NotOwnerError when another worker holds the table's lease (or this one is draining).
   */
  get(tableId: string): Promise<TableActor> {
    if (this.closed) {
      return Promise.reject(new TableError(ErrorCode.UNAVAILABLE, 'this worker is shutting down', tableId));
    }
    const live = this.actors.get(tableId);
    if (live) return Promise.resolve(live.actor);
    if (this.frozen.has(tableId)) {
      return Promise.reject(
        new TableError(ErrorCode.UNAVAILABLE, 'this table is moving to another worker; retry shortly', tableId),
      );
    }
    if (this.draining) {
      return Promise.reject(new NotOwnerError(tableId, this.options.successorOf?.(tableId) ?? '', 'draining'));
    }
    const pending = this.creating.get(tableId);
    if (pending) return pending;
    const creation = this.create(tableId).finally(() => this.creating.delete(tableId));
    this.creating.set(tableId, creation);
    return creation;
  }

  private async create(tableId: string): Promise<TableActor> {
    await this.stopping.get(tableId);
    const ownership = this.options.ownership;
    const lease = ownership ? await ownership.acquire(tableId) : undefined;
    try {
      const [loaded, found] = await Promise.all([this.options.seeds.load(tableId), this.lastCheckpoint(tableId)]);
      if (!loaded || loaded.status === 'closed') throw tableNotFound(tableId);
      const servedBefore = lease && ownership ? (await this.claim(tableId, lease, ownership)) > 0 : false;
      const saved = found.nothing && servedBefore ? this.checkpointGone(tableId) : found;
      const handNo =
        saved.state === null ? await this.resendUnconfirmed(tableId, loaded, saved.handNo, lease) : undefined;
      let seed = saved.state === null ? await this.persistedThrough(tableId, loaded, handNo) : loaded;
      // Built again from the rows after it was served: hands an older owner played past them must
      // never land under the numbers this table is about to deal.
      if (saved.state === null && servedBefore && lease && ownership) {
        seed = await this.sealRebuild(tableId, seed, lease, ownership);
      }
      if (lease && ownership) ownership.check(lease);
      // The ring may have moved the table while it was being loaded (a member joined or left during
      // the lease wait, the claim or the reads). A ring change evicts only the tables live at that
      // moment, so a table published here after it would keep its lease, renewed, while every
      // gateway sends it to the new owner, which cannot take it: unavailable for as long as this
      // worker lives. Checked with no await from here to the table going live: a later change
      // finds it live and evicts it.
      if (this.options.shouldServe && !this.options.shouldServe(tableId)) {
        const owner = this.options.ringOwnerOf?.(tableId) ?? '';
        this.options.logger.info(
          { event: 'table_moved_while_loading', tableId, owner, ...(lease ? { epoch: lease.epoch } : {}) },
          'the ring moved the table while it was loading: not served here, lease given back',
        );
        throw new NotOwnerError(tableId, owner, 'the ring moved the table away');
      }
      const deps: TableActorDeps = lease
        ? {
            ...this.options,
            checkpoints: this.fenced(lease),
            seeds: this.fencedSeeds(lease),
            hands: this.stampedHands(lease),
          }
        : this.options;
      let actor: TableActor;
      let resumedHand: string | undefined;
      if (saved.state !== null && isLiveTable(saved.state, tableId)) {
        if (!atHandBoundary(saved.state))
          resumedHand = saved.state.meta?.handId ?? saved.state.pending?.handId ?? saved.state.blind?.pending?.handId;
        actor = TableActor.restore({ ...saved.state, tableSeq: saved.tableSeq }, saved.events, seed, deps);
      } else {
        actor = TableActor.create(tableId, seed, saved.tableSeq, deps, saved.voided);
      }
      this.actors.set(tableId, { actor, lease });
      this.options.logger.info(
        {
          event: 'table_created',
          tableId,
          tableSeq: saved.tableSeq,
          members: seed.members.length,
          restored: saved.state !== null,
          ...(lease ? { epoch: lease.epoch } : {}),
          ...(saved.voided ? { voidedHand: saved.voided } : {}),
          ...(resumedHand !== undefined ? { resumedHand } : {}),
        },
        'table actor created',
      );
      // Built again from the room rows, the table has none of the attachments its lost checkpoint
      // held, while gateways still hold those connections as attached: they attach them again.
      if (saved.state === null && (servedBefore || !found.nothing)) void this.announceReset(tableId, saved.tableSeq);
      return actor;
    } catch (err) {
      if (lease && ownership) await ownership.release(lease);
      throw err;
    }
  }

  private async announceReset(tableId: string, tableSeq: number): Promise<void> {
    try {
      await this.options.publisher.tableReset(tableId, tableSeq);
    } catch (err) {
      // Unheard, the clients' own silence watch resyncs them (after 25 s).
      this.options.logger.warn({ err, tableId, event: 'table_reset_unpublished' }, 'table reset notice not published');
    }
  }

  /**
   * The room is claimed for the lease's epoch in Postgres before the table is served, so a worker
   * that lost the table can no longer write there even if the new owner has not written yet. A room
   * that already saw a higher epoch means this lease is stale: it is lost, and NOT_OWNER.
   */
  private async claim(tableId: string, lease: HeldLease, ownership: TableOwnership): Promise<number> {
    const claimEpoch = this.options.seeds.claimEpoch?.bind(this.options.seeds);
    if (claimEpoch === undefined) return 0;
    const fresh = !this.claimed.has(lease);
    const before = await refusedByPostgres(ownership, lease, () => claimEpoch(tableId, lease.epoch, fresh));
    this.claimed.add(lease);
    return before;
  }

  /**
   * Redis holds neither checkpoint nor mark of a table that a worker served before (the room saw
   * an epoch): Redis lost its data (a restart without persistence, a failover to a replica that
   * lagged), or the table sat idle past the checkpoint's time to live. The room rows are the truth
   * for money (a hand moves chips only when it is persisted), but table_seq must still only grow
   * for clients that saw the old one: the clock is a floor above anything it held.
   */
  private checkpointGone(tableId: string): SavedTable {
    const tableSeq = this.options.clock.now();
    this.options.logger.warn(
      { event: 'checkpoint_gone', tableId, tableSeq },
      'no checkpoint or mark of a table served before (Redis lost its data, or it was idle past the checkpoint TTL): the table restarts from the room rows',
    );
    return { tableSeq, state: null, events: [], nothing: false };
  }

  /** The checkpoint store as one actor sees it: every write fenced by its lease's epoch. */
  private fenced(lease: HeldLease): CheckpointStore {
    const store = this.options.checkpoints;
    const ownership = this.options.ownership!;
    return {
      load: (id) => store.load(id),
      save: async (id, tableSeq, stateJson, events, options) => {
        ownership.check(lease);
        try {
          await store.save(id, tableSeq, stateJson, events, { ...options, fence: { epoch: lease.epoch } });
        } catch (err) {
          if (err instanceof StaleEpochError) {
            ownership.staleWrite(lease, err.current);
            throw new NotOwnerError(id, '', 'stale epoch');
          }
          throw err;
        }
      },
    };
  }

  /**
   * The seed source as one actor sees it: its Postgres write (seating a funded bot) carries the
   * lease's epoch, and a refusal is handled like a refused checkpoint: the lease is lost, the table
   * is evicted, and the command fails with NotOwnerError.
   */
  private fencedSeeds(lease: HeldLease): MoneySeedSource {
    const seeds = this.options.seeds;
    const ownership = this.options.ownership!;
    const seatBot = seeds.seatBot?.bind(seeds);
    if (seatBot === undefined) return seeds;
    return {
      load: (id) => seeds.load(id),
      seatBot: (req) => {
        ownership.check(lease);
        return refusedByPostgres(ownership, lease, () => seatBot({ ...req, epoch: lease.epoch }));
      },
    };
  }

  /**
   * The hands queue as one actor sees it: every completed hand goes with the lease's epoch, so that
   * the persister can tell a hand played before the table was rebuilt from the rows under a later
   * epoch (sealRebuild) from one played after.
   */
  private stampedHands(lease: HeldLease): MoneyJobSink {
    const hands = this.options.hands;
    return withHandEnqueue(hands, (job) => hands.enqueue({ ...job, epoch: lease.epoch }));
  }

  /**
   * Seals the room at the hand the rebuilt table goes on from (MoneySeedSource.sealRebuild). When a
   * hand landed since the rows were read (the persister still held an old owner's job), they are
   * read again, so the table deals on from the stacks that hand left.
   */
  private async sealRebuild(
    tableId: string,
    rows: MoneySeed,
    lease: HeldLease,
    ownership: TableOwnership,
  ): Promise<MoneySeed> {
    const seal = this.options.seeds.sealRebuild?.bind(this.options.seeds);
    if (seal === undefined || rows.lastHandNo === undefined) return rows;
    let current = rows;
    for (let attempt = 0; attempt < SEAL_ATTEMPTS; attempt++) {
      const lastHandNo = current.lastHandNo ?? 0;
      if (await refusedByPostgres(ownership, lease, () => seal(tableId, lease.epoch, lastHandNo))) {
        this.options.logger.info(
          { event: 'rebuild_sealed', tableId, epoch: lease.epoch, handNo: lastHandNo },
          'rebuilt from the room rows: older hands past them will be refused',
        );
        return current;
      }
      const again = await this.options.seeds.load(tableId);
      if (!again || again.status === 'closed') throw tableNotFound(tableId);
      current = again;
    }
    throw new TableError(ErrorCode.UNAVAILABLE, 'the room rows are still moving; try again shortly', tableId);
  }

  /**
   * A table about to be rebuilt from the room rows: the hands this worker queued for it that the rows
   * do not hold and the persister never confirmed go to the queue again, in order (after Redis lost
   * its data the queue no longer has them; otherwise a copy is a no-op, the job id being the hand id).
   * Returns the last hand number the rows must reach before the table deals on.
   */
  private async resendUnconfirmed(
    tableId: string,
    rows: MoneySeed,
    handNo: number | undefined,
    lease: HeldLease | undefined,
  ): Promise<number | undefined> {
    const unconfirmed = this.options.unconfirmed;
    if (unconfirmed === undefined || rows.lastHandNo === undefined) return handNo;
    const jobs = unconfirmed.pendingAfter(tableId, rows.lastHandNo);
    if (jobs.length === 0) return handNo;
    // Under this lease's epoch: the table goes on from them, and the seal that follows refuses
    // only older epochs' hands.
    for (const job of jobs) await this.options.hands.enqueue(lease ? { ...job, epoch: lease.epoch } : job);
    const last = jobs[jobs.length - 1]!.hand_no;
    this.options.logger.warn(
      { event: 'hands_resent', tableId, persisted: rows.lastHandNo, handNos: jobs.map((j) => j.hand_no) },
      'rebuilding from the room rows: the completed hands they lack were queued again',
    );
    return Math.max(handNo ?? 0, last);
  }

  /**
   * The room rows once they hold every hand the table completed (`handNo`, from the checkpoint's
   * mark): their stacks are then the table's, and hand numbers go on from there. A table rebuilt
   * from rows the persister has not caught up with would pay from stale stacks and reuse numbers.
   */
  private async persistedThrough(tableId: string, seed: MoneySeed, handNo: number | undefined): Promise<MoneySeed> {
    // Rows that do not count hands (a table without Postgres) have nothing to wait for.
    if (handNo === undefined || seed.lastHandNo === undefined || seed.lastHandNo >= handNo) return seed;
    const waitMs = this.options.persistWaitMs ?? 20_000;
    const until = this.options.clock.now() + waitMs;
    this.options.logger.warn(
      { event: 'awaiting_persisted_hands', tableId, persisted: seed.lastHandNo ?? 0, completed: handNo },
      'rebuilding from the room rows: waiting for the persister to write the completed hands',
    );
    let current: MoneySeed | null = seed;
    let queueAskedAt = -Infinity;
    while ((current?.lastHandNo ?? 0) < handNo) {
      // No job of the room left in the queue (asked before the rows are read again): the missing
      // hands never reached it (they were in the lost checkpoint's outbox) or were refused for
      // good. Their chips never moved in the ledger, so the rows are the truth: go on from them.
      // The queue is scanned at most once a second; the rows are cheap to read.
      const askQueue =
        this.options.hands.pendingHandsOf !== undefined && this.options.clock.now() - queueAskedAt >= QUEUE_POLL_MS;
      if (askQueue) queueAskedAt = this.options.clock.now();
      const pending = askQueue ? await this.options.hands.pendingHandsOf!(tableId) : null;
      if (pending === 0) {
        const rows = await this.options.seeds.load(tableId);
        if (!rows || rows.status === 'closed') throw tableNotFound(tableId);
        if ((rows.lastHandNo ?? 0) < handNo) {
          this.options.logger.error(
            { event: 'hands_lost', tableId, persisted: rows.lastHandNo ?? 0, completed: handNo },
            'completed hands of a lost checkpoint are in no queue: the table goes on from the room rows',
          );
        }
        return rows;
      }
      if (this.closed || this.options.clock.now() >= until) {
        throw new TableError(
          ErrorCode.UNAVAILABLE,
          `hands of this table are still being saved (${current?.lastHandNo ?? 0} of ${handNo}); try again shortly`,
          tableId,
        );
      }
      await this.sleep(PERSIST_POLL_MS);
      current = await this.options.seeds.load(tableId);
      if (!current || current.status === 'closed') throw tableNotFound(tableId);
    }
    return current;
  }

  private async lastCheckpoint(tableId: string): Promise<SavedTable> {
    let corrupt: unknown = null;
    try {
      const saved = await this.options.checkpoints.load(tableId);
      if (saved) {
        return {
          tableSeq: saved.checkpoint.tableSeq,
          state: saved.checkpoint.state,
          events: saved.events,
          nothing: false,
        };
      }
    } catch (err) {
      if (!(err instanceof CheckpointCorruptError)) throw err;
      corrupt = err;
    }
    // No readable checkpoint. The mark written beside every checkpoint still says how far table_seq
    // went and whether a hand was in progress.
    let mark: CheckpointMark | null = null;
    try {
      mark = (await this.options.checkpoints.mark?.(tableId)) ?? null;
    } catch (err) {
      this.options.logger.warn({ err, tableId }, 'checkpoint mark unreadable');
    }
    if (corrupt === null && mark === null) return { tableSeq: 0, state: null, events: [], nothing: true };
    // table_seq must still only grow. Without a mark, the clock is a floor above anything the lost
    // checkpoint held (no table issues a sequence number per millisecond for long).
    const tableSeq = mark !== null ? mark.tableSeq : this.options.clock.now();
    const voided = mark?.handId ?? undefined;
    if (corrupt !== null) {
      this.options.logger.error(
        { err: corrupt, tableId, tableSeq, event: 'checkpoint_corrupt' },
        'corrupt checkpoint; the table restarts from the room rows',
      );
    } else {
      this.options.logger.error(
        { tableId, tableSeq, event: 'checkpoint_missing' },
        'checkpoint missing; the table restarts from the room rows',
      );
    }
    if (voided !== undefined) {
      // The hand in progress cannot continue: every stack is back at its hand-start value, which is
      // what the room rows hold (a hand moves escrow only when it is persisted complete).
      this.options.logger.warn(
        {
          event: 'hand_voided',
          tableId,
          handId: voided,
          reason: corrupt !== null ? 'checkpoint_corrupt' : 'checkpoint_missing',
        },
        'hand voided: its checkpoint is lost; stacks return to their hand-start values',
      );
      this.options.onHandEvent?.(tableId, {
        kind: 'voided',
        handId: voided,
        reason: corrupt !== null ? 'checkpoint corrupt' : 'checkpoint missing',
      });
    }
    return {
      tableSeq,
      state: null,
      events: [],
      nothing: false,
      ...(voided !== undefined ? { voided } : {}),
      ...(mark?.handNo !== undefined ? { handNo: mark.handNo } : {}),
    };
  }

  /**
   * Whether the table's last checkpoint lists this connection: it was attached to the table (here or
   * at another worker) when the table was last saved, so a gateway still holds it as attached.
   */
  async knewConnection(tableId: string, connectionId: string, userId: string): Promise<boolean> {
    try {
      const saved = await this.options.checkpoints.load(tableId);
      const state = saved?.checkpoint.state;
      if (!isLiveTable(state, tableId)) return false;
      return state.connections.some((c) => c.connectionId === connectionId && c.userId === userId && !c.spectator);
    } catch {
      return false;
    }
  }

  /** Stops and forgets one table (after its queued commands ran), then gives its lease up. */
  async evict(tableId: string): Promise<void> {
    const entry = this.actors.get(tableId);
    if (!entry) return;
    this.actors.delete(tableId);
    const done = (async () => {
      await entry.actor.stop();
      this.keepOwedHands(entry.actor);
      if (entry.lease) await this.options.ownership?.release(entry.lease);
    })();
    const tracked = done.finally(() => {
      if (this.stopping.get(tableId) === tracked) this.stopping.delete(tableId);
    });
    this.stopping.set(tableId, tracked);
    await tracked;
  }

  /**
   * A stopped table's completed hands still owed to the hands queue (it refused them, or was down,
   * when the table stopped: its lease was lost, or it was evicted) are kept with the hands this worker
   * sent and never heard settled. The checkpoint holds them too, for the next owner; but if Redis lost
   * the checkpoint, they are only here, and a rebuild from the room rows by this worker sends them
   * (resendUnconfirmed). A copy that reaches the persister twice is a no-op; one that reaches it after
   * another worker rebuilt the table is superseded (sealRebuild).
   */
  private keepOwedHands(actor: TableActor): void {
    const unconfirmed = this.options.unconfirmed;
    if (unconfirmed === undefined) return;
    for (const item of actor.snapshot().outbox) {
      // Older checkpoints held bare completed-hand jobs.
      if (!('kind' in item)) unconfirmed.sent(item);
      else if (item.kind === 'hand') unconfirmed.sent(item.job);
    }
  }

  /**
   * After a lost lease: if this worker should still serve the table (a stall outlived the lease, but
   * nobody else took it), take it again under a new epoch from its checkpoint and attach the
   * connections it had, whose gateways still count them as attached here. Each gets a fresh snapshot.
   */
  private async readopt(
    tableId: string,
    connections: readonly ConnectionState[],
    cause: 'lease' | 'ring',
    attempt = 0,
  ): Promise<void> {
    if (this.closed || this.draining || this.options.shouldServe === undefined || this.actors.has(tableId)) return;
    let actor: TableActor;
    try {
      // The ring names another worker. Right after Redis lost its data the ring is briefly empty or
      // partial (workers register again at their next heartbeat), so this may pass: look again a
      // lease TTL later. If the ring really moved the table, the gateways follow it there.
      if (!this.options.shouldServe(tableId))
        throw new NotOwnerError(tableId, this.options.ringOwnerOf?.(tableId) ?? '', RING_ELSEWHERE);
      actor = await this.get(tableId);
    } catch (err) {
      // Another worker holds it (its ring was briefly different): it gives the table up when its
      // ring agrees again. Or the room rows did not answer (Postgres restarting): they will. Either
      // way the gateways still send these connections here, so try again then; only a refusal of the
      // table itself (a TableError other than UNAVAILABLE: the room is gone) is final.
      const final = err instanceof TableError && err.code !== ErrorCode.UNAVAILABLE;
      if (!final && attempt < READOPT_ATTEMPTS) {
        const wait = this.options.ownership?.ttlMs ?? 1_000;
        this.options.scheduler.schedule(this.options.clock.now() + wait, () => {
          void this.readopt(tableId, connections, cause, attempt + 1);
        });
        return;
      }
      const moved = err instanceof NotOwnerError && err.reason === RING_ELSEWHERE;
      // A table the ring really moved (the usual case after a ring change) is no news.
      this.options.logger[moved ? (cause === 'ring' ? 'debug' : 'info') : 'warn'](
        { event: 'readopt_skipped', tableId, err, attempts: attempt + 1, cause },
        moved ? 'table not taken again: the ring names another worker' : 'table not taken again',
      );
      return;
    }
    let attached = 0;
    let closedStreams = 0;
    let refused = 0;
    for (const c of connections) {
      if (this.options.streamOpen && !this.options.streamOpen(c.streamId)) {
        closedStreams++;
        continue;
      }
      try {
        await actor.submit({
          kind: 'attach',
          connectionId: c.connectionId,
          streamId: c.streamId,
          userId: c.userId,
          ...(c.spectator ? { spectate: true } : {}),
        });
        attached++;
      } catch {
        // Gone meanwhile (left the room, the table moved): the gateway attaches it where it belongs.
        refused++;
      }
    }
    this.options.logger.info(
      {
        event: 'table_readopted',
        tableId,
        cause,
        epoch: this.epochOf(tableId),
        connections: attached,
        had: connections.length,
        closedStreams,
        refused,
      },
      cause === 'ring' ? 'table taken again: the ring named this worker again' : 'table taken again after a lost lease',
    );
  }

  /**
   * The ring changed: each live table it gives to another worker leaves memory and gives its lease
   * up; the gateways re-attach their connections to the new owner, which continues from the
   * checkpoint. But a ring may be seen for a moment only: right after Redis lost its data the workers
   * register again a heartbeat apart, so a ring of some of them (or of none) comes first. A gateway
   * that never saw that ring still holds these connections as attached here and sends nothing
   * elsewhere, so the table is looked at again as after a lost lease (readopt): taken back, with
   * its connections, if the ring names this worker again. CI once saw clients silent for 25 s here.
   */
  ringChanged(): void {
    const shouldServe = this.options.shouldServe;
    if (shouldServe === undefined) return;
    for (const [tableId, { actor }] of this.actors) {
      if (!shouldServe(tableId)) this.evictThenReadopt(tableId, actor, 'ring');
    }
  }

  /** Evicts the table, then looks at it again (readopt) with the connections it had. */
  private evictThenReadopt(tableId: string, actor: TableActor, cause: 'lease' | 'ring'): void {
    const connections = actor.connections();
    this.evict(tableId)
      .then(() => this.readopt(tableId, connections, cause))
      .catch((err: unknown) => this.options.logger.error({ err, tableId }, 'evict failed'));
  }

  /** Drops closed tables and tables idle past idleMs. Returns the evicted ids. */
  async sweep(): Promise<string[]> {
    if (this.draining) return [];
    const now = this.options.clock.now();
    const victims: string[] = [];
    for (const [id, { actor }] of this.actors) {
      const idle = actor.idleSinceMs();
      if (actor.queueDepth > 0) continue;
      if ((actor.isClosed && actor.connectionCount === 0) || (idle !== undefined && now - idle >= this.options.idleMs))
        victims.push(id);
    }
    await Promise.all(victims.map((id) => this.evict(id)));
    return victims;
  }

  /**
   * Drain (SIGTERM): takes no new table, and stops each live table at its next hand boundary, or
   * at `deadline` (performance-free wall time, ms since epoch on the injected clock) mid-hand: its
   * checkpoint lets the next owner continue the hand. Stopped tables keep their leases (they answer
   * "unavailable, retry") until `releaseAll`, so the next owner starts them only once gateways
   * follow the ring there. Resolves with how many stopped at a boundary and how many at the deadline.
   */
  async drain(deadline: number, pollMs = 100): Promise<{ boundary: number; deadline: number }> {
    this.draining = true;
    await Promise.all([...this.creating.values()].map((p) => p.catch(() => undefined)));
    let boundary = 0;
    let late = 0;
    const freeze = async (tableId: string, entry: Entry): Promise<void> => {
      this.frozen.add(tableId);
      this.actors.delete(tableId);
      await entry.actor.stop();
    };
    const pending = new Map(this.actors);
    while (pending.size > 0) {
      for (const [tableId, entry] of pending) {
        if (this.actors.get(tableId) !== entry) {
          pending.delete(tableId); // lost or evicted meanwhile
          continue;
        }
        const state = entry.actor.snapshot();
        if (atHandBoundary(state) || entry.actor.isClosed) {
          pending.delete(tableId);
          boundary++;
          await freeze(tableId, entry);
        }
      }
      if (pending.size === 0) break;
      if (this.options.clock.now() >= deadline) {
        for (const [tableId, entry] of pending) {
          if (this.actors.get(tableId) !== entry) continue;
          late++;
          await freeze(tableId, entry);
        }
        break;
      }
      await this.sleep(pollMs);
    }
    return { boundary, deadline: late };
  }

  /** Waits `ms` on the injected clock and scheduler (tests move it by hand). */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.options.scheduler.schedule(this.options.clock.now() + ms, resolve);
    });
  }

  /** Releases the leases of every table (drained or live), so the next owners start at once. */
  async releaseAll(): Promise<void> {
    const ownership = this.options.ownership;
    this.closed = true;
    await Promise.all(this.tableIds().map((id) => this.evict(id)));
    if (!ownership) return;
    await Promise.all(
      ownership.tableIds().map(async (id) => {
        const lease = ownership.heldLease(id);
        if (lease) await ownership.release(lease);
      }),
    );
    this.frozen.clear();
  }

  /**
   * Stops every table and refuses to create more. Shutdown calls this before closing gateway streams,
   * so a worker on its way out publishes no "disconnected" for connections that are moving on.
   */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.creating.values()].map((p) => p.catch(() => undefined)));
    await Promise.all(this.tableIds().map((id) => this.evict(id)));
  }
}
