import { ErrorCode } from '@felt/protocol';
import { CheckpointCorruptError } from '../ports.js';
import type { LiveTableJSON } from '../table/live-table.js';
import { TableActor, type TableActorDeps } from './table-actor.js';
import { TableError, tableNotFound } from './table-error.js';

export interface TableDirectoryOptions extends TableActorDeps {
  /** A table with no connection for this long is dropped from memory (its checkpoint stays). */
  readonly idleMs: number;
}

function isLiveTable(state: unknown, tableId: string): state is LiveTableJSON {
  const s = state as Partial<LiveTableJSON> | null;
  return typeof s === 'object' && s !== null && s.format === 'felt-live-table/1' && s.tableId === tableId;
}

/**
 * The live tables of one worker. An actor is created lazily on first use, from its last
 * checkpoint (a hand in progress continues) and the room rows; concurrent first uses share one
 * creation, so a table never has two actors here.
 */
export class TableDirectory {
  private readonly actors = new Map<string, TableActor>();
  private readonly creating = new Map<string, Promise<TableActor>>();
  private closed = false;

  constructor(private readonly options: TableDirectoryOptions) {}

  get size(): number {
    return this.actors.size;
  }

  tableIds(): string[] {
    return [...this.actors.keys()];
  }

  peek(tableId: string): TableActor | undefined {
    return this.actors.get(tableId);
  }

  /** The table's actor, created if needed. Throws TableError(table_not_found) for an unknown room. */
  get(tableId: string): Promise<TableActor> {
    if (this.closed) {
      return Promise.reject(new TableError(ErrorCode.UNAVAILABLE, 'this worker is shutting down', tableId));
    }
    const live = this.actors.get(tableId);
    if (live) return Promise.resolve(live);
    const pending = this.creating.get(tableId);
    if (pending) return pending;
    const creation = this.create(tableId).finally(() => this.creating.delete(tableId));
    this.creating.set(tableId, creation);
    return creation;
  }

  private async create(tableId: string): Promise<TableActor> {
    const [seed, saved] = await Promise.all([this.options.seeds.load(tableId), this.lastCheckpoint(tableId)]);
    if (!seed || seed.status === 'closed') throw tableNotFound(tableId);
    let actor: TableActor;
    if (saved.state !== null && isLiveTable(saved.state, tableId)) {
      actor = TableActor.restore({ ...saved.state, tableSeq: saved.tableSeq }, saved.events, seed, this.options);
    } else {
      actor = TableActor.create(tableId, seed, saved.tableSeq, this.options);
    }
    this.actors.set(tableId, actor);
    this.options.logger.info(
      {
        event: 'table_created',
        tableId,
        tableSeq: saved.tableSeq,
        members: seed.members.length,
        restored: saved.state !== null,
      },
      'table actor created',
    );
    return actor;
  }

  private async lastCheckpoint(
    tableId: string,
  ): Promise<{ tableSeq: number; state: unknown; events: Parameters<typeof TableActor.restore>[1] }> {
    try {
      const saved = await this.options.checkpoints.load(tableId);
      if (!saved) return { tableSeq: 0, state: null, events: [] };
      return { tableSeq: saved.checkpoint.tableSeq, state: saved.checkpoint.state, events: saved.events };
    } catch (err) {
      if (!(err instanceof CheckpointCorruptError)) throw err;
      // table_seq must still only grow. No table issues a sequence number per millisecond for long,
      // so the clock is a floor above anything the lost checkpoint held. A hand it held is void:
      // stacks in the room rows are hand-start values.
      const floor = this.options.clock.now();
      this.options.logger.error(
        { err, tableId, tableSeq: floor },
        'corrupt checkpoint; table_seq continues from the clock',
      );
      return { tableSeq: floor, state: null, events: [] };
    }
  }

  /** Stops and forgets one table (after its queued commands ran). */
  async evict(tableId: string): Promise<void> {
    const actor = this.actors.get(tableId);
    if (!actor) return;
    this.actors.delete(tableId);
    await actor.stop();
  }

  /** Drops closed tables and tables idle past idleMs. Returns the evicted ids. */
  async sweep(): Promise<string[]> {
    const now = this.options.clock.now();
    const victims: string[] = [];
    for (const [id, actor] of this.actors) {
      const idle = actor.idleSinceMs();
      if (actor.queueDepth > 0) continue;
      if ((actor.isClosed && actor.connectionCount === 0) || (idle !== undefined && now - idle >= this.options.idleMs))
        victims.push(id);
    }
    await Promise.all(victims.map((id) => this.evict(id)));
    return victims;
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
