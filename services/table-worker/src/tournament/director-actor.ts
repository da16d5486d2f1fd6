import {
  SeededRng,
  bytesToHex,
  chipsHeld,
  clockPositionAt,
  addOn,
  closeRegistration,
  lateEntry,
  levelAfterHands,
  levelAt,
  placePrizes,
  raisePrizes,
  setBreak,
  startClock,
  startDirector,
  tableHandEnded,
  TournamentError,
  upgradeDirectorState,
  type BlindLevel,
  type DirectorCommand,
  type DirectorState,
  type TournamentClock,
} from '@felt/engine';
import type { Logger } from '@felt/platform';
import type { TournamentConfig, TournamentView } from '@felt/protocol';
import { Mailbox } from '../actor/mailbox.js';
import type { CheckpointStore, Clock, RandomSource, Scheduler } from '../ports.js';
import { directorKey, type TournamentOrder, type TournamentReport } from './contracts.js';
import { PeerRefusedError, type StartedTournament, type TournamentPeerLink, type TournamentStore } from './ports.js';

/** The latest players out that the tables show (`placed`), most recent first. */
const PLACED_SHOWN = 30;
/** How long the director waits before carrying out a command again after a failure, at most. */
const RETRY_MAX_MS = 5_000;

/**
 * What the runner carries out: the engine director's commands, a new level told to a table, and an
 * entry busted while late registration is open marked out in Postgres (so its player may re-enter).
 */
type Work =
  | DirectorCommand
  | { readonly kind: 'info'; readonly table: number }
  | { readonly kind: 'out'; readonly player: string; readonly entryNo: number };

/** A command the director decided, with the order id it is carried out under. */
interface PendingCommand {
  readonly id: string;
  readonly command: Work;
}

/** The director's checkpoint (`P {table:tournament:<id>}:checkpoint`'s state). */
export interface DirectorJSON {
  readonly format: 'felt-director/1';
  readonly tournamentId: string;
  readonly name: string;
  readonly config: TournamentConfig;
  readonly entrants: number;
  readonly state: DirectorState;
  /** Each table number's table id (`tournament_tables`). */
  readonly tables: Readonly<Record<string, string>>;
  /** Each player's current entry and name. */
  readonly players: Readonly<Record<string, DirectorPlayerRef>>;
  readonly clock: TournamentClock;
  /** Commands decided and not yet carried out, oldest first: a successor carries them out. */
  readonly pending: readonly PendingCommand[];
  /** Moves whose player has left the old table and is not seated at the new one yet: the chips carried. */
  readonly inTransit: Readonly<Record<string, number>>;
  /** The latest entries out (a checkpoint written before re-entry has no entry_no: read as 1). */
  readonly placed: readonly (Omit<TournamentView['placed'][number], 'entry_no'> & { readonly entry_no?: number })[];
  /** The last level every table was told of (levels in minutes: each new one is pushed to the tables). */
  readonly announcedLevel: number;
  /** Counts the director's checkpoints (its "table_seq" in the checkpoint store). */
  readonly step: number;
  /** Every command of the finished tournament is carried out: nothing is left to do. */
  readonly done: boolean;
  /** Re-entry was closed in Postgres (the config's reEntry.untilLevel is over); absent: not yet. */
  readonly reEntryClosed?: boolean;
  /**
   * Since when (ms) one player alone has waited for late entries, with levels counted in hands (no hand
   * is dealt, so no level ends): registration closes once nobody came for the clock's action time.
   */
  readonly loneSince?: number | null;
  /**
   * The add-on's sale (config.addOn), from the first break's start to its end (`until`, ms); absent
   * before it. `handled`: the entries whose add-on was given or paid back; `given`: how many were
   * given (the prizes include them). `closed`: the sale is over.
   */
  readonly addOnSale?: {
    readonly until: number;
    readonly handled: readonly string[];
    readonly given: number;
    readonly closed: boolean;
  };
}

/** A player as the director's runner knows them: their entries' ids in Postgres and their name. */
export interface DirectorPlayerRef {
  /** The current entry's id. */
  readonly entryId: string;
  readonly name: string;
  /**
   * Every entry's id by the director's entry number (1, 2, …), once the player has re-entered: an
   * earlier entry is placed and paid by its own id. Absent for a player with one entry.
   */
  readonly entryIds?: Readonly<Record<string, string>>;
}

