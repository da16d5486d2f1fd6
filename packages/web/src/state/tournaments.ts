import type {
  LobbyClient,
  LobbyTournamentAddOn,
  LobbyTournamentDetail,
  LobbyTournamentEntry,
  LobbyTournamentSummary,
  LobbyTournamentUnregistered,
} from '@felt/client';
import { Store } from './store.js';

/** What the tournaments tab uses of the lobby's HTTP client. */
export type TournamentLobby = Pick<
  LobbyClient,
  'listTournaments' | 'getTournament' | 'registerTournament' | 'unregisterTournament' | 'addOnTournament'
>;

export interface TournamentListState {
  /** Registering and running tournaments, soonest start first; null until the first answer. */
  readonly tournaments: readonly LobbyTournamentSummary[] | null;
  /** The last read's failure (the list shown is the one before it), or null. */
  readonly error: unknown;
}

export interface TournamentDetailState {
  readonly id: string;
  /** null until the first answer for this id. */
  readonly tournament: LobbyTournamentDetail | null;
  readonly error: unknown;
}

/**
 * The lobby's tournaments tab (docs/dev/contracts.md, "Tournaments API"): the list and the tournament
 * shown, each read again by the tab every few seconds, registering and unregistering, and the add-on
 * (bought from the tab or from a tournament table). An answer that comes back after a later read was
 * asked for is dropped, so a slow poll never undoes what a registration just showed. `onWallet` hears
 * the wallet each registration, unregistration or add-on leaves.
 */
export class Tournaments {
  readonly list = new Store<TournamentListState>({ tournaments: null, error: null });
  readonly detail = new Store<TournamentDetailState | null>(null);
  private listReads = 0;
  private detailReads = 0;
  /** The tournament each tournament table the page has shown belongs to, by table id. */
  private readonly tables = new Map<string, string>();
  /** Each tournament as the page last read it, by id (the tab's reads and the tables'). */
  private readonly reads = new Map<string, LobbyTournamentDetail>();
  /** The lobby's answer on its way for each tournament, by id: a read asked meanwhile shares it. */
  private readonly asking = new Map<string, Promise<LobbyTournamentDetail>>();
  /** Bumped on reset: a read that started before is not kept. */
  private generation = 0;

  constructor(
    private readonly lobby: TournamentLobby,
    private readonly onWallet: (balance: number) => void = () => undefined,
  ) {}

  async refreshList(): Promise<void> {
    const read = ++this.listReads;
    try {
      const tournaments = await this.lobby.listTournaments();
      if (read === this.listReads) this.list.set({ tournaments, error: null });
    } catch (err) {
      if (read === this.listReads) this.list.set({ ...this.list.get(), error: err });
    }
  }

  /** Shows tournament `id` (null: none) and reads it. */
  async show(id: string | null): Promise<void> {
    if (id === null) {
      this.detailReads++;
      this.detail.set(null);
      return;
    }
    if (this.detail.get()?.id !== id) this.detail.set({ id, tournament: null, error: null });
    await this.refreshDetail();
  }

  /** Reads the tournament shown again. */
  async refreshDetail(): Promise<void> {
    const shown = this.detail.get();
    if (shown === null) return;
    const { id } = shown;
    const read = ++this.detailReads;
    try {
      const tournament = await this.read(id);
      if (read === this.detailReads) this.detail.set({ id, tournament, error: null });
    } catch (err) {
      const now = this.detail.get();
      if (read === this.detailReads && now !== null) this.detail.set({ ...now, error: err });
    }
  }

  /**
   * Registers for tournament `id` (buy-in and fee from the wallet); throws the lobby's refusal
   * (tournament_full, tournament_closed, insufficient_funds, …) with nothing changed here.
   */
  async register(id: string): Promise<LobbyTournamentEntry> {
    const entry = await this.lobby.registerTournament(id);
    await this.changed(id, entry.wallet);
    return entry;
  }

