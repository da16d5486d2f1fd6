import { voidedHandJobSchema } from '@felt/db';
import type { Logger } from '@felt/platform';
import {
  ErrorCode,
  Role,
  type Ack,
  type ErrorMessage,
  type ResyncResponse,
  type ServerMessage,
  type TableCommandFrame,
  type TableEvent,
  type TableMessage,
} from '@felt/protocol';
import type { CheckpointStore, Clock, EventPublisher, Publication, RandomSource, Scheduler } from '../ports.js';
import {
  BotFundingRefusedError,
  type MoneyJobSink,
  type MoneySeed,
  type MoneySeedSource,
  type OutboxJob,
} from '../money/ports.js';
import type { BotOptions } from '../bots/bot-brain.js';
import type { CommandResult } from '../table/command-history.js';
import { EVENT_BUFFER_SIZE, EventBuffer, type BufferedEvent } from '../table/event-buffer.js';
import { LiveTable, type HandLifecycleEvent, type LiveTableJSON } from '../table/live-table.js';
import type { TimingOverrides } from '../table/timing.js';
import {
  buildSnapshot,
  finishSnapshot,
  snapshotBody,
  snapshotKey,
  type SnapshotBody,
  type Viewer,
} from '../table/views.js';
import { Mailbox } from './mailbox.js';
import { notJoined, TableError } from './table-error.js';
import { NotOwnerError } from '../ownership/table-ownership.js';

export type ClientCommandFrame = Exclude<TableCommandFrame, { type: 'resync_request' }>;

export type TableCommand =
  | {
      readonly kind: 'attach';
      readonly connectionId: string;
      readonly streamId: string;
      readonly userId: string;
      /** join_table with spectate: a non-member watching. */
      readonly spectate?: boolean;
    }
  | { readonly kind: 'detach'; readonly connectionId: string; readonly userId: string }
  /** The gateway stream carrying these connections ended (gateway died or restarted). */
  | { readonly kind: 'stream_closed'; readonly streamId: string }
  | {
      readonly kind: 'resync';
      readonly connectionId: string;
      readonly userId: string;
      readonly fromTableSeq?: number;
      readonly commandId?: string;
    }
  /** A client command (action, client_seed, sit_in, …) from a connection attached to this table. */
  | {
      readonly kind: 'client';
      readonly connectionId: string;
      readonly userId: string;
      readonly frame: ClientCommandFrame;
    }
  /** The lobby changed the room (member joined or left, room closed): reread it. */
  | { readonly kind: 'refresh' }
  /** The lobby recorded a member's leave request (worker-mode cash-out). */
  | { readonly kind: 'member_leaving'; readonly userId: string }
  /** A timer is due (action clock, seed window, bots, next hand). */
  | { readonly kind: 'tick' };

export type TableCommandKind = TableCommand['kind'];

export interface ConnectionReply {
  readonly connectionId: string;
  readonly message: ServerMessage;
}

export interface TableOutcome {
  readonly tableSeq: number;
  readonly replies: readonly ConnectionReply[];
  /** A client command was refused (nothing changed); the reply list carries the full error. */
  readonly refusal?: { readonly code: ErrorCode; readonly message: string };
}

export interface TableActorDeps {
  /** The room rows; with `seatBot`, bots are funded users (docs/dev/money-flows.md §1). */
  readonly seeds: MoneySeedSource;
  /** The actor passes the checkpoint's top-level `money` section (docs/dev/money-flows.md §7). */
  readonly checkpoints: CheckpointStore;
  readonly publisher: EventPublisher;
  /** Completed hands and (with `cashOut`) cash-out requests onto the hands queue. */
  readonly hands: MoneyJobSink;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly random: RandomSource;
  readonly timing: TimingOverrides;
  readonly bot: BotOptions;
  readonly botSeed?: string | undefined;
  readonly logger: Logger;
  readonly onHandEvent?: (tableId: string, event: HandLifecycleEvent) => void;
  /**
   * After this long with nothing published, each connected recipient's stream gets a
   * table_heartbeat naming the last table_seq it carried (pub/sub is at most once: a lost last
   * message is otherwise exposed by nothing). 0 or absent: none.
   */
  readonly heartbeatMs?: number;
  /** Limits that keep one player's traffic from degrading the table for the others. */
  readonly limits?: Partial<TableLimits>;
}

