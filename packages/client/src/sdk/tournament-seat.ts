import type { LobbyTournamentDetail } from '@felt/protocol';
import { Emitter, type Unsubscribe } from './emitter.js';
import type { FeltClient } from './felt-client.js';
import type { TableSession } from './table-session.js';
import { systemTimers, type TimerHandle, type Timers } from './timers.js';

export interface TournamentSeatEvents {
  /** You sit at a new table (the first one, or the one the director moved you to). */
  seated: TableSession;
  /** You are out (or won): your place and prize. The tournament may still be running. */
  finished: { readonly place: number; readonly prize: number };
  /**
   * Your entry is out while late registration is open: its place and prize come when registration
   * closes (then `finished`, unless you re-entered). `canReEnter`: the lobby takes a re-entry from you
   * now (register again; the seat follows you to your new table). Once per entry.
   */
  out: { readonly entryNo: number; readonly canReEnter: boolean };
  /** The tournament was cancelled before it started (every entry refunded). */
  cancelled: undefined;
}

export interface TournamentSeatOptions {
  /** Your user id (to find your place in the standings). */
  readonly userId: string;
  /** How often the lobby is asked where you sit while you have no table yet. Default 2 s. */
  readonly pollMs?: number;
  /**
   * How often the lobby is asked again once seated, in case a `table_moved` was missed (the socket
   * was down when it came). Default 15 s.
   */
  readonly checkMs?: number;
  readonly timers?: Timers;
}

/**
 * A player's latest entry in a tournament: of the lobby detail's `players` (one row per entry), their
 * row with the highest `entry_no` (1 for a first entry, 2 and on for re-entries), whatever the rows'
 * order; undefined when none is theirs.
 */
export function latestEntry<P extends Pick<LobbyTournamentDetail['players'][number], 'user_id' | 'entry_no'>>(
  players: readonly P[],
  userId: string | null,
): P | undefined {
  let latest: P | undefined;
  for (const p of players) {
    if (p.user_id === userId && (latest === undefined || p.entry_no > latest.entry_no)) latest = p;
  }
  return latest;
}

/** What a TournamentSeat needs of the lobby client. */
export interface TournamentLobby {
  getTournament(tournamentId: string): Promise<LobbyTournamentDetail>;
}

/**
 * Follows one player through a tournament (docs/protocol.md, "Tournaments"): it asks the lobby where
 * the player sits once the tournament starts, joins that table, and follows every `table_moved` to
 * the next table (joined first, the old one left after), until the player is out or the tournament is
 * over. A player who re-enters (after `out`) is followed to the table of their new entry. Each table is an ordinary TableSession: play it with a TableBot or a UI.
 */
export class TournamentSeat {
  private readonly events = new Emitter<TournamentSeatEvents>();
  private readonly timers: Timers;
  private current: TableSession | null = null;
  private offMoved: Unsubscribe | undefined;
  private offTournament: Unsubscribe | undefined;
  private timer: TimerHandle = undefined;
  private stopped = false;
  private over = false;
  /** Your latest entry's number (a re-entry is 2, 3, …): only its place is yours. */
  private entryNo = 1;
  /** The last entry `out` was told for. */
  private outTold = 0;
  /**
   * The entry told `out` while the lobby took a re-entry: its place, when a table shows it, is the
   * player's result only if they did not buy in again, which this seat may not know yet.
   */
  private reEntryOpenFor = 0;
  /** A confirmPlace is asking the lobby: the table's next views carry the same place, and wait for it. */
  private confirming = false;

  constructor(
    private readonly client: FeltClient,
    private readonly lobby: TournamentLobby,
    readonly tournamentId: string,
    private readonly options: TournamentSeatOptions,
  ) {
    this.timers = options.timers ?? systemTimers;
  }

  /** The table you sit at now, if any. */
  get session(): TableSession | null {
    return this.current;
  }

  on<K extends keyof TournamentSeatEvents>(
    event: K,
    listener: (payload: TournamentSeatEvents[K]) => void,
  ): Unsubscribe {
    return this.events.on(event, listener);
  }

