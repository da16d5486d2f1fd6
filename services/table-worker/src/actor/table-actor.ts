import { runBlindCheck, type ShuffleCheck } from '@felt/blind';
import type { Logger } from '@felt/platform';
import { ErrorCode, Role, type ResyncResponse, type TableEvent } from '@felt/protocol';
import type {
  CheckpointStore,
  Clock,
  EventPublisher,
  ProofChecker,
  Publication,
  RandomSource,
  Scheduler,
  TournamentReportSink,
} from '../ports.js';
import type { MoneyJobSink, MoneySeed, MoneySeedSource } from '../money/ports.js';
import type { BotOptions } from '../bots/bot-brain.js';
import type { CommandResult } from '../table/command-history.js';
import type { Emission } from '../table/emissions.js';
import { EVENT_BUFFER_SIZE, EventBuffer, type BufferedEvent } from '../table/event-buffer.js';
import { bufferedBlindStep } from '../table/blind-dealing.js';
import type { LiveTableJSON } from '../table/live-table-json.js';
import { LiveTable } from '../table/live-table.js';
import type { ConnectionState } from '../table/seating.js';
import { TABLE_STREAM, userStream } from '../table/stream-book.js';
import type { HandLifecycleEvent } from '../table/table-context.js';
import type { TimingOverrides } from '../table/timing.js';
import { buildSnapshot, type Viewer } from '../table/views.js';
import { fundBots } from './bot-funding.js';
import { fanOut } from './fan-out.js';
import { Heartbeats } from './heartbeats.js';
import { Mailbox } from './mailbox.js';
import { OutboxSender } from './outbox-sender.js';
import { dueSnapshots, snapshotTexts } from './snapshots.js';
import { notJoined, TableError } from './table-error.js';
import type { ConnectionReply, TableCommand, TableOutcome } from './table-command.js';
import type { TournamentOrder, TournamentOrderResult } from '../tournament/contracts.js';

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
  /** Tournament tables' hand reports, to their director. */
  readonly tournamentReports?: TournamentReportSink;
  /**
   * Checks engine-blind shuffle proofs off the event loop (a thread pool in the worker). Absent, or
   * when it cannot run a check, the actor checks on its own thread: a failure of ours never reads as
   * a player's bad proof.
   */
  readonly proofChecker?: ProofChecker;
  /** Engine-blind shuffle proofs' lambda: tests only (production keeps 40). */
  readonly blindLambda?: number;
}

/** Bounds on what a table queues and admits (docs/operations.md, "Security"). */
export interface TableLimits {
  /** Commands from connections waiting in the mailbox beyond this are refused with `busy`. */
  readonly mailboxMax: number;
  /**
   * Commands of one user waiting in the mailbox beyond this are refused with `busy`: one player's
   * sockets together cannot fill the table's mailbox and get everyone else's commands refused.
   */
  readonly mailboxPerUser: number;
  /** Spectator connections a table admits; one more is refused with `limit_reached`. */
  readonly maxSpectators: number;
}

const DEFAULT_TABLE_LIMITS: TableLimits = { mailboxMax: 256, mailboxPerUser: 16, maxSpectators: 200 };

/** A client command (a frame from an attached connection). */
type ClientCommand = Extract<TableCommand, { kind: 'client' }>;

/** A client seed in a group (TableActor.submit), and how its sender is answered. */
interface SeedWaiter {
  readonly command: ClientCommand;
  readonly resolve: (outcome: TableOutcome) => void;
  readonly reject: (err: unknown) => void;
}

/** Client seeds to be applied together: gathering (its task not in the mailbox yet), then waiting there. */
interface SeedGroup {
  readonly waiters: SeedWaiter[];
  /** Its task is in the mailbox. */
  queued: boolean;
  /** Ends the wait for more seeds (the gather timer) while it runs. */
  cancelGather: (() => void) | undefined;
}

/**
 * How long the first seed of a hand waits for the others before its group goes to the mailbox. The
 * deal waits for every seed anyway (or for the window to close), so an early seed's answer comes at
 * most this much later and the hand no later at all: the last seed owed sends the group at once.
 */
const SEED_GATHER_MS = 50;