/** Bounds on what a table queues and admits (docs/operations.md, "Security"). */
export interface TableLimits {
  /** Commands from connections waiting in the mailbox beyond this are refused with `busy`. */
  readonly mailboxMax: number;
  /** Spectator connections a table admits; one more is refused with `limit_reached`. */
  readonly maxSpectators: number;
}

export const DEFAULT_TABLE_LIMITS: TableLimits = { mailboxMax: 256, maxSpectators: 200 };

/** Commands that come from a client connection: only these are refused when the table is busy. */
const CLIENT_KINDS = new Set<TableCommand['kind']>(['attach', 'client', 'resync']);

const TABLE_STREAM = 'table';
const OUTBOX_RETRY_MS = 1_000;
/** A bot the house bankroll refused is asked for again after this long. */
const BANKROLL_RETRY_MS = 30_000;

function jobId(item: OutboxJob): string {
  return item.kind === 'cash_out' ? item.job.request_id : item.job.hand_id;
}
const userStream = (userId: string): string => `user:${userId}`;

/**
 * One live table. Every command goes through the mailbox and follows one order:
 * validate → apply → assign table_seq → build per-recipient messages → checkpoint → publish → reply
 * (→ enqueue completed hands). A command that fails validation changes nothing and consumes no
 * table_seq. Timers post `tick` commands into the same mailbox, so nothing ever interleaves.
 */
export class TableActor {
  private readonly mailbox = new Mailbox();
  private idleSince: number;
  private cancelTimer: (() => void) | undefined;
  private armedAt: number | null = null;
  /** When this actor last published anything (a heartbeat is due heartbeatMs after it). */
  private publishedAt: number;
  private stopped = false;
  private connectedBefore = false;

  /** The state of the last successful checkpoint (JSON): what a failed command rolls back to. */
  private saved: string;

  private constructor(
    private live: LiveTable,
    private readonly buffer: EventBuffer,
    private readonly deps: TableActorDeps,
  ) {
    this.idleSince = deps.clock.now();
    this.publishedAt = this.idleSince;
    this.saved = JSON.stringify(live.toJSON());
  }

  private static liveDeps(tableId: string, deps: TableActorDeps) {
    return {
      random: deps.random,
      timing: deps.timing,
      bot: deps.bot,
      botSeed: deps.botSeed,
      onHandEvent: (e: HandLifecycleEvent) => deps.onHandEvent?.(tableId, e),
      fundedBots: deps.seeds.seatBot !== undefined,
    };
  }

  /**
   * A table from its room rows, continuing table_seq from an earlier checkpoint if any. With
   * `voidedHand` (the checkpoint was lost while that hand was in progress), `hand_voided` is the
   * first event the table sends, ahead of any snapshot, and the void goes to the hands queue.
   */
  static create(
    tableId: string,
    seed: MoneySeed,
    tableSeq: number,
    deps: TableActorDeps,
    voidedHand?: string,
  ): TableActor {
    const now = deps.clock.now();
    const live = LiveTable.create(tableId, seed, tableSeq, now, TableActor.liveDeps(tableId, deps));
    live.drain();
    if (voidedHand !== undefined) live.announceLostHand(voidedHand, now);
    const actor = new TableActor(live, new EventBuffer(), deps);
    actor.pendingEmissions = live.drain();
    actor.arm();
    return actor;
  }

  /**
   * A table from its checkpoint (another worker had it, or it was evicted), brought up to date
   * with the room rows. Its old connections belonged to other streams: gateways attach again.
   */
  static restore(state: LiveTableJSON, events: readonly BufferedEvent[], seed: MoneySeed, deps: TableActorDeps) {
    const now = deps.clock.now();
    const live = LiveTable.restore(
      { ...state, connections: [], noHumanSince: state.noHumanSince ?? now },
      TableActor.liveDeps(state.tableId, deps),
      now,
    );
    if (live.noHumanSince === null) live.noHumanSince = now;
    // A full stored buffer may have dropped events before its first one.
    const evictedThrough = events.length >= EVENT_BUFFER_SIZE ? events[0]!.tableSeq - 1 : 0;
    const actor = new TableActor(live, new EventBuffer({ events, evictedThrough }), deps);
    live.refresh(seed, now);
    // Whatever the refresh or the restore changed goes out with the next command.
    actor.pendingEmissions = live.drain();
    actor.arm();
    return actor;
  }