  start(): this {
    void this.check();
    return this;
  }

  /** Stops following (the table session stays open: detach it yourself). */
  stop(): void {
    this.stopped = true;
    this.offMoved?.();
    this.offTournament?.();
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
  }

  /** Asks the lobby where you sit; joins that table if it is not the one you are at. */
  async check(): Promise<void> {
    if (this.stopped) return;
    let detail: LobbyTournamentDetail | null = null;
    try {
      detail = await this.lobby.getTournament(this.tournamentId);
    } catch {
      // The lobby is away: ask again at the next tick.
    }
    if (this.stopped) return;
    if (detail !== null) {
      // One row per entry: yours is the latest.
      const me = latestEntry(detail.players, this.options.userId);
      if (me !== undefined) this.entryNo = me.entry_no;
      if (detail.status === 'cancelled') {
        this.end();
        this.events.emit('cancelled', undefined);
        return;
      }
      if (me?.place !== null && me?.place !== undefined) {
        this.finish({ place: me.place, prize: me.prize });
        return;
      }
      if (me?.status === 'busted' && this.outTold < me.entry_no) {
        this.outTold = me.entry_no;
        this.reEntryOpenFor = detail.can_re_enter ? me.entry_no : 0;
        this.events.emit('out', { entryNo: me.entry_no, canReEnter: detail.can_re_enter });
      }
      // A new table, or the same one whose join was refused (asked before the director seated you).
      const current = this.current;
      if (detail.your_table_id !== null && (detail.your_table_id !== current?.tableId || current.status === 'closed')) {
        this.sit(detail.your_table_id);
      }
      if (detail.status === 'finished') {
        this.end();
        return;
      }
    }
    const wait = this.current === null ? (this.options.pollMs ?? 2_000) : (this.options.checkMs ?? 15_000);
    this.schedule(wait);
  }

  /** The next check in `ms`, in place of any one pending (so that checks never run in two chains). */
  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => void this.check(), ms);
  }

  /**
   * A table showed the place of an entry that went out while re-entry was open. If the player bought in
   * again meanwhile (the lobby's latest entry is a later one), that place is not their result: the seat
   * follows the new entry. Otherwise it is. With no answer from the lobby, the next check decides.
   */
  private async confirmPlace(placed: { readonly entry_no: number; readonly place: number; readonly prize: number }) {
    if (this.confirming) return;
    this.confirming = true;
    let detail: LobbyTournamentDetail;
    try {
      detail = await this.lobby.getTournament(this.tournamentId);
    } catch {
      this.schedule(0);
      return;
    } finally {
      this.confirming = false;
    }
    if (this.over || this.stopped) return;
    const latest = latestEntry(detail.players, this.options.userId);
    if (latest !== undefined && latest.entry_no > placed.entry_no) {
      this.entryNo = latest.entry_no;
      this.schedule(0);
      return;
    }
    this.finish(placed);
  }

  private finish(placed: { readonly place: number; readonly prize: number }): void {
    this.end();
    this.events.emit('finished', { place: placed.place, prize: placed.prize });
  }

  private sit(tableId: string): void {
    if (this.stopped || (this.current?.tableId === tableId && this.current.status !== 'closed')) return;
    const old = this.current;
    this.offMoved?.();
    this.offTournament?.();
    const session = this.client.join(tableId);
    this.current = session;
    this.offMoved = session.on('moved', (m) => this.sit(m.to_table_id));
    // Out at this table: the director's next word to it names your place.
    this.offTournament = session.on('tournament', (t) => {
      const mine = t.placed.find((p) => p.user_id === this.options.userId && p.entry_no === this.entryNo);
      if (mine === undefined || this.over) return;
      if (mine.entry_no === this.reEntryOpenFor) void this.confirmPlace(mine);
      else this.finish(mine);
    });
    this.events.emit('seated', session);
    // Joined the new table first: the old one is left after, so nothing in between is missed.
    old?.detach();
  }

  private end(): void {
    this.over = true;
    this.stop();
  }

  /** The player is out or the tournament is over. */
  get done(): boolean {
    return this.over;
  }
}
