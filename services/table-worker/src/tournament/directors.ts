import type { Logger } from '@felt/platform';
import { MailboxClosedError } from '../actor/mailbox.js';
import { NotOwnerError, type HeldLease, type TableOwnership } from '../ownership/table-ownership.js';
import { StaleEpochError, type CheckpointStore, type Clock, type RandomSource, type Scheduler } from '../ports.js';
import { directorKey, type TournamentReport } from './contracts.js';
import { DirectorActor, isDirectorJSON, type DirectorDeps } from './director-actor.js';
import { TournamentNotStartedError, type TournamentPeerLink, type TournamentStore } from './ports.js';

export interface DirectorsOptions {
  readonly store: TournamentStore;
  readonly peers: TournamentPeerLink;
  /** The checkpoint store, unfenced: each director's writes are fenced by its own lease here. */
  readonly checkpoints: CheckpointStore;
  /** The leases (shared with the tables). Absent: unfenced (single-process tests). */
  readonly ownership: TableOwnership | undefined;
  /** Whether this worker owns a ring key now (`tournament:<id>`). */
  readonly owns: (key: string) => boolean;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly random: RandomSource;
  readonly logger: Logger;
  /** How often Postgres is asked for tournaments to start or resume. */
  readonly pollMs: number;
  /**
   * Brings a tournament table the ring gives this worker to life here (a table nobody is connected to
   * must still play on after its worker died: its hand, and the director, wait for it).
   */
  readonly adoptTable?: (tableId: string) => void;
}

interface Entry {
  readonly actor: DirectorActor;
  readonly lease: HeldLease | undefined;
}

/**
 * The tournament directors of one worker (docs/architecture.md, "Tournaments"). Each tournament has
 * one director, on the worker the ring names for `tournament:<id>`, under a lease like a table's, with
 * every checkpoint fenced by its epoch. Every `pollMs` this worker asks Postgres for running
 * tournaments and for registering ones whose start is due, and runs the ones it owns: a due one is
 * started (or cancelled, refunding everyone, when too few registered); a running one is resumed from its
 * checkpoint (its worker died, or the ring moved it here). A director whose lease is lost, or whose
 * tournament the ring gives another worker, stops here.
 */
export class Directors {
  private readonly live = new Map<string, Entry>();
  private readonly opening = new Map<string, Promise<DirectorActor>>();
  private cancelPoll: (() => void) | undefined;
  private polling = false;
  private closed = false;

  constructor(private readonly options: DirectorsOptions) {
    options.ownership?.onLost((lease) => {
      for (const [id, entry] of this.live) {
        if (entry.lease === lease) void this.evict(id, 'lease lost');
      }
    });
  }

  get size(): number {
    return this.live.size;
  }

  /** The live director of a tournament here, if any (tests, the ops port). */
  peek(tournamentId: string): DirectorActor | undefined {
    return this.live.get(tournamentId)?.actor;
  }

  start(): void {
    this.schedulePoll(0);
  }

  /** A table's hand report for a tournament this worker owns (its director is resumed if need be). */
  async report(report: TournamentReport): Promise<void> {
    let actor: DirectorActor;
    try {
      actor = await this.get(report.tournament_id, false);
    } catch (err) {
      if (!(err instanceof TournamentNotStartedError)) throw err;
      // Over or cancelled, its director long gone: the report changes nothing any more.
      this.options.logger.warn(
        { event: 'report_after_end', tournamentId: report.tournament_id, tableId: report.table_id, reason: err.reason },
        'a hand report for a tournament that is not running: dropped',
      );
      return;
    }
    await actor.report(report);
  }