  private pendingEmissions: ReturnType<LiveTable['drain']> = [];

  get tableId(): string {
    return this.live.tableId;
  }

  get tableSeq(): number {
    return this.live.tableSeq;
  }

  get connectionCount(): number {
    return this.live.connections.length;
  }

  /** Closed, and every job it owes the hands queue is there: the table may be unloaded. */
  get isClosed(): boolean {
    return this.live.closed && this.live.outbox.length === 0;
  }

  /**
   * Since when the table has had no connection, or undefined while it has some, runs by itself, or
   * still owes the hands queue a job (it stays loaded to retry).
   */
  idleSinceMs(): number | undefined {
    if (this.live.connections.length > 0 || (this.live.botsOnly && !this.live.closed)) return undefined;
    if (this.live.outbox.length > 0) return undefined;
    return this.idleSince;
  }

  get queueDepth(): number {
    return this.mailbox.depth;
  }

  /** The live table's serializable state (tests and checkpoints). */
  snapshot(): LiveTableJSON {
    return structuredClone(this.live.toJSON());
  }

  submit(command: TableCommand): Promise<TableOutcome> {
    // The table's own work (ticks, room events, detaches) is never refused; a client's command
    // beyond the bound is, before it takes memory or time from everyone else at the table.
    if (CLIENT_KINDS.has(command.kind) && this.mailbox.depth >= this.limits.mailboxMax) {
      return Promise.reject(
        new TableError(ErrorCode.BUSY, 'the table is busy; nothing was applied, retry shortly', this.tableId),
      );
    }
    return this.mailbox.post(() => this.handle(command));
  }

  private get limits(): TableLimits {
    return { ...DEFAULT_TABLE_LIMITS, ...this.deps.limits };
  }

  /** Finishes queued commands, then refuses more. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    await this.mailbox.close();
  }

  private async handle(command: TableCommand): Promise<TableOutcome> {
    const live = this.live;
    const now = this.deps.clock.now();
    try {
      switch (command.kind) {
        case 'attach': {
          let spectate = command.spectate === true;
          if (live.member(command.userId) === undefined && !spectate) {
            // The lobby's member_joined event may not have arrived yet: reread once before refusing.
            live.refresh(await this.deps.seeds.load(live.tableId), now);
          }
          if (live.member(command.userId) !== undefined) spectate = false;
          if (spectate && !live.connections.some((c) => c.connectionId === command.connectionId)) {
            const watching = live.connections.filter((c) => c.spectator).length;
            if (watching >= this.limits.maxSpectators) {
              throw new TableError(
                ErrorCode.LIMIT_REACHED,
                `this table admits ${this.limits.maxSpectators} spectators`,
                live.tableId,
              );
            }
          }
          live.attach(
            {
              connectionId: command.connectionId,
              userId: command.userId,
              streamId: command.streamId,
              spectator: spectate,
            },
            now,
          );
          // The attaching viewer's stream always gets a new snapshot: a re-attachment (ring move,
          // reconnect) must see a table_seq above anything it held.
          const viewer = spectate ? null : this.viewerOf(command.userId);
          if (viewer !== null) this.retellVoid(viewer);
          // Spectators share one stream, so a void is not told again on it: one the spectator stream
          // never carried goes in this spectator's answer only, at its own table_seq.
          const spectatorVoid = viewer === null ? this.uncarriedVoid(TABLE_STREAM) : null;
          return await this.commit(
            now,
            (seq, events) => [
              ...(spectatorVoid !== null ? [{ connectionId: command.connectionId, message: spectatorVoid }] : []),
              // A void this commit sent to the viewer goes in the answer too, ahead of the snapshot:
              // the answer and the stream race to the client, and whichever comes first must not
              // make the void stale.
              ...events
                .filter(
                  (e) =>
                    e.message.type === 'hand_voided' && (e.audience.kind === 'all' || e.audience.userId === viewer),
                )
                .map((e) => ({ connectionId: command.connectionId, message: e.message })),
              { connectionId: command.connectionId, message: this.snapshotFor(viewer, seq, now) },
            ],
            viewer === null ? TABLE_STREAM : userStream(viewer),
          );
        }
        case 'detach':
          if (!live.detach(command.connectionId, command.userId, now)) return this.unchanged();
          return await this.commit(now);
        case 'stream_closed':
          if (!live.streamClosed(command.streamId, now)) return this.unchanged();
          return await this.commit(now);
        case 'resync':
          return this.resync(command, now);
        case 'client':
          return await this.client(command, now);
        case 'refresh':
          live.refresh(await this.deps.seeds.load(live.tableId), now);
          return await this.commit(now);
        case 'member_leaving':
          // The room rows say who is leaving (and with what, if the table never seated them).
          live.refresh(await this.deps.seeds.load(live.tableId), now);
          live.memberLeaving(command.userId, now);
          return await this.commit(now);
        case 'tick':
          this.armedAt = null;
          live.tick(now);
          return await this.commit(now);
      }
    } finally {
      this.arm();
    }
  }

  /**
   * A hand voided since the last one finished, that this player's stream never carried (most often
   * a lost checkpoint: the player was on the way from the worker that died), is told again on that
   * stream, ahead of the snapshot and in table_seq order, so that no newer message makes it stale.
   */
  private retellVoid(viewer: string): void {
    const voided = this.uncarriedVoid(userStream(viewer));
    if (voided === null) return;
    const { table_seq: _seq, ...body } = voided;
    this.pendingEmissions.push({ audience: { kind: 'user', userId: viewer }, body });
  }