/** The Postgres id of a player's entry `entryNo` (the director's numbering). */
export function entryIdOf(json: Pick<DirectorJSON, 'players'>, player: string, entryNo: number): string {
  const ref = json.players[player]!;
  return ref.entryIds?.[String(entryNo)] ?? ref.entryId;
}

export function isDirectorJSON(state: unknown, tournamentId: string): state is DirectorJSON {
  const s = state as Partial<DirectorJSON> | null;
  return typeof s === 'object' && s !== null && s.format === 'felt-director/1' && s.tournamentId === tournamentId;
}

export interface DirectorDeps {
  readonly store: TournamentStore;
  readonly peers: TournamentPeerLink;
  /** Fenced by the director's lease (Directors wraps it). */
  readonly checkpoints: CheckpointStore;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly random: RandomSource;
  readonly logger: Logger;
}

/** A report the director refuses: it does not add up, or names a table or player it does not know. */
export class ReportRefusedError extends Error {
  override readonly name = 'ReportRefusedError';
}

/**
 * One tournament's director (docs/architecture.md, "Tournaments"): the engine's pure state machine
 * (`@felt/engine` director.ts) behind a mailbox, checkpointed after every step, with a runner that
 * carries out the commands it decided, in order, one at a time, as orders to the tables (the Tournament
 * RPC) and as Postgres writes (places, prizes, the finish). A command is dropped from `pending` only
 * once it is done, so a successor resumed from the checkpoint carries out what was left, and every
 * order is idempotent at the table by its id.
 *
 * The runner works outside the mailbox: a table that is sending its report (waiting for this mailbox)
 * must not wait for an order of ours that waits for the table.
 */
export class DirectorActor {
  private readonly mailbox = new Mailbox();
  private running: Promise<void> | null = null;
  private stopped = false;
  private cancelTimer: (() => void) | undefined;
  private cancelRetry: (() => void) | undefined;
  private failures = 0;
  /** The late-entry pass queued or running, if any (admitLateEntries). */
  private admitting: Promise<void> | null = null;

  private constructor(
    private json: DirectorJSON,
    private readonly deps: DirectorDeps,
  ) {}

  get tournamentId(): string {
    return this.json.tournamentId;
  }

  get done(): boolean {
    return this.json.done;
  }

  /** The director's state (a copy): tests and the ops port. */
  snapshot(): DirectorJSON {
    return structuredClone(this.json);
  }

  /** A director resumed from its checkpoint: it carries out what was left and keeps the clock. */
  static resume(json: DirectorJSON, deps: DirectorDeps): DirectorActor {
    // A checkpoint written by an older version lacks the newer fields (the break, queued add-ons).
    const actor = new DirectorActor({ ...json, state: upgradeDirectorState(json.state) }, deps);
    actor.armLevelTimer();
    actor.kick();
    return actor;
  }

  /**
   * The tournament starts: the field is drawn to its tables (opened in Postgres), the first checkpoint
   * is written, and the runner seats everyone and deals.
   */
  static async start(tournamentId: string, started: StartedTournament, deps: DirectorDeps): Promise<DirectorActor> {
    const { config } = started;
    const ids = started.players.map((p) => p.userId);
    const step = startDirector(
      ids,
      {
        maxSeats: config.seats,
        startingStack: config.startingStack,
        prizes: placePrizes(started.prizePool, ids.length),
        rule: config.simultaneousBusts,
        registrationOpen: config.lateRegistrationLevels > 0,
      },
      rngOf(deps.random),
    );
    const tableIds = await deps.store.openTables(tournamentId, step.state.tables.length);
    const tables: Record<string, string> = {};
    step.state.tables.forEach((t, i) => (tables[String(t.table)] = tableIds[i]!));
    const json: DirectorJSON = {
      format: 'felt-director/1',
      tournamentId,
      name: started.name,
      config,
      entrants: ids.length,
      state: step.state,
      tables,
      players: Object.fromEntries(started.players.map((p) => [p.userId, { entryId: p.entryId, name: p.name }])),
      clock: startClock(deps.clock.now()),
      pending: [],
      inTransit: {},
      placed: [],
      announcedLevel: 0,
      step: 1,
      done: false,
    };
    const actor = new DirectorActor(withCommands(json, step.commands), deps);
    await actor.save();
    deps.logger.info(
      { event: 'tournament_started', tournamentId, players: ids.length, tables: tableIds.length },
      'tournament started: the field is drawn',
    );
    actor.armLevelTimer();
    actor.kick();
    return actor;
  }