/** A command that comes from a client connection: only these are refused when the table is busy. */
type FromClient = Extract<TableCommand, { kind: 'attach' | 'client' | 'resync' }>;
const CLIENT_KINDS: ReadonlySet<TableCommand['kind']> = new Set<FromClient['kind']>(['attach', 'client', 'resync']);
const fromClient = (command: TableCommand): command is FromClient => CLIENT_KINDS.has(command.kind);

/**
 * The client commands about one hand (their frame names its hand_id): once that hand is over, the
 * table refuses them as stale, so their ids need not be remembered for long (CommandHistory).
 */
const HAND_COMMANDS: ReadonlySet<string> = new Set([
  'action',
  'client_seed',
  'show_cards',
  'blind_key',
  'blind_shuffle',
  'blind_shares',
]);

/** After the hands queue refused a job, the next try waits this long. */
const OUTBOX_RETRY_MS = 1_000;

/** Accepted commands of non-members (spectators' chat) whose answers a retry gets, per table, in memory. */
const OTHERS_ANSWERS_MAX = 512;

/**
 * One live table. Every command goes through the mailbox and follows one order:
 * validate → apply → assign table_seq → build per-recipient messages → checkpoint → publish (sent, not awaited) → reply
 * (→ enqueue completed hands). A command that fails validation changes nothing and consumes no
 * table_seq. Timers post `tick` commands into the same mailbox, so nothing ever interleaves. The one
 * batch of several commands is a hand's client seeds (`seedInGroup`): applied one after another in one
 * mailbox task, then committed once, each still answered only when that checkpoint stands.
 */
export class TableActor {
  private readonly mailbox = new Mailbox();
  /** Client commands per user in the mailbox (TableLimits.mailboxPerUser). */
  private readonly waitingByUser = new Map<string, number>();
  private idleSince: number;
  private cancelTimer: (() => void) | undefined;
  private armedAt: number | null = null;
  private readonly heartbeats: Heartbeats;
  private readonly outboxSender: OutboxSender;
  private stopped = false;
  private connectedBefore = false;
  /**
   * Emissions made outside any command (a void announced at creation, what a restore or the
   * attach of a viewer owed) go out with the next commit.
   */
  private pendingEmissions: Emission[] = [];

  /** The state of the last successful checkpoint (JSON): what a failed command rolls back to. */
  private saved: string;
  /** This table's last publish, still in flight or done (stop waits for it). */
  private publishing: Promise<void> = Promise.resolve();
  /**
   * Answers to accepted commands of users who are not members (a spectator's chat), by user and
   * command id, the oldest dropped past OTHERS_ANSWERS_MAX. Kept out of the checkpoint (the command
   * history keeps members only, so a spectator cannot grow every checkpoint): a retry on this
   * worker gets its first answer and is not applied again; after a failover it would be.
   */
  private readonly othersAnswers = new Map<string, CommandResult>();
  private readonly limits: TableLimits;
  /** Client seeds that will be applied together, whose task has not started yet (`seedInGroup`). */
  private seedGroup: SeedGroup | null = null;

  private constructor(
    private live: LiveTable,
    private readonly buffer: EventBuffer,
    private readonly deps: TableActorDeps,
  ) {
    this.idleSince = deps.clock.now();
    this.heartbeats = new Heartbeats(deps.heartbeatMs ?? 0, this.idleSince);
    this.outboxSender = new OutboxSender(deps.hands, deps.logger, live.tableId, deps.tournamentReports);
    this.saved = JSON.stringify(live.toJSON());
    this.limits = { ...DEFAULT_TABLE_LIMITS, ...deps.limits };
  }