  /** The pending void (no hand finished since), unless the stream `key` already carried it. */
  private uncarriedVoid(key: string): TableEvent | null {
    const voided = this.buffer.pendingVoid();
    if (voided === null || (this.live.streams.get(key)?.last ?? 0) >= voided.table_seq) return null;
    return voided;
  }

  private unchanged(): TableOutcome {
    return { tableSeq: this.live.tableSeq, replies: [] };
  }

  private viewerOf(userId: string): Viewer {
    const m = this.live.member(userId);
    return m !== undefined && !m.bot ? userId : null;
  }

  private resync(command: Extract<TableCommand, { kind: 'resync' }>, now: number): TableOutcome {
    const live = this.live;
    const conn = live.connections.find((c) => c.connectionId === command.connectionId);
    if (!conn || conn.userId !== command.userId) throw notJoined(live.tableId);
    const viewer = conn.spectator ? null : this.viewerOf(conn.userId);
    const from = command.fromTableSeq ?? 0;
    const { events, complete } = this.buffer.since(from, viewer);
    const response: ResyncResponse = {
      type: 'resync_response',
      table_id: live.tableId,
      table_seq: live.tableSeq,
      role: viewer === null ? Role.SPECTATOR : Role.PLAYER,
      from_table_seq: from,
      to_table_seq: live.tableSeq,
      complete,
      replayed_events: events,
      snapshot: this.snapshotFor(viewer, live.tableSeq, now),
    };
    return { tableSeq: live.tableSeq, replies: [{ connectionId: command.connectionId, message: response }] };
  }

  /** The recipient's current snapshot: what its stream last carried (same hash), at `tableSeq`. */
  private snapshotFor(viewer: Viewer, tableSeq: number, now: number) {
    const stream = this.live.streams.get(viewer === null ? TABLE_STREAM : userStream(viewer));
    return buildSnapshot(this.live, viewer, now, tableSeq, stream?.snapshotPrev ?? null);
  }

  private async client(command: Extract<TableCommand, { kind: 'client' }>, now: number): Promise<TableOutcome> {
    const live = this.live;
    const { frame, userId, connectionId } = command;
    const conn = live.connections.find((c) => c.connectionId === connectionId);
    if (!conn || conn.userId !== userId) throw notJoined(live.tableId);
    const commandId = frame.command_id;
    if (commandId !== undefined) {
      const earlier = live.history.lookup(userId, commandId);
      // The same command again: the same answer, and nothing applied a second time.
      if (earlier) return this.answer(connectionId, commandId, earlier);
    }
    try {
      live.command(userId, frame, now);
    } catch (err) {
      if (!(err instanceof TableError)) throw err;
      // A refusal changes nothing, but is remembered so a retry gets the same answer.
      live.drain();
      const result: CommandResult = {
        ok: false,
        code: err.code,
        message: err.message,
        ...err.details,
      };
      // Only a member's refusal is remembered (and checkpointed): anyone else's would let a spectator
      // grow every checkpoint of the table with command ids, one write per frame.
      if (commandId !== undefined && live.member(userId) !== undefined) {
        live.history.record(userId, commandId, result);
        await this.checkpoint([]);
      }
      return this.answer(connectionId, commandId, result);
    }
    return this.commit(now, (seq) => {
      if (commandId === undefined) return [];
      const result: CommandResult = { ok: true, atTableSeq: seq };
      if (live.member(userId) !== undefined) live.history.record(userId, commandId, result);
      return [...this.answer(connectionId, commandId, result).replies];
    });
  }