  /**
   * A table's hand ended: the director takes the chips as reported, places and pays busts, breaks and
   * balances tables, and deals on. Resolves once the step is checkpointed (a repeat changes nothing).
   * Throws ReportRefusedError for a report that does not add up.
   */
  report(report: TournamentReport): Promise<void> {
    return this.mailbox.post(async () => {
      if (this.json.done || this.json.state.finished) return;
      const tableNo = Object.entries(this.json.tables).find(([, id]) => id === report.table_id)?.[0];
      if (tableNo === undefined) throw new ReportRefusedError(`table ${report.table_id} is not this tournament's`);
      let step;
      try {
        step = tableHandEnded(
          this.json.state,
          {
            table: Number(tableNo),
            handNo: report.hand_no,
            button: report.button,
            results: report.results.map((r) => ({
              player: r.user_id,
              startingStack: r.starting_stack,
              finalStack: r.final_stack,
            })),
          },
          rngOf(this.deps.random),
        );
      } catch (err) {
        this.deps.logger.error(
          { err, tournamentId: this.tournamentId, tableId: report.table_id, handNo: report.hand_no },
          'tournament report refused: it does not add up to what the director holds',
        );
        throw new ReportRefusedError(err instanceof Error ? err.message : String(err));
      }
      if (step.state === this.json.state) return;
      if (chipsHeld(step.state) !== step.state.chipsInPlay) {
        // The engine checks every report; this would be a bug in it. Nothing is taken.
        throw new ReportRefusedError('the chips in play would change');
      }
      // Busts held while registration is open are out in Postgres at once: their players may re-enter.
      const outs: PendingCommand[] = step.state.unplaced
        .slice(this.json.state.unplaced.length)
        .flat()
        .map((e) => ({
          id: `out:${e.player}:${e.entryNo}`,
          command: { kind: 'out', player: e.player, entryNo: e.entryNo },
        }));
      const next = withCommands({ ...this.json, state: step.state }, step.commands);
      await this.commit({ ...next, pending: [...next.pending, ...outs] });
      this.kick();
    });
  }

  /**
   * The directors' poll, one pass at a time (a slow Postgres does not pile one per poll into the
   * mailbox): the break follows the clock (also after a failover), and while they run, late
   * registration ({@link admitLate}) and the add-on's sale ({@link sellAddOns}) are carried on.
   */
  poll(): Promise<void> {
    const { state, config } = this.json;
    const sale = this.json.addOnSale;
    // The add-on's sale is not over (or, once the tournament is over, an open one must still close).
    const selling = config.addOn !== null && sale?.closed !== true && (sale !== undefined || !state.finished);
    const idle = state.finished
      ? !selling
      : !state.registrationOpen &&
        !selling &&
        state.onBreak === (this.position(this.deps.clock.now()).breakEndsAt !== null);
    // Nothing to do (the usual case once registration and the add-on are over): nothing is posted.
    if (idle || this.admitting !== null) return this.admitting ?? Promise.resolve();
    this.admitting = this.mailbox
      .post(async () => {
        await this.followClock();
        await this.admitLate();
        await this.sellAddOns();
      })
      .finally(() => {
        this.admitting = null;
      });
    return this.admitting;
  }