  private static liveDeps(tableId: string, deps: TableActorDeps) {
    return {
      random: deps.random,
      timing: deps.timing,
      bot: deps.bot,
      botSeed: deps.botSeed,
      onHandEvent: (e: HandLifecycleEvent) => deps.onHandEvent?.(tableId, e),
      fundedBots: deps.seeds.seatBot !== undefined,
      blindLambda: deps.blindLambda,
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
    // A full stored buffer may have dropped events before its first one.
    const evictedThrough = events.length >= EVENT_BUFFER_SIZE ? events[0]!.tableSeq - 1 : 0;
    const actor = new TableActor(live, new EventBuffer({ events, evictedThrough }), deps);
    live.refresh(seed, now);
    // Whatever the refresh or the restore changed goes out with the next command.
    actor.pendingEmissions = live.drain();
    actor.arm();
    return actor;
  }

  get tableId(): string {
    return this.live.tableId;
  }

  get tableSeq(): number {
    return this.live.tableSeq;
  }

  get connectionCount(): number {
    return this.live.connections().length;
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
    // A tournament table plays on with nobody connected: the clock folds for them.
    const runsAlone = (this.live.botsOnly || this.live.tournamentId !== null) && !this.live.closed;
    if (this.live.connections().length > 0 || runsAlone) return undefined;
    if (this.live.outbox.length > 0) return undefined;
    return this.idleSince;
  }

  get queueDepth(): number {
    return this.mailbox.depth;
  }

  /** The live table's serializable state (tests and checkpoints). */
  /** The connections attached now (a copy): what a table taken again re-attaches, without a snapshot's clone. */
  connections(): ConnectionState[] {
    return [...this.live.connections()];
  }

  snapshot(): LiveTableJSON {
    return structuredClone(this.live.toJSON());
  }

  submit(command: TableCommand): Promise<TableOutcome> {
    // The table's own work (ticks, room events, detaches) is never refused; a client's command
    // beyond the bounds is, before it takes memory or time from everyone else at the table.
    if (!fromClient(command)) return this.post(command);
    const limits = this.limits;
    // A seed group holds every seed in it, and takes one place in the mailbox once it is there.
    const group = this.seedGroup;
    const queued = this.mailbox.depth + (group !== null ? group.waiters.length - (group.queued ? 1 : 0) : 0);
    if (queued >= limits.mailboxMax) {
      return Promise.reject(
        new TableError(ErrorCode.BUSY, 'the table is busy; nothing was applied, retry shortly', this.tableId),
      );
    }
    const userId = command.userId;
    const waiting = this.waitingByUser.get(userId) ?? 0;
    if (waiting >= limits.mailboxPerUser) {
      return Promise.reject(
        new TableError(
          ErrorCode.BUSY,
          'too many of your commands are waiting at this table; nothing was applied, retry shortly',
          this.tableId,
        ),
      );
    }
    this.waitingByUser.set(userId, waiting + 1);
    // A seed joins the others' when its sender has nothing else waiting here, so that no command of
    // one user ever overtakes another of theirs.
    const run =
      command.kind === 'client' && command.frame.type === 'client_seed' && waiting === 0
        ? this.seedInGroup(command)
        : this.post(command);
    return run.finally(() => {
      const left = (this.waitingByUser.get(userId) ?? 1) - 1;
      if (left > 0) this.waitingByUser.set(userId, left);
      else this.waitingByUser.delete(userId);
    });
  }

  /** Finishes queued commands, then refuses more. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (this.seedGroup !== null) this.enqueueSeeds(this.seedGroup);
    await this.mailbox.close();
    await this.publishing;
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
          if (spectate && live.connection(command.connectionId) === undefined) {
            const watching = live.connections().filter((c) => c.spectator).length;
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
              ...(command.userName !== undefined ? { name: command.userName } : {}),
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
        case 'tournament':
          return await this.tournamentOrder(command.order, now);
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
    if (voided === null || this.live.streams.lastOf(key) >= voided.table_seq) return null;
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
    const conn = live.connection(command.connectionId);
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
    const prev = this.live.streams.snapshotPrevOf(viewer === null ? TABLE_STREAM : userStream(viewer));
    return buildSnapshot(this.live, viewer, now, tableSeq, prev);
  }

  private async client(command: ClientCommand, now: number): Promise<TableOutcome> {
    const live = this.live;
    const { frame, userId } = command;
    const earlier = this.earlierAnswer(command);
    // The same command again: the same answer, and nothing applied a second time.
    if (earlier) return { tableSeq: live.tableSeq, replies: [], result: earlier };
    try {
      if (frame.type === 'blind_shuffle') {
        // The proof is checked before the table takes the shuffle (about a second of CPU, off the event
        // loop); the mailbox holds the table's other commands meanwhile, so the claim stays the same.
        const verified = await this.checkShuffle(live.blindShuffleCheck(userId, frame));
        live.command(userId, { ...frame, verified }, this.deps.clock.now());
      } else {
        live.command(userId, frame, now);
      }
    } catch (err) {
      if (!(err instanceof TableError)) throw err;
      // A refusal changes nothing, but is remembered so a retry gets the same answer.
      live.drain();
      const { result, recorded } = this.refusal(command, err);
      if (recorded) await this.checkpoint([]);
      return { tableSeq: live.tableSeq, replies: [], result };
    }
    const member = live.member(userId) !== undefined;
    const outcome = await this.commit(now, (seq) => {
      this.recordAccepted(command, member, seq);
      return [];
    });
    return { ...outcome, result: this.accepted(command, member, outcome.tableSeq) };
  }

  /** Any command but a grouped seed: behind the seeds gathering, which came first. */
  private post(command: TableCommand): Promise<TableOutcome> {
    if (this.seedGroup !== null) this.enqueueSeeds(this.seedGroup);
    return this.mailbox.post(() => this.handle(command));
  }

  /**
   * A client seed's way in. Every seat's client sends its seed as soon as it sees `seed_commit`, so
   * the seeds of a hand arrive together: they wait in one group, applied one after another by one
   * task in the mailbox and committed once (one checkpoint, one snapshot per recipient for all of
   * them) rather than one commit each (docs/architecture.md, "The seventh round"). The first seed of
   * a group waits up to SEED_GATHER_MS for the others (never past the window), and the group goes
   * to the mailbox at once when it holds as many seeds as seats still owe one, or when any other
   * command comes. Each seed gets the answer it would have had alone.
   */
  private seedInGroup(command: ClientCommand): Promise<TableOutcome> {
    if (this.mailbox.isClosed) return this.mailbox.post(() => this.handle(command));
    return new Promise<TableOutcome>((resolve, reject) => {
      const waiter: SeedWaiter = { command, resolve, reject };
      const owed = this.seedsOwed();
      const group = this.seedGroup;
      if (group !== null) {
        group.waiters.push(waiter);
        if (group.waiters.length >= owed) this.enqueueSeeds(group);
        return;
      }
      const created: SeedGroup = { waiters: [waiter], queued: false, cancelGather: undefined };
      this.seedGroup = created;
      const now = this.deps.clock.now();
      const until = Math.min(now + SEED_GATHER_MS, (this.live.pending?.windowClosesAt ?? now) - 1);
      if (owed > 1 && until > now) {
        created.cancelGather = this.deps.scheduler.schedule(until, () => this.enqueueSeeds(created));
      } else {
        this.enqueueSeeds(created);
      }
    });
  }

  /** Seats dealt into the hand being announced that have not sent their seed yet (0 when none is). */
  private seedsOwed(): number {
    const p = this.live.pending;
    if (p === null) return 0;
    return p.humanSeats.filter((seat) => !p.clientSeeds.some((c) => c.seat === seat)).length;
  }

  /** A group's task goes to the mailbox (once); the group takes seeds until the task starts. */
  private enqueueSeeds(group: SeedGroup): void {
    if (group.queued) return;
    group.queued = true;
    group.cancelGather?.();
    group.cancelGather = undefined;
    this.mailbox
      .post(() => {
        // The group is closed once its task starts: a seed that comes later starts the next one.
        if (this.seedGroup === group) this.seedGroup = null;
        return this.seeds(group.waiters);
      })
      .catch((err: unknown) => {
        if (this.seedGroup === group) this.seedGroup = null;
        for (const w of group.waiters) w.reject(err);
      });
  }

  /**
   * Applies a group of client seeds in the order they came and commits them once. A repeat gets its
   * first answer and a refusal its own (remembered in the commit, or in a checkpoint of its own when
   * no seed of the group was taken); nobody is answered before the commit stands. When the commit
   * fails every seed of the group fails with it, undone as a failed command is.
   */
  private async seeds(group: readonly SeedWaiter[]): Promise<void> {
    const live = this.live;
    const now = this.deps.clock.now();
    const answers: (TableOutcome | { readonly error: unknown })[] = [];
    const taken: { readonly command: ClientCommand; readonly index: number; readonly member: boolean }[] = [];
    let recorded = false;
    try {
      try {
        group.forEach(({ command }, index) => {
          let earlier: CommandResult | undefined;
          try {
            earlier = this.earlierAnswer(command);
          } catch (err) {
            answers[index] = { error: err };
            return;
          }
          if (earlier) {
            answers[index] = { tableSeq: live.tableSeq, replies: [], result: earlier };
            return;
          }
          const before = live.pendingEvents;
          try {
            live.command(command.userId, command.frame, now);
          } catch (err) {
            // A refusal changes nothing: had this one emitted anything, the seeds taken before it
            // could not be told apart from it, and the whole group is undone.
            if (!(err instanceof TableError) || live.pendingEvents !== before) throw err;
            const refusal = this.refusal(command, err);
            recorded ||= refusal.recorded;
            answers[index] = { tableSeq: live.tableSeq, replies: [], result: refusal.result };
            return;
          }
          taken.push({ command, index, member: live.member(command.userId) !== undefined });
        });
      } catch (err) {
        // Seeds taken before it are in memory only: back to the last checkpoint.
        this.rollback();
        throw err;
      }
      if (taken.length > 0) {
        const outcome = await this.commit(now, (seq) => {
          for (const t of taken) this.recordAccepted(t.command, t.member, seq);
          return [];
        });
        for (const t of taken) {
          answers[t.index] = { ...outcome, result: this.accepted(t.command, t.member, outcome.tableSeq) };
        }
      } else if (recorded) {
        await this.checkpoint([]);
      }
    } catch (err) {
      for (const w of group) w.reject(err);
      return;
    } finally {
      this.arm();
    }
    group.forEach((w, i) => {
      const answer = answers[i]!;
      if ('error' in answer) w.reject(answer.error);
      else w.resolve(answer);
    });
  }

  /**
   * The connection's check (it must be attached, as the sender) and, for a command id the table has
   * answered already, that first answer; undefined for a new command.
   */
  private earlierAnswer(command: ClientCommand): CommandResult | undefined {
    const live = this.live;
    const { frame, userId, connectionId } = command;
    const conn = live.connection(connectionId);
    if (!conn || conn.userId !== userId) throw notJoined(live.tableId);
    const commandId = frame.command_id;
    if (commandId === undefined) return undefined;
    // Most commands are new: the in-memory answers are looked at only when some are kept.
    return (
      live.history.lookup(userId, commandId) ??
      (this.othersAnswers.size > 0 ? this.othersAnswers.get(answerKey(userId, commandId)) : undefined)
    );
  }

  /**
   * A refusal's answer. Only a member's is remembered (`recorded`: it goes into the next checkpoint,
   * which must stand before the answer is given): anyone else's would let a spectator grow every
   * checkpoint of the table with command ids, one write per frame.
   */
  private refusal(command: ClientCommand, err: TableError): { result: CommandResult; recorded: boolean } {
    const live = this.live;
    const { frame, userId } = command;
    const result: CommandResult = { ok: false, code: err.code, message: err.message, ...err.details };
    if (frame.command_id === undefined || live.member(userId) === undefined) return { result, recorded: false };
    // A command about a hand is remembered while that hand or the next is on (CommandHistory).
    live.history.record(userId, frame.command_id, result, HAND_COMMANDS.has(frame.type) ? live.handNo : undefined);
    return { result, recorded: true };
  }

  /** A member's accepted command, recorded before the checkpoint so that a retry after a failover gets this answer too. */
  private recordAccepted(command: ClientCommand, member: boolean, seq: number): void {
    const { frame, userId } = command;
    if (frame.command_id === undefined || !member) return;
    const live = this.live;
    live.history.record(
      userId,
      frame.command_id,
      { ok: true, atTableSeq: seq },
      HAND_COMMANDS.has(frame.type) ? live.handNo : undefined,
    );
  }

  /** An accepted command's answer once its commit stands; anyone else's is remembered in memory now. */
  private accepted(command: ClientCommand, member: boolean, tableSeq: number): CommandResult {
    const result: CommandResult = { ok: true, atTableSeq: tableSeq };
    // Anyone else's, once the commit stands (it is in no checkpoint to roll back with).
    if (command.frame.command_id !== undefined && !member) {
      this.rememberOthers(command.userId, command.frame.command_id, result);
    }
    return result;
  }

  /** A shuffle proof's verdict: from the thread pool, or here when the pool could not run it. */
  private async checkShuffle(task: ShuffleCheck): Promise<boolean> {
    const checker = this.deps.proofChecker;
    if (checker !== undefined) {
      try {
        return await checker.check(task);
      } catch (err) {
        this.deps.logger.warn(
          { err, tableId: this.live.tableId, event: 'proof_check_failed' },
          'proof check pool failed; checking in process',
        );
      }
    }
    return runBlindCheck(task);
  }

  /**
   * The director's order: a repeat gets its first answer and changes nothing; a refusal changes
   * nothing; an applied order is committed (its answer is in the checkpoint) before it is answered.
   */
  private async tournamentOrder(order: TournamentOrder, now: number): Promise<TableOutcome> {
    const live = this.live;
    const earlier = live.tournamentAnswer(order.order_id);
    if (earlier !== undefined) return { ...this.unchanged(), order: earlier };
    let answer: TournamentOrderResult;
    try {
      answer = live.tournamentOrder(order, now);
    } catch (err) {
      live.drain();
      throw err;
    }
    const outcome = await this.commit(now);
    return { ...outcome, order: answer };
  }

  private rememberOthers(userId: string, commandId: string, result: CommandResult): void {
    this.othersAnswers.set(answerKey(userId, commandId), result);
    if (this.othersAnswers.size > OTHERS_ANSWERS_MAX) {
      this.othersAnswers.delete(this.othersAnswers.keys().next().value!);
    }
  }

  /**
   * Everything a change produced goes out, in this order: bots the table asked for are funded;
   * its events are sequenced (each takes the next table_seq) and fanned out to the recipient
   * streams; each recipient whose view changed ends the batch with its snapshot; the state is
   * checkpointed (nothing leaves the actor before that); then it is published (a heartbeat when
   * there was nothing to publish for a while), and the outbox's jobs go to the hands queue.
   * `replies` runs after sequencing, with the final table_seq, so that a reply snapshot is the
   * very message its stream carried.
   */
  private async commit(
    now: number,
    replies: (tableSeq: number, events: readonly BufferedEvent[]) => ConnectionReply[] = () => [],
    forceSnapshot?: string,
  ): Promise<TableOutcome> {
    await this.fundBots(now);
    const live = this.live;
    // The command history is kept for the table's members only, and a hand's commands while that
    // hand or the next is on (it goes into every checkpoint).
    live.history.retain(live.memberIds(), live.handNo);
    const { emissions, carried } = this.takeEmissions();
    const recipients = live.recipients();
    const events = this.sequence(emissions);
    const fanned = fanOut(live.streams, events, recipients);
    live.streams.advance(fanned.lastByStream);
    const touched = new Set(fanned.lastByStream.keys());
    // Chat changes nobody's view: a batch of chat alone ends with no snapshot (one that another
    // change made due still goes out). The check stops at the first event of any other batch.
    if (events.length > 0 && events.every((e) => e.message.type === 'chat_message')) touched.clear();
    const due = dueSnapshots(live, recipients, touched, forceSnapshot, now);
    const out = replies(live.tableSeq, events);
    // A relayed shuffle went out once, live; the checkpoint and the resync buffer keep its digest.
    const kept = events.map((e) =>
      e.message.type === 'blind_step' ? { ...e, message: bufferedBlindStep(e.message) } : e,
    );
    // The Redis store writes the save's command before its first await, so it is on its way when this
    // returns. The snapshots' texts are not in the checkpoint: they are built while it travels to Redis
    // and back, and nothing is published until it stands.
    const saving = this.checkpointCarrying(kept, carried);
    let snapshots: Publication[];
    try {
      snapshots = snapshotTexts(due);
    } finally {
      await saving;
    }
    this.remember(kept, now);
    const publications = [...fanned.publications, ...snapshots];
    // Nothing happened for a while: each recipient learns the last table_seq its stream carried.
    if (publications.length === 0) publications.push(...this.heartbeats.due(live, recipients, now));
    this.publish(publications, now);
    await this.outboxSender.flush(this.live.outbox);
    return { tableSeq: live.tableSeq, replies: out };
  }

  /** Funds the bots the table asked for; when the table is no longer ours, the command is undone. */
  private async fundBots(now: number): Promise<void> {
    try {
      await fundBots(this.live, this.deps.seeds, this.deps.clock, this.deps.logger, now);
    } catch (err) {
      // The table is no longer ours (a fenced write was refused): undo the command, as a refused
      // checkpoint does, so nothing of it is published.
      this.rollback();
      throw err;
    }
  }

  /** This change's emissions, after those owed from before any command (`carried`). */
  private takeEmissions(): { emissions: Emission[]; carried: Emission[] } {
    const carried = this.pendingEmissions;
    this.pendingEmissions = [];
    return { emissions: [...carried, ...this.live.drain()], carried };
  }

  /** Each emission takes the next table_seq. */
  private sequence(emissions: readonly Emission[]): BufferedEvent[] {
    return emissions.map((e) => {
      const tableSeq = this.live.nextTableSeq();
      const message = { ...e.body, table_seq: tableSeq } as BufferedEvent['message'];
      return { tableSeq, audience: e.audience, message };
    });
  }

  /**
   * Checkpoint before anything leaves the actor: a published table_seq must never be reissued, and
   * an accepted command must survive this worker. Emissions owed from before any command are in no
   * checkpoint: if this one fails they wait for the next command again, or they would be lost.
   */
  private async checkpointCarrying(events: readonly BufferedEvent[], carried: Emission[]): Promise<void> {
    try {
      await this.checkpoint(events);
    } catch (err) {
      this.pendingEmissions = carried;
      throw err;
    }
  }

  /** The checkpointed events join the resync buffer; the table's idle time starts when the last connection goes. */
  private remember(events: readonly BufferedEvent[], now: number): void {
    for (const e of events) this.buffer.push(e);
    const connected = this.live.connections().length > 0;
    if (!connected && this.connectedBefore) this.idleSince = now;
    this.connectedBefore = connected;
  }

  /**
   * Publishes a checkpointed batch without waiting for Redis to answer: the command is answered as
   * soon as its checkpoint is written, one round trip sooner. Order still holds: every batch of the
   * table goes out on one connection in call order (and after the checkpoint that made it). Pub/sub
   * is at-most-once anyway, so a batch whose publish fails is repaired as any lost message is
   * (table_heartbeat, then the recipient's resync from the checkpointed buffer); it is logged.
   */
  private publish(publications: readonly Publication[], now: number): void {
    if (publications.length === 0) return;
    this.heartbeats.published(now);
    const tableId = this.live.tableId;
    this.publishing = this.deps.publisher.publish(tableId, publications).catch((err: unknown) => {
      this.deps.logger.warn({ err, tableId, event: 'publish_failed' }, 'publish failed; recipients resync');
    });
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
      // The store may hold what this save wrote (its reply lost, its replicas late): the next save
      // supersedes it (CheckpointStore.save).
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

  /** Keeps one timer armed for the table's next due time. */
  private arm(): void {
    if (this.stopped) return;
    let at = this.live.nextWakeAt();
    const beat = this.heartbeats.dueAt(this.live);
    if (beat !== null) at = at === null ? beat : Math.min(at, beat);
    // Jobs still owed to the hands queue: a tick checkpoints and sends them (after a pause if the
    // queue refused the last try).
    if (this.live.outbox.length > 0) {
      const retry = this.deps.clock.now() + (this.outboxSender.failed ? OUTBOX_RETRY_MS : 0);
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

/** A command's key among the answers kept in memory: user ids and command ids never hold a NUL. */
function answerKey(userId: string, commandId: string): string {
  return `${userId}\u0000${commandId}`;
}