  private answer(connectionId: string, commandId: string | undefined, result: CommandResult): TableOutcome {
    const tableId = this.live.tableId;
    if (result.ok) {
      const ack: Ack = { type: 'ack', table_id: tableId, command_id: commandId!, at_table_seq: result.atTableSeq };
      return { tableSeq: this.live.tableSeq, replies: [{ connectionId, message: ack }] };
    }
    const error: ErrorMessage = {
      type: 'error',
      code: result.code,
      message: result.message,
      table_id: tableId,
      ...(commandId !== undefined ? { command_id: commandId } : {}),
      ...(result.reason !== undefined ? { reason: result.reason } : {}),
      ...(result.min !== undefined ? { min: result.min } : {}),
      ...(result.max !== undefined ? { max: result.max } : {}),
    };
    return {
      tableSeq: this.live.tableSeq,
      replies: [{ connectionId, message: error }],
      refusal: { code: result.code, message: result.message },
    };
  }

  /**
   * Sequences what the command produced, builds each recipient's messages, checkpoints, publishes,
   * then hands completed hands to the sink. `replies` runs after sequencing, with the final
   * table_seq, so that a reply snapshot is the very message its stream carried.
   */
  private async commit(
    now: number,
    replies: (tableSeq: number, events: readonly BufferedEvent[]) => ConnectionReply[] = () => [],
    forceSnapshot?: string,
  ): Promise<TableOutcome> {
    try {
      await this.fundBots(now);
    } catch (err) {
      // The table is no longer ours (a fenced write was refused): undo the command, as a refused
      // checkpoint does, so nothing of it is published.
      this.rollback();
      throw err;
    }
    const live = this.live;
    // The command history is kept for the table's members only (it goes into every checkpoint).
    live.history.retain(new Set(live.members.map((m) => m.userId)));
    // Emissions made outside any command (a void announced at creation) are in no checkpoint: if
    // this one fails they wait for the next command again, or they would be lost.
    const carried = this.pendingEmissions;
    const emissions = [...carried, ...live.drain()];
    this.pendingEmissions = [];

    const users = [...new Set(live.connections.filter((c) => !c.spectator).map((c) => c.userId))].filter(
      (u) => this.viewerOf(u) !== null,
    );
    const spectators = live.connections.some((c) => c.spectator);
    const streamOf = (key: string) => {
      let s = live.streams.get(key);
      if (!s) {
        s = { last: 0, snapshotPrev: null, snapshotKey: null };
        live.streams.set(key, s);
      }
      return s;
    };
    const publications: Publication[] = [];
    const touched = new Set<string>();
    const send = (key: string, message: TableMessage) => {
      const stream = streamOf(key);
      const withPrev = { ...message, prev_table_seq: stream.last } as TableMessage;
      stream.last = message.table_seq;
      touched.add(key);
      publications.push({
        audience: key === TABLE_STREAM ? { kind: 'table', except: users } : { kind: 'user', userId: key.slice(5) },
        message: withPrev,
      });
    };

    const buffered: BufferedEvent[] = [];
    for (const e of emissions) {
      const tableSeq = ++live.tableSeq;
      const message = { ...e.body, table_seq: tableSeq } as BufferedEvent['message'];
      buffered.push({ tableSeq, audience: e.audience, message });
      if (e.audience.kind === 'all') {
        for (const u of users) send(userStream(u), message);
        if (spectators) send(TABLE_STREAM, message);
      } else if (users.includes(e.audience.userId)) {
        send(userStream(e.audience.userId), message);
      }
    }

    // Each recipient whose view changed, or who got events, ends the batch with its snapshot.
    const recipients: [string, Viewer][] = users.map((u) => [userStream(u), u]);
    if (spectators) recipients.push([TABLE_STREAM, null]);
    const snapshotSeq = live.tableSeq + 1;
    const due: { key: string; viewer: Viewer; key2: string; body: SnapshotBody }[] = [];
    for (const [key, viewer] of recipients) {
      const body = snapshotBody(live, viewer, now);
      const k = snapshotKey(body);
      if (touched.has(key) || key === forceSnapshot || streamOf(key).snapshotKey !== k) {
        due.push({ key, viewer, key2: k, body });
      }
    }
    if (due.length > 0) {
      live.tableSeq = snapshotSeq;
      for (const d of due) {
        const stream = streamOf(d.key);
        const snapshot = finishSnapshot(d.body, snapshotSeq, stream.last);
        stream.snapshotPrev = stream.last;
        stream.snapshotKey = d.key2;
        stream.last = snapshotSeq;
        publications.push({
          audience: d.key === TABLE_STREAM ? { kind: 'table', except: users } : { kind: 'user', userId: d.viewer! },
          message: snapshot,
        });
      }
    }

    const out = replies(live.tableSeq, buffered);
    // Checkpoint before anything leaves the actor: a published table_seq must never be reissued,
    // and an accepted command must survive this worker.
    try {
      await this.checkpoint(buffered);
    } catch (err) {
      this.pendingEmissions = carried;
      throw err;
    }
    for (const b of buffered) this.buffer.push(b);
    if (live.connections.length === 0 && this.connectedBefore) this.idleSince = now;
    this.connectedBefore = live.connections.length > 0;
    if (publications.length === 0 && this.heartbeatDue(now)) {
      // Nothing happened for a while: each recipient learns the last table_seq its stream carried.
      for (const [key, viewer] of recipients) {
        const last = streamOf(key).last;
        if (last === 0) continue;
        publications.push({
          audience: key === TABLE_STREAM ? { kind: 'table', except: users } : { kind: 'user', userId: viewer! },
          message: { type: 'table_heartbeat', table_id: live.tableId, table_seq: last },
        });
      }
    }
    if (publications.length > 0) {
      this.publishedAt = now;
      await this.deps.publisher.publish(live.tableId, publications);
    }
    await this.flushOutbox();
    return { tableSeq: live.tableSeq, replies: out };
  }