  /**
   * Late registration (config.lateRegistrationLevels): the entries registered since the start are seated
   * (at the smallest table, or a new one when all are full). Once the last late level is over,
   * registration closes in Postgres first, the entries it let in are seated, and the final prizes are
   * set from the final pool and field; the busts held meanwhile are placed and paid. After a failover a
   * repeat seats nobody twice (a seated entry is in `players`).
   */
  private async admitLate(): Promise<void> {
    const { state, config, tournamentId } = this.json;
    if (this.json.done || state.finished || !state.registrationOpen) return;
    // (poll's first step may have committed: read this.json again below.)
    const now = this.deps.clock.now();
    const { level } = this.position(now);
    let next = this.json;
    // Levels counted in hands end only with hands: a lone player waiting for late entries deals none,
    // so the clock would never close registration. It closes once nobody came for the action time.
    const lone = config.structure.levelLength.unit === 'hands' && state.remaining < 2;
    const loneSince = lone ? (next.loneSince ?? now) : null;
    if (loneSince !== (next.loneSince ?? null)) next = { ...next, loneSince };
    // Re-entry ends with its last level (at the latest with late registration, which closes below).
    if (config.reEntry !== null && !next.reEntryClosed && level > config.reEntry.untilLevel) {
      await this.deps.store.closeReEntry(tournamentId);
      next = { ...next, reEntryClosed: true };
      this.deps.logger.info({ event: 're_entry_closed', tournamentId, level }, 're-entry closed');
    }
    const closing =
      level > config.lateRegistrationLevels ||
      (loneSince !== null && now - loneSince >= config.clock.actionSeconds * 1_000);
    const closed = closing ? await this.deps.store.closeRegistration(tournamentId) : null;
    for (const e of await this.deps.store.lateEntries(tournamentId)) {
      const known = next.players[e.userId];
      if (
        known !== undefined &&
        (known.entryId === e.entryId || Object.values(known.entryIds ?? {}).includes(e.entryId))
      )
        continue;
      // The director numbers the entries it seats: a registration refunded before the start is none.
      const entryNo = (next.state.players[e.userId]?.entryNo ?? 0) + 1;
      let step;
      try {
        step = lateEntry(next.state, e.userId, { stack: config.startingStack, entryNo }, rngOf(this.deps.random));
      } catch (err) {
        // Postgres took an entry the rules cannot seat (its player still sits): the others go on.
        this.deps.logger.error(
          { err, event: 'late_entry_refused', tournamentId, userId: e.userId, entryId: e.entryId },
          'a late entry cannot be seated',
        );
        continue;
      }
      const entryIds =
        known === undefined
          ? undefined
          : { ...(known.entryIds ?? { [String(entryNo - 1)]: known.entryId }), [String(entryNo)]: e.entryId };
      next = withCommands(
        {
          ...next,
          state: step.state,
          entrants: next.entrants + 1,
          players: {
            ...next.players,
            [e.userId]: { entryId: e.entryId, name: e.name, ...(entryIds !== undefined ? { entryIds } : {}) },
          },
        },
        step.commands,
      );
    }
    if (closed !== null) {
      const step = closeRegistration(next.state, placePrizes(closed.prizePool, closed.entries));
      next = withCommands({ ...next, state: step.state }, step.commands);
      this.deps.logger.info(
        { event: 'registration_closed', tournamentId, entries: closed.entries, prizePool: closed.prizePool },
        'late registration closed: the prizes are final',
      );
    }
    if (next === this.json) return;
    if (chipsHeld(next.state) !== next.state.chipsInPlay) throw new Error('the chips in play would not add up');
    // Every table shows the new field (and, once closed, the final prizes) at once.
    if (next.entrants !== this.json.entrants || closed !== null) {
      const infos: PendingCommand[] = next.state.tables
        .filter((t) => !t.closed)
        .map((t) => ({
          id: `info:field:${next.entrants}:${closed !== null ? 'closed' : 'open'}:${t.table}`,
          command: { kind: 'info', table: t.table },
        }));
      next = { ...next, pending: [...next.pending, ...infos] };
    }
    await this.commit(next);
    this.kick();
  }

  /**
   * A break starts or ends with the clock: while it lasts the tables deal nothing (the engine's
   * `setBreak`: they report and wait, so players may move and add-ons reach them between hands), and
   * when it ends every waiting table deals. Run at each level's end (the timer) and at each poll.
   */
  private async followClock(): Promise<void> {
    const { state } = this.json;
    if (this.json.done || state.finished) return;
    const onBreak = this.position(this.deps.clock.now()).breakEndsAt !== null;
    if (onBreak === state.onBreak) return;
    const step = setBreak(state, onBreak);
    await this.commit(withCommands({ ...this.json, state: step.state }, step.commands));
    this.kick();
  }