  /** One pass over what Postgres says should run (exposed for tests; the timer calls it). */
  async poll(): Promise<void> {
    if (this.polling || this.closed) return;
    this.polling = true;
    try {
      const now = new Date(this.options.clock.now());
      for (const t of await this.options.store.toDirect(now)) {
        if (this.closed) return;
        if (!this.options.owns(directorKey(t.id)) || this.live.has(t.id)) continue;
        if (t.status === 'registering' && !t.due) continue;
        this.get(t.id, t.status === 'registering').catch((err: unknown) => {
          if (err instanceof TournamentNotStartedError && err.reason === 'checkpoint_lost') {
            this.options.logger.error(
              { event: 'checkpoint_lost', tournamentId: t.id },
              'a running tournament has no director checkpoint (Redis lost it): it cannot go on by itself',
            );
            return;
          }
          if (err instanceof TournamentNotStartedError || err instanceof NotOwnerError) return;
          this.options.logger.warn({ err, tournamentId: t.id }, 'tournament director not started; trying again');
        });
      }
      if (this.options.adoptTable !== undefined) {
        for (const tableId of await this.options.store.openTableIds()) {
          if (this.options.owns(tableId)) this.options.adoptTable(tableId);
        }
      }
      for (const [id, entry] of [...this.live]) {
        if (entry.actor.done) await this.evict(id, 'finished');
        else if (!this.options.owns(directorKey(id))) await this.evict(id, 'the ring moved it');
        else {
          // Late registration: new entries are seated, and it closes after its last level.
          entry.actor.poll().catch((err: unknown) => {
            if (!(err instanceof MailboxClosedError))
              this.options.logger.warn({ err, tournamentId: id }, 'late entries not admitted yet; trying again');
          });
        }
      }
    } finally {
      this.polling = false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancelPoll?.();
    await Promise.allSettled([...this.opening.values()]);
    await Promise.all([...this.live.keys()].map((id) => this.evict(id, 'shutdown')));
  }

  private schedulePoll(delayMs: number): void {
    if (this.closed) return;
    this.cancelPoll = this.options.scheduler.schedule(this.options.clock.now() + delayMs, () => {
      this.poll()
        .catch((err: unknown) => this.options.logger.warn({ err }, 'tournament poll failed'))
        .finally(() => this.schedulePoll(this.options.pollMs));
    });
  }

  private get(tournamentId: string, mayStart: boolean): Promise<DirectorActor> {
    const live = this.live.get(tournamentId);
    if (live) return Promise.resolve(live.actor);
    const pending = this.opening.get(tournamentId);
    if (pending) return pending;
    const opening = this.open(tournamentId, mayStart).finally(() => this.opening.delete(tournamentId));
    this.opening.set(tournamentId, opening);
    return opening;
  }

  private async open(tournamentId: string, mayStart: boolean): Promise<DirectorActor> {
    const key = directorKey(tournamentId);
    const { ownership } = this.options;
    const lease = ownership ? await ownership.acquire(key) : undefined;
    try {
      const deps = this.depsFor(lease);
      const saved = await this.options.checkpoints.load(key);
      let actor: DirectorActor;
      if (saved !== null && isDirectorJSON(saved.checkpoint.state, tournamentId)) {
        actor = DirectorActor.resume(saved.checkpoint.state, deps);
        this.options.logger.info(
          { event: 'director_resumed', tournamentId, ...(lease ? { epoch: lease.epoch } : {}) },
          'tournament director resumed from its checkpoint',
        );
      } else {
        let started;
        try {
          started = await this.options.store.start(tournamentId);
        } catch (err) {
          if (err instanceof TournamentNotStartedError && err.reason === 'too_few' && mayStart) {
            await this.options.store.cancel(tournamentId);
            this.options.logger.info(
              { event: 'tournament_cancelled', tournamentId },
              'too few entrants at the start time: cancelled, every entry refunded',
            );
          }
          throw err;
        }
        actor = await DirectorActor.start(tournamentId, started, deps);
      }
      if (lease && ownership) ownership.check(lease);
      if (this.closed) {
        await actor.stop();
        throw new NotOwnerError(key, '', 'shutting down');
      }
      this.live.set(tournamentId, { actor, lease });
      return actor;
    } catch (err) {
      if (lease && ownership) await ownership.release(lease);
      throw err;
    }
  }

  private async evict(tournamentId: string, reason: string): Promise<void> {
    const entry = this.live.get(tournamentId);
    if (!entry) return;
    this.live.delete(tournamentId);
    await entry.actor.stop();
    // A lost lease is not released (TableOwnership.release leaves it as it is).
    if (entry.lease && this.options.ownership) await this.options.ownership.release(entry.lease);
    this.options.logger.info({ event: 'director_stopped', tournamentId, reason }, 'tournament director stopped here');
  }

  /** The director's dependencies, its checkpoints fenced by its lease. */
  private depsFor(lease: HeldLease | undefined): DirectorDeps {
    const { store, peers, clock, scheduler, random, logger, checkpoints, ownership } = this.options;
    const fenced: CheckpointStore =
      lease === undefined || ownership === undefined
        ? checkpoints
        : {
            load: (id) => checkpoints.load(id),
            save: async (id, seq, state, events, options) => {
              ownership.check(lease);
              try {
                await checkpoints.save(id, seq, state, events, { ...options, fence: { epoch: lease.epoch } });
              } catch (err) {
                if (err instanceof StaleEpochError) {
                  ownership.staleWrite(lease, err.current);
                  throw new NotOwnerError(id, '', 'stale epoch');
                }
                throw err;
              }
            },
          };
    return { store, peers, clock, scheduler, random, logger, checkpoints: fenced };
  }
}