  /**
   * Saves the state. When that fails the command is undone, in memory too: the table goes back to
   * its last checkpoint, so nothing that was not checkpointed is ever published or acknowledged.
   */
  private async checkpoint(events: readonly BufferedEvent[]): Promise<void> {
    // Serialized now: the live objects (the hand's log, the turn) keep changing after this point.
    const state = JSON.stringify(this.live.toJSON());
    // The audit's view of the stacks, beside the state (docs/dev/money-flows.md §7).
    const money = JSON.stringify(this.live.liveMoney());
    try {
      await this.deps.checkpoints.save(this.live.tableId, this.live.tableSeq, state, events, {
        moneyJson: money,
        mark: this.live.checkpointMark(),
      });
    } catch (err) {
      this.rollback();
      throw err;
    }
    this.saved = state;
  }

  /** Back to the last checkpoint, in memory too. */
  private rollback(): void {
    const saved = JSON.parse(this.saved) as LiveTableJSON;
    this.live = LiveTable.restore(saved, TableActor.liveDeps(saved.tableId, this.deps), this.deps.clock.now());
    this.live.drain();
  }

  /**
   * Completed hands and cash-outs go to the hands queue once the state holding them is
   * checkpointed, in order (docs/dev/money-flows.md §1). A crash before a job is in the queue
   * leaves it in the checkpoint's outbox: the next owner sends it (the job id makes a second copy a
   * no-op), and it sends nothing after it first, so hand N+1 is never queued before hand N.
   */
  private async flushOutbox(): Promise<void> {
    while (this.live.outbox.length > 0) {
      const item = this.live.outbox[0]!;
      try {
        await this.send(item);
      } catch (err) {
        // Kept in the checkpoint's outbox and retried by a timer (or by the next owner).
        this.outboxFailed = true;
        this.deps.logger.warn(
          { err, tableId: this.live.tableId, job: item.kind, id: jobId(item) },
          'money job enqueue failed',
        );
        return;
      }
      this.outboxFailed = false;
      this.live.outbox.shift();
    }
  }