  /**
   * The add-on (config.addOn), on sale through the first break (late registration has closed by then:
   * newTournamentIssues). It goes on sale in Postgres when that break starts; each add-on bought is
   * given to its player (`addOn`: at once where their table waits, else when it reports its hand,
   * before a bust is decided), or paid back when the player is out by then. The prizes grow with every
   * add-on given (`raisePrizes`, places already paid keeping what they were paid), so that a
   * tournament that ends during the break pays the whole pool too. When the break is over the sale
   * closes in Postgres; once the tournament is over, what was bought and not given is paid back.
   */
  private async sellAddOns(): Promise<void> {
    const { config, tournamentId } = this.json;
    const sale = this.json.addOnSale;
    if (config.addOn === null || this.json.done || sale?.closed === true) return;
    const finished = this.json.state.finished;
    const now = this.deps.clock.now();
    let next = this.json;
    if (sale === undefined) {
      const until = this.position(now).breakEndsAt;
      if (until === null || finished) return;
      await this.deps.store.openAddOn(tournamentId, new Date(until));
      next = { ...next, addOnSale: { until, handled: [], given: 0, closed: false } };
      this.deps.logger.info({ event: 'add_on_open', tournamentId, until }, 'the add-on is on sale');
    }
    // Past the break (or the tournament is over): the sale closes first, so that nothing is bought
    // after the add-ons read below; each is then given or paid back, and the close is read again.
    const closing = finished || now >= next.addOnSale!.until;
    if (closing) await this.deps.store.closeAddOns(tournamentId);
    const handled = new Set(next.addOnSale!.handled);
    const givenBefore = next.addOnSale!.given;
    let given = givenBefore;
    for (const bought of await this.deps.store.addOnsBought(tournamentId)) {
      if (handled.has(bought.entryId)) continue;
      let step = null;
      if (!finished && next.players[bought.userId]?.entryId === bought.entryId) {
        try {
          step = addOn(next.state, bought.userId, config.addOn.chips);
        } catch (err) {
          // Out before the add-on reached them: paid back below.
          if (!(err instanceof TournamentError)) throw err;
        }
      }
      if (step === null) {
        await this.deps.store.refundAddOn(tournamentId, bought.entryId);
        this.deps.logger.info(
          { event: 'add_on_refunded', tournamentId, entryId: bought.entryId },
          'an add-on was paid back: its player was out (or the tournament over) before it reached them',
        );
      } else {
        next = withCommands({ ...next, state: step.state }, step.commands);
        given++;
      }
      handled.add(bought.entryId);
    }
    const counted = next.entrants * config.buyIn + given * config.addOn.cost;
    let pool = counted;
    if (closing) {
      const closed = await this.deps.store.closeAddOns(tournamentId);
      if (closed.prizePool !== pool || closed.entries !== next.entrants) {
        this.deps.logger.error(
          { event: 'add_on_pool_differs', tournamentId, postgres: closed, director: { pool, entries: next.entrants } },
          'the prize pool Postgres holds differs from the director’s count: Postgres’s is paid',
        );
        pool = closed.prizePool;
      }
      this.deps.logger.info(
        { event: 'add_on_closed', tournamentId, prizePool: pool, given },
        'the add-on sale is over',
      );
    }
    const grew = given !== givenBefore || pool !== counted;
    next = { ...next, addOnSale: { ...next.addOnSale!, handled: [...handled], given, closed: closing } };
    if (grew && !finished) {
      const step = raisePrizes(next.state, placePrizes(pool, next.entrants));
      next = withCommands({ ...next, state: step.state }, step.commands);
      // Every table shows the new prizes.
      const infos = next.state.tables
        .filter((t) => !t.closed)
        .map((t): PendingCommand => ({
          id: `info:prizes:${pool}:${t.table}`,
          command: { kind: 'info', table: t.table },
        }));
      next = { ...next, pending: [...next.pending, ...infos] };
    }
    if (chipsHeld(next.state) !== next.state.chipsInPlay) throw new Error('the chips in play would not add up');
    if (JSON.stringify(next.addOnSale) === JSON.stringify(this.json.addOnSale) && next.state === this.json.state)
      return;
    await this.commit(next);
    this.kick();
  }