  /** Unregisters before the start (buy-in and fee back); throws the lobby's refusal (not_registered, …). */
  async unregister(id: string): Promise<LobbyTournamentUnregistered> {
    const done = await this.lobby.unregisterTournament(id);
    await this.changed(id, done.wallet);
    return done;
  }

  /**
   * Buys the add-on in tournament `id` (its cost from the wallet, its chips added at the player's table
   * between hands); throws the lobby's refusal (tournament_closed: not on sale, not_registered: no
   * entry in play, insufficient_funds, rate_limited) with nothing changed here. The wallet goes to
   * `onWallet`, and the tournament is read afresh (the tab's detail when it shows it, else the page's
   * last read, which the tables use), so the offer goes away.
   */
  async addOn(id: string): Promise<LobbyTournamentAddOn> {
    const bought = await this.lobby.addOnTournament(id);
    this.onWallet(bought.wallet);
    this.asking.delete(id);
    try {
      if (this.detail.get()?.id === id) await this.refreshDetail();
      else await this.read(id);
    } catch {
      // Bought: the lobby away for the read after it changes nothing of that (the next read tells).
    }
    return bought;
  }

  /**
   * The table the player sits at in tournament `id` now (the lobby's your_table_id), or null: how a
   * tournament table finds the player's new one when its `table_moved` was missed.
   */
  async yourTable(id: string): Promise<string | null> {
    return (await this.read(id)).your_table_id;
  }

  /**
   * Reads tournament `id` from the lobby, and keeps it as the page's last read of it (lastRead): how a
   * tournament table learns which of the player's entries is their latest. A read of `id` already on
   * its way is shared (the tab's poll, a table's question about the player's entries and its question
   * about their seat, asked together, make one request); one that a purchase or a registration has
   * made stale is not (see changed) and is not kept.
   */
  read(id: string): Promise<LobbyTournamentDetail> {
    const shared = this.asking.get(id);
    if (shared !== undefined) return shared;
    const generation = this.generation;
    const asked = this.lobby.getTournament(id).then(
      (tournament) => {
        if (generation === this.generation && this.asking.get(id) === asked) this.reads.set(id, tournament);
        this.settled(id, asked);
        return tournament;
      },
      (err: unknown) => {
        this.settled(id, asked);
        throw err;
      },
    );
    this.asking.set(id, asked);
    return asked;
  }

  /** Tournament `id` as the page last read it (the tab's poll, a table's question), or null. */
  lastRead(id: string): LobbyTournamentDetail | null {
    return this.reads.get(id) ?? null;
  }

  /** Table `tableId` belongs to tournament `tournamentId`: remembered while the page lives. */
  noteTable(tableId: string, tournamentId: string): void {
    this.tables.set(tableId, tournamentId);
  }

  /** The tournament the page saw table `tableId` belong to, or null. */
  tournamentOf(tableId: string): string | null {
    return this.tables.get(tableId) ?? null;
  }

  /** Signed out: nothing of the last player's is kept (the next one's list and entries are read afresh). */
  reset(): void {
    this.listReads++;
    this.detailReads++;
    this.list.set({ tournaments: null, error: null });
    this.detail.set(null);
    this.tables.clear();
    this.reads.clear();
    this.asking.clear();
    this.generation++;
  }

  /** The read `asked` of tournament `id` is answered: the next read asks the lobby again. */
  private settled(id: string, asked: Promise<LobbyTournamentDetail>): void {
    if (this.asking.get(id) === asked) this.asking.delete(id);
  }

  /**
   * Tournament `id` changed here (a registration, an unregistration): the wallet goes to `onWallet`,
   * and the tournament shown and the list are read again, not from a read asked before the change.
   */
  private async changed(id: string, wallet: number): Promise<void> {
    this.onWallet(wallet);
    this.asking.delete(id);
    await Promise.all([this.refreshDetail(), this.refreshList()]);
  }
}