  private async send(item: OutboxJob): Promise<void> {
    if (item.kind === 'hand') {
      await this.deps.hands.enqueue(item.job);
      return;
    }
    if (item.kind === 'voided') {
      const parsed = voidedHandJobSchema.safeParse(item.job);
      // The void itself is done (the stacks are back); only its record is missing. A record that can
      // never be valid must not hold up the cash-outs queued behind it.
      if (this.deps.hands.voided === undefined || !parsed.success) {
        // A record that does not match the contract is a bug: loud. A sink without voids is a
        // table without Postgres: nothing to record.
        this.deps.logger[parsed.success ? 'warn' : 'error'](
          {
            event: 'void_not_recorded',
            tableId: this.live.tableId,
            handId: item.job.hand_id,
            invalid: parsed.success ? undefined : parsed.error.message,
          },
          'voided hand not recorded',
        );
        return;
      }
      await this.deps.hands.voided(parsed.data);
      return;
    }
    if (this.deps.hands.cashOut === undefined) {
      // A table without a cash-out queue (no Postgres) has nobody to pay: dropped, loudly.
      this.deps.logger.error({ tableId: this.live.tableId, id: item.job.request_id }, 'no cash-out queue: dropped');
      return;
    }
    await this.deps.hands.cashOut(item.job);
  }

  private outboxFailed = false;

  /** Funds the bots the table asked for (@felt/db seatBot) before they sit. */
  private async fundBots(now: number): Promise<void> {
    const seeds = this.deps.seeds;
    if (seeds.seatBot === undefined) return;
    for (let guard = 0; guard < 20 && this.live.botRequests.length > 0; guard++) {
      const request = this.live.botRequests[0]!;
      try {
        const { membershipId } = await seeds.seatBot({
          roomId: this.live.tableId,
          botId: request.botId,
          seat: request.seat,
          buyIn: request.stack,
        });
        // The time after the call: funding is a round trip to Postgres.
        this.live.botFunded(request, membershipId, this.deps.clock.now());
      } catch (err) {
        // Another worker owns the table now: nothing more may be written for it from here.
        if (err instanceof NotOwnerError) throw err;
        if (err instanceof BotFundingRefusedError) {
          // The house bankroll will not stake it: the table says why, and asks again much later.
          this.deps.logger.warn(
            { tableId: this.live.tableId, seat: request.seat, reason: err.reason },
            'bot not seated: the house bankroll refused its stake',
          );
          this.live.botRefused(request, now, BANKROLL_RETRY_MS, err.reason);
          continue;
        }
        this.deps.logger.warn({ err, tableId: this.live.tableId, seat: request.seat }, 'bot not funded');
        this.live.botRefused(request, now);
      }
    }
  }

  /** Keeps one timer armed for the table's next due time. */
  /** When the next heartbeat is due (nothing published since), or null: none, or nobody to hear it. */
  private heartbeatAt(): number | null {
    const every = this.deps.heartbeatMs ?? 0;
    if (every <= 0 || this.live.closed || this.live.connections.length === 0) return null;
    return this.publishedAt + every;
  }

  private heartbeatDue(now: number): boolean {
    const at = this.heartbeatAt();
    return at !== null && now >= at;
  }

  private arm(): void {
    if (this.stopped) return;
    let at = this.live.nextWakeAt();
    const beat = this.heartbeatAt();
    if (beat !== null) at = at === null ? beat : Math.min(at, beat);
    // Jobs still owed to the hands queue: a tick checkpoints and sends them (after a pause if the
    // queue refused the last try).
    if (this.live.outbox.length > 0) {
      const retry = this.deps.clock.now() + (this.outboxFailed ? OUTBOX_RETRY_MS : 0);
      at = at === null ? retry : Math.min(at, retry);
    }
    if (at === this.armedAt) return;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.armedAt = at;
    if (at === null) return;
    this.cancelTimer = this.deps.scheduler.schedule(at, () => {
      this.cancelTimer = undefined;
      this.armedAt = null;
      this.submit({ kind: 'tick' }).catch((err: unknown) => {
        if (!this.stopped) this.deps.logger.error({ err, tableId: this.live.tableId }, 'table tick failed');
      });
    });
  }
}