  /** Stops the runner and the timers; queued steps finish first. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelRetry?.();
    await this.mailbox.close();
    await this.running;
  }

  /**
   * Where the clock stands: the level (1, 2, …; levels in hands count the busiest table's hands), and
   * when the level or the break under way ends (levels in minutes only).
   */
  private position(now: number): { level: number; levelEndsAt: number | null; breakEndsAt: number | null } {
    const { config, state } = this.json;
    const structure = config.structure;
    if (structure.levelLength.unit !== 'minutes') {
      const index = levelAfterHands(structure, Math.max(0, ...state.tables.map((t) => t.lastHandNo)));
      return { level: index + 1, levelEndsAt: null, breakEndsAt: null };
    }
    const at = clockPositionAt(structure, this.json.clock, now);
    return {
      level: at.level + 1,
      levelEndsAt: at.onBreak ? null : at.endsAtMs,
      breakEndsAt: at.onBreak ? at.endsAtMs : null,
    };
  }

  /** What the tables show of the tournament now. */
  info(now: number): { view: TournamentView } {
    const { config, state } = this.json;
    const structure = config.structure;
    const { level, levelEndsAt, breakEndsAt } = this.position(now);
    const index = level - 1;
    // Seated players (busts wait for their place while late registration is open).
    const remaining = Object.values(state.players).filter((p) => p.place === null && p.table !== null);
    const view: TournamentView = {
      tournament_id: this.tournamentId,
      name: this.json.name,
      level: levelView(levelAt(structure, index), index + 1),
      next_level: levelView(levelAt(structure, index + 1), index + 2),
      level_ends_at: levelEndsAt,
      break_ends_at: breakEndsAt,
      players_left: state.remaining,
      entrants: this.json.entrants,
      average_stack: state.remaining > 0 ? Math.floor(state.chipsInPlay / state.remaining) : 0,
      stacks: remaining.map((p) => p.chips).sort((a, b) => b - a),
      prizes: [...state.prizes],
      hand_for_hand: state.handForHand.active,
      placed: this.json.placed.map((p) => ({ ...p, entry_no: p.entry_no ?? 1 })),
    };
    return { view };
  }

  // ------------------------------------------------------------------------------------------
  // Carrying out

  private kick(): void {
    if (this.running !== null || this.stopped || this.json.pending.length === 0) return;
    this.running = this.run()
      .catch((err: unknown) => {
        // A checkpoint that could not be written (Redis away, the lease lost): nothing changed; a
        // lost lease stops this actor, anything else is tried again.
        if (this.stopped) return;
        this.deps.logger.warn({ err, tournamentId: this.tournamentId }, 'director step not saved; retrying');
        this.retryAt(this.deps.clock.now() + RETRY_MAX_MS);
      })
      .finally(() => {
        this.running = null;
      });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const next = this.json.pending[0];
      if (next === undefined) return;
      const waitUntil = this.waitBeforeDealing(next);
      if (waitUntil !== null) {
        this.retryAt(waitUntil);
        return;
      }
      try {
        await this.carryOut(next);
      } catch (err) {
        if (this.stopped) return;
        // A table closed since a new level was queued for it: nothing to tell.
        const moot = err instanceof PeerRefusedError && next.command.kind === 'info';
        if (!moot) {
          this.failures++;
          const delay = Math.min(RETRY_MAX_MS, 100 * 2 ** Math.min(this.failures, 6));
          this.deps.logger.warn(
            { err, tournamentId: this.tournamentId, command: next.id, retryInMs: delay },
            'tournament command not carried out yet; retrying',
          );
          this.retryAt(this.deps.clock.now() + delay);
          return;
        }
      }
      this.failures = 0;
      await this.mailbox.post(async () => {
        if (this.json.pending[0]?.id !== next.id) return;
        const inTransit = { ...this.json.inTransit };
        if (next.command.kind === 'move') delete inTransit[next.command.moveId];
        const rest = this.json.pending.slice(1);
        await this.commit({
          ...this.json,
          pending: rest,
          inTransit,
          done: this.json.state.finished && rest.length === 0,
        });
      });
    }
  }

  /** Deals wait for the end of a break. */
  private waitBeforeDealing(p: PendingCommand): number | null {
    if (p.command.kind !== 'deal') return null;
    return this.position(this.deps.clock.now()).breakEndsAt;
  }

  private retryAt(at: number): void {
    this.cancelRetry?.();
    this.cancelRetry = this.deps.scheduler.schedule(at, () => {
      this.cancelRetry = undefined;
      this.kick();
    });
  }

  private async carryOut(p: PendingCommand): Promise<void> {
    const c = p.command;
    const { tournamentId } = this;
    switch (c.kind) {
      case 'move': {
        const player = this.json.players[c.player]!;
        const to = this.tableId(c.to.table);
        if (c.from !== null && this.json.inTransit[c.moveId] === undefined) {
          const out = await this.order({
            kind: 'remove',
            order_id: `${c.moveId}:out`,
            tournament_id: tournamentId,
            table_id: this.tableId(c.from.table),
            user_id: c.player,
            to_table_id: to,
          });
          if (out.stack !== c.stack) {
            this.deps.logger.error(
              { event: 'moved_stack_differs', tournamentId, player: c.player, table: out.stack, director: c.stack },
              'a moved player’s stack at the table differs from the director’s: the director’s is carried',
            );
          }
          await this.mailbox.post(() =>
            this.commit({ ...this.json, inTransit: { ...this.json.inTransit, [c.moveId]: c.stack } }),
          );
        }
        await this.order({
          kind: 'seat',
          order_id: `${c.moveId}:in`,
          tournament_id: tournamentId,
          table_id: to,
          user_id: c.player,
          name: player.name.slice(0, 64),
          seat: c.to.seat,
          stack: c.stack,
        });
        await this.deps.store.seated(player.entryId, to);
        // Seated there: the table they left tells them where to go (they join a table that has them).
        if (c.from !== null) {
          await this.order({
            kind: 'told_moved',
            order_id: `${c.moveId}:told`,
            tournament_id: tournamentId,
            table_id: this.tableId(c.from.table),
            user_id: c.player,
            to_table_id: to,
          });
        }
        return;
      }
      case 'deal':
        await this.order({
          kind: 'deal',
          order_id: p.id,
          tournament_id: tournamentId,
          table_id: this.tableId(c.table),
          info: this.info(this.deps.clock.now()).view,
        });
        return;
      case 'info':
        await this.order({
          kind: 'info',
          order_id: p.id,
          tournament_id: tournamentId,
          table_id: this.tableId(c.table),
          info: this.info(this.deps.clock.now()).view,
        });
        return;
      case 'close_table': {
        const tableId = this.tableId(c.table);
        await this.order({
          kind: 'close',
          order_id: p.id,
          tournament_id: tournamentId,
          table_id: tableId,
          reason: this.json.state.finished ? 'finished' : 'broken',
          info: this.info(this.deps.clock.now()).view,
        });
        await this.deps.store.closeTable(tableId);
        return;
      }
      case 'award':
        await this.deps.store.award(tournamentId, entryIdOf(this.json, c.player, c.entryNo), c.place, c.prize);
        return;
      case 'out':
        await this.deps.store.markOut(tournamentId, entryIdOf(this.json, c.player, c.entryNo));
        return;
      case 'open_table': {
        // Tables 1..n are created once each: the new one's id is the last.
        const ids = await this.deps.store.openTables(tournamentId, c.table);
        const tableId = ids[c.table - 1]!;
        await this.mailbox.post(() =>
          this.commit({ ...this.json, tables: { ...this.json.tables, [String(c.table)]: tableId } }),
        );
        return;
      }
      case 'add_chips': {
        const player = this.json.players[c.player]!;
        await this.order({
          kind: 'add_chips',
          order_id: p.id,
          tournament_id: tournamentId,
          table_id: this.tableId(c.table),
          user_id: c.player,
          name: player.name.slice(0, 64),
          seat: c.seat,
          chips: c.chips,
        });
        return;
      }
      case 'finished':
        await this.deps.store.finish(tournamentId);
        this.deps.logger.info({ event: 'tournament_finished', tournamentId, winner: c.winner }, 'tournament finished');
        return;
    }
  }

  private async order(order: TournamentOrder) {
    return this.deps.peers.send(order);
  }

  private tableId(tableNo: number): string {
    return this.json.tables[String(tableNo)]!;
  }

  // ------------------------------------------------------------------------------------------
  // The clock: a new level (in minutes) is told to every open table at once.

  private armLevelTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (this.stopped || this.json.state.finished || this.json.config.structure.levelLength.unit !== 'minutes') return;
    const now = this.deps.clock.now();
    const at = clockPositionAt(this.json.config.structure, this.json.clock, now);
    if (at.endsAtMs === null) return;
    this.cancelTimer = this.deps.scheduler.schedule(at.endsAtMs, () => {
      this.cancelTimer = undefined;
      void this.mailbox
        .post(() => this.announceLevel())
        .catch((err: unknown) => {
          if (!this.stopped) this.deps.logger.warn({ err, tournamentId: this.tournamentId }, 'level not announced');
        })
        .finally(() => this.armLevelTimer());
    });
  }

  private async announceLevel(): Promise<void> {
    if (this.json.state.finished) return;
    await this.followClock();
    const { level } = this.position(this.deps.clock.now());
    if (level <= this.json.announcedLevel) return;
    // Shown at once at every open table (a table in a hand plays it at the old level; its next deal
    // brings the new one).
    const infos: PendingCommand[] = this.json.state.tables
      .filter((t) => !t.closed)
      .map((t) => ({ id: `info:${level}:${t.table}`, command: { kind: 'info', table: t.table } }));
    await this.commit({ ...this.json, announcedLevel: level, pending: [...this.json.pending, ...infos] });
    this.kick();
  }

  // ------------------------------------------------------------------------------------------
  // Checkpoints

  /** Saves `next` (fenced by the lease) and makes it the state; on failure nothing changes. */
  private async commit(next: DirectorJSON): Promise<void> {
    const candidate = { ...next, step: this.json.step + 1 };
    await this.write(candidate);
    this.json = candidate;
  }

  private save(): Promise<void> {
    return this.write(this.json);
  }

  private write(json: DirectorJSON): Promise<void> {
    return this.deps.checkpoints.save(directorKey(json.tournamentId), json.step, JSON.stringify(json), []);
  }
}

/** The commands of one step queued with their order ids; the awards' players join `placed`. */
function withCommands(json: DirectorJSON, commands: readonly DirectorCommand[]): DirectorJSON {
  const pending = [...json.pending];
  let placed = [...json.placed];
  for (const command of commands) {
    pending.push({ id: commandId(json.state, command), command });
    if (command.kind === 'award') {
      const name = json.players[command.player]?.name ?? '';
      placed = [
        {
          user_id: command.player,
          name: name.slice(0, 64),
          place: command.place,
          prize: command.prize,
          entry_no: command.entryNo,
        },
        ...placed,
      ].slice(0, PLACED_SHOWN);
    }
  }
  return { ...json, pending, placed };
}

/** Each command's order id, fixed when it is decided (a successor sends the same one). */
function commandId(state: DirectorState, command: DirectorCommand): string {
  switch (command.kind) {
    case 'move':
      return command.moveId;
    case 'deal':
      // The hand the table last reported: one deal per report, whatever is sent again.
      return `deal:${command.table}:${state.tables.find((t) => t.table === command.table)?.lastHandNo ?? 0}`;
    case 'close_table':
      return `close:${command.table}`;
    case 'award':
      // A re-entered player's earlier entries are awarded apart.
      return command.entryNo > 1 ? `award:${command.player}:${command.entryNo}` : `award:${command.player}`;
    case 'finished':
      return 'finished';
    case 'open_table':
      return `open:${command.table}`;
    case 'add_chips':
      return command.addId;
  }
}

function levelView(level: BlindLevel, number: number): TournamentView['level'] {
  return {
    number,
    small_blind: level.smallBlind,
    big_blind: level.bigBlind,
    ante: level.ante,
    big_blind_ante: level.bigBlindAnte,
  };
}

/** A fresh generator for one step (a step is checkpointed before anything it decided is carried out). */
function rngOf(random: RandomSource): SeededRng {
  return new SeededRng(bytesToHex(random.bytes(16)));
}
