import type {
  ConnectionStatus,
  Decision,
  FeltClient,
  HandFairness,
  HandMarkers,
  LobbyTournamentAddOn,
  LobbyTournamentDetail,
  SessionStatus,
  TableSession,
  TableView,
} from '@felt/client';
import { currentTurn } from '@felt/client';
import type {
  BettingLimit,
  ChatMessage,
  ErrorMessage,
  HandResult,
  RevealRecordView,
  Showdown,
  TournamentView,
} from '@felt/protocol';
import { i18n, t } from '../i18n/i18n.js';
import { addDealerLines, type DealerLine } from '../lib/chat-feed.js';
import { ServerClock } from '../lib/clock.js';
import { errorText, tableErrorText } from '../lib/error-text.js';
import { chips } from '../lib/format.js';
import {
  keepPreAction,
  preActionDecision,
  preActionSpot,
  togglePreAction,
  type PreActionKind,
  type PreActionSelection,
} from '../lib/pre-actions.js';
import {
  EMPTY_SESSION_SUMMARY,
  parseSessionSummary,
  recordHandResult,
  serializeSessionSummary,
  sessionSummaryKey,
  type SessionSummary,
} from '../lib/session-summary.js';
import { cueForTurn, cueForWarning, FRESH_CUES, type CueMemory, type SoundCue } from '../lib/sound-cues.js';
import { toTableModel, type TableModel } from '../lib/table-model.js';
import { connectBlindSeat, type BlindSeat, type BlindSeatSource } from './blind-seat.js';
import {
  breakAddOn,
  followTournament,
  judgeAgain,
  yourEntries,
  type HeroChips,
  type TournamentSeatState,
  type YourEntries,
} from '../lib/tournament-table.js';
import { addOnRefusal, TOURNAMENTS_POLL_MS, type AddOnOffer } from '../lib/tournaments.js';
import type { SoundPlayer } from './sound.js';
import { Store } from './store.js';
import { ToastKind, type Toasts } from './toasts.js';

/** The add-on on sale to the player at a tournament table, during a break. */
export interface TableAddOn extends AddOnOffer {
  readonly tournamentId: string;
  /** The purchase is on its way (the button waits for its answer). */
  readonly busy: boolean;
}

/** A hand that finished while this page watched it: what the showdown and fairness panels need. */
export interface FinishedHand {
  readonly handId: string;
  /** The hand's game and limit (its title is written in the page's language when shown). */
  readonly variant: { readonly game: string; readonly limit: BettingLimit } | null;
  readonly result: HandResult;
  readonly showdown: Showdown | null;
  readonly shown: readonly { readonly seat: number; readonly cards: readonly string[] }[];
  readonly seedCommit: string | null;
  readonly reveal: RevealRecordView | null;
  /** The SDK verifier's verdict on the seed_reveal; null until it arrives. */
  readonly fairness: HandFairness | null;
  readonly names: ReadonlyMap<number, string>;
}

export interface TableScreenState {
  readonly view: TableView;
  readonly model: TableModel | null;
  readonly session: SessionStatus;
  readonly connection: ConnectionStatus;
  /** A resync is on its way: the table shows the last whole state, dimmed, until it lands. */
  readonly resyncing: boolean;
  /** Newest first, at most {@link KEEP_HANDS}. */
  readonly finished: readonly FinishedHand[];
  /** Why the session ended, when it has, in the page's language. */
  readonly closedReason: string | null;
  /** A command is on its way (buttons wait for its answer rather than sending twice). */
  readonly busy: boolean;
  /** The pre-action chosen for the hero's next turn (lib/pre-actions.ts), or null. */
  readonly preAction: PreActionSelection | null;
  /** This tab's session at this table: hands played, net, biggest pot (lib/session-summary.ts). */
  readonly summary: SessionSummary;
  /** The table's recent chat, oldest first, without the muted users' messages (the SDK's chatLog). */
  readonly chat: readonly ChatMessage[];
  /** Who won what in the hands that finished while the page watched: the chat panel's dealer lines. */
  readonly dealer: readonly DealerLine[];
  /** The users this page muted, by id, with the name they chatted under. */
  readonly muted: ReadonlyMap<string, string>;
  /** Why the last chat message was not sent (written in the page's language when shown), or null. */
  readonly chatError: unknown;
  /** A chat message is on its way. */
  readonly chatSending: boolean;
  /** A tournament's table: the tournament as its director last said, your place and result; else null. */
  readonly tournament: TournamentSeatState | null;
  /**
   * The tournament moved the player to this table (`table_moved`, or the lobby's your_table_id when
   * that was missed): the page opens it in place of this one. Null until then.
   */
  readonly movedTo: string | null;
  /**
   * During a break, the add-on the lobby says the player may buy now (`can_add_on`), or null: the
   * table offers it without the player leaving.
   */
  readonly addOn: TableAddOn | null;
}

/**
 * What a tournament's table needs of the page: who the player is, where the lobby seats them, and
 * which of their entries is the latest.
 */
export interface TournamentLink {
  /** The signed-in player (their result is found in the tournament's `placed` by it). */
  readonly userId: string | null;
  /** The table the lobby says the player sits at in tournament `tournamentId` now (your_table_id), or null. */
  yourTable(tournamentId: string): Promise<string | null>;
  /** Tournament `tournamentId` as the lobby answers it now (kept as the page's last read of it). */
  readTournament(tournamentId: string): Promise<LobbyTournamentDetail>;
  /** Tournament `tournamentId` as the page last read it from the lobby, or null. */
  lastRead(tournamentId: string): LobbyTournamentDetail | null;
  /** Table `tableId` belongs to tournament `tournamentId` (the page remembers it across its tiles). */
  noteTable(tableId: string, tournamentId: string): void;
  /** The tournament the page last saw table `tableId` belong to, or null. */
  tournamentOf(tableId: string): string | null;
  /**
   * Buys the add-on in tournament `tournamentId` (the wallet follows, the tournament is read again);
   * throws the lobby's refusal.
   */
  addOn(tournamentId: string): Promise<LobbyTournamentAddOn>;
}

/** The add-on looked at for one break of a tournament (TableController's checkAddOn). */
interface AddOnBreak {
  /** The tournament and the break's end. */
  readonly key: string;
  /** Offered, or nothing to offer this break: the lobby is not asked again. */
  settled: boolean;
  /** When the lobby was last asked (ms, this browser's clock). */
  askedAt: number;
}

/** Where a table's session summary lasts as long as the tab: sessionStorage, when the page may use it. */
export type SummaryStorage = Pick<Storage, 'getItem' | 'setItem'>;

function tabStorage(): SummaryStorage | null {
  try {
    return typeof sessionStorage !== 'undefined' ? sessionStorage : null;
  } catch {
    // Storage disabled: the summary lasts as long as the table is open.
    return null;
  }
}

const KEEP_HANDS = 20;

/**
 * One table on the page: subscribes to the SDK's session, keeps the hands that finished here with
 * their fairness verdicts, and sends the player's commands, turning refusals into toasts.
 */
export class TableController {
  readonly store: Store<TableScreenState>;
  readonly clock = new ServerClock();
  readonly session: TableSession;
  /** The player's engine-blind seat at this table (state/blind-seat.ts), or null when there is none. */
  private readonly blindSeat: BlindSeat | null;
  private readonly offs: (() => void)[] = [];
  /** How the session ended (the sentence for it is written in the page's language when needed). */
  private closed: { readonly reason: string; readonly error?: ErrorMessage | undefined } | null = null;
  /** The turn and the warning already sounded (lib/sound-cues.ts). */
  private cues: CueMemory = FRESH_CUES;
  private disposed = false;
  /** The lobby is being asked where the player sits in the tournament. */
  private seatCheck = false;
  /** The lobby is being asked which of the player's entries is the latest. */
  private entryCheck = false;
  /** When the lobby was last asked that (ms, this browser's clock). */
  private entryAskedAt = -Infinity;
  /** What the lobby answered that question, asked once a row of the player's was placed: final. */
  private confirmed: { readonly tournamentId: string; readonly entries: YourEntries } | null = null;
  /**
   * The break the add-on was looked at for (tournament and break end), whether that is settled (offered,
   * or nothing to offer), and when the lobby was last asked (ms, this browser's clock).
   */
  private addOnBreak: AddOnBreak | null = null;
  /** The lobby is being asked about the add-on. */
  private addOnAsking = false;
  /** The next question about an add-on not on sale yet. */
  private addOnTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly client: FeltClient,
    readonly tableId: string,
    spectate: boolean,
    private readonly toasts: Toasts,
    private readonly storage: SummaryStorage | null = tabStorage(),
    private readonly sound: SoundPlayer | null = null,
    private readonly link: TournamentLink | null = null,
    blindSeats: BlindSeatSource = connectBlindSeat,
  ) {
    this.session = client.join(tableId, { spectate });
    this.blindSeat = blindSeats(this.session);
    const view = this.session.view;
    const hero = heroChips(view);
    this.store = new Store<TableScreenState>({
      view,
      model: this.modelOf(view),
      session: this.session.status,
      connection: client.connection.state,
      resyncing: false,
      finished: [],
      closedReason: null,
      busy: false,
      preAction: null,
      summary: this.loadSummary(),
      chat: this.session.chatLog(),
      dealer: [],
      muted: new Map(),
      chatError: null,
      chatSending: false,
      tournament: followTournament(null, view.state?.tournament, hero, link?.userId ?? null, () =>
        this.knownEntries(view.state?.tournament?.tournament_id),
      ),
      movedTo: null,
      addOn: null,
    });
    void this.confirmEntry();
    this.checkAddOn(hero);
    const s = this.session;
    this.offs.push(
      s.on('message', (m) => {
        if (m.type === 'table_state') this.clock.sample(m.ts);
        else if (m.type === 'turn_warning') {
          this.cue(cueForWarning(this.cues, m, this.state.view.state?.hero?.seat ?? null));
        } else if (m.type === 'resync_response') {
          this.clock.sample(m.snapshot.ts);
          this.patch({ resyncing: false });
        }
      }),
      s.on('view', (v) => this.onView(v)),
      s.on('fairness', (verdict) => this.onFairness(verdict)),
      s.on('chat', () => this.patch({ chat: this.session.chatLog() })),
      s.on('status', (status) => this.patch({ session: status })),
      s.on('resync', () => this.patch({ resyncing: true })),
      s.on('refused', (err: ErrorMessage) => this.toasts.show(tableErrorText(err))),
      s.on('closed', ({ reason, error }) => {
        this.closed = { reason, error };
        this.patch({ closedReason: this.closedText(), session: 'closed' });
        // Joined again after a drop and refused: at a tournament, the player was likely moved meanwhile.
        if (reason === 'join_refused') void this.findTournamentSeat();
      }),
      s.on('moved', (m) => this.moveTo(m.to_table_id)),
      s.on('tournament', (v) => this.onTournament(v)),
      client.on('connection', (c) => this.patch({ connection: c })),
    );
    // The hero's engine-blind cards open, or its audit refuses a step, between the table's messages.
    const blindSeat = this.blindSeat;
    if (blindSeat !== null) {
      this.offs.push(blindSeat.subscribe(() => this.patch({ model: this.modelOf(this.state.view) })));
    }
    // The model holds sentences (statuses, the hand log, notices): a language switch writes them again.
    const relabel = (): void => this.patch({ model: this.modelOf(this.state.view), closedReason: this.closedText() });
    i18n.on('languageChanged', relabel);
    this.offs.push(() => i18n.off('languageChanged', relabel));
  }

  private closedText(): string | null {
    if (this.closed === null) return null;
    const { reason, error } = this.closed;
    if (reason === 'table_closed') return t('table.closed');
    return error !== undefined ? tableErrorText(error) : t('table.youLeft');
  }

  get state(): TableScreenState {
    return this.store.get();
  }

  dispose(): void {
    this.disposed = true;
    this.stopAddOnTimer();
    for (const off of this.offs.splice(0)) off();
    this.session.detach();
  }

  // ---- commands ------------------------------------------------------------------------------

  act(decision: Decision): Promise<boolean> {
    return this.run(() => this.session.act(decision));
  }

  /**
   * Selects a pre-action for the hero's next turn, or deselects it when it is the one selected.
   * Ignored during the hero's turn (the action bar is up) and when the choice is not offered.
   */
  togglePreAction(kind: PreActionKind): void {
    const view = this.state.view;
    if (currentTurn(view) !== null) return;
    const next = togglePreAction(this.state.preAction, kind, preActionSpot(view.state));
    if (next !== this.state.preAction) this.patch({ preAction: next });
  }

  sitIn(): Promise<boolean> {
    return this.run(() => this.session.sitIn(), 'table.sitInDone');
  }

  sitOut(): Promise<boolean> {
    return this.run(() => this.session.sitOut(), 'table.sitOutDone');
  }

  leaveSeat(): Promise<boolean> {
    return this.run(() => this.session.leave());
  }

  startHand(): Promise<boolean> {
    return this.run(() => this.session.startHand());
  }

  showCards(handId: string): Promise<boolean> {
    return this.run(() => this.session.showCards(handId));
  }

  /**
   * Shows the hero's hand at an engine-blind showdown (the turn's `valid_actions.show`): the player's
   * blind seat sends its own shares of the hero's cards. Mucking is an ordinary fold (`act`).
   */
  showBlind(): Promise<boolean> {
    const turn = currentTurn(this.state.view);
    if (turn?.validActions.show === undefined) return Promise.resolve(false);
    const seat = this.blindSeat;
    if (seat === null) {
      this.toasts.show(t('blind.unavailable'));
      return Promise.resolve(false);
    }
    return this.run(() => seat.show(turn.handId));
  }

  /**
   * Says `text` at the table. True when the table took it (the message itself arrives as a `chat`
   * event); otherwise `chatError` holds why (the SDK's own check, chat_disabled, chat_rate_limited...).
   */
  async sendChat(text: string): Promise<boolean> {
    this.patch({ chatSending: true, chatError: null });
    try {
      await this.session.sendChat(text);
      this.patch({ chatSending: false });
      return true;
    } catch (err) {
      this.patch({ chatSending: false, chatError: err });
      return false;
    }
  }

  /** Hides a user's chat on this page, or shows it again; nothing is sent. */
  toggleMute(userId: string, name: string): void {
    const muted = new Map(this.state.muted);
    if (this.session.isMuted(userId)) {
      this.session.unmute(userId);
      muted.delete(userId);
    } else {
      this.session.mute(userId);
      muted.set(userId, name);
    }
    this.patch({ muted, chat: this.session.chatLog() });
  }

  /** Forgets the last chat refusal (the player edits the message). */
  clearChatError(): void {
    if (this.state.chatError !== null) this.patch({ chatError: null });
  }

  /**
   * Buys the add-on offered (`addOn`) through the lobby. True when bought (a toast says it, the offer
   * goes; the director adds the chips here between hands); a refusal is told in a toast, and a closed
   * sale or no entry in play takes the offer away.
   */
  async buyAddOn(): Promise<boolean> {
    const offer = this.state.addOn;
    if (this.link === null || offer === null || offer.busy) return false;
    const name = this.state.tournament?.view.name ?? '';
    this.patch({ addOn: { ...offer, busy: true } });
    try {
      const bought = await this.link.addOn(offer.tournamentId);
      this.toasts.show(t('tournaments.addOnBought', { name, chips: chips(bought.chips) }), ToastKind.SUCCESS);
      if (!this.disposed && this.state.addOn?.tournamentId === offer.tournamentId) this.patch({ addOn: null });
      return true;
    } catch (err) {
      const { text, over } = addOnRefusal(err);
      this.toasts.show(text);
      const now = this.state.addOn;
      if (!this.disposed && now?.tournamentId === offer.tournamentId) {
        this.patch({ addOn: over ? null : { ...now, busy: false } });
      }
      return false;
    }
  }

  /** Asks for a fresh snapshot (the reconnect indicator's "Resync now"). */
  resync(): void {
    this.session.resync();
  }

  private async run(send: () => Promise<unknown>, success?: 'table.sitInDone' | 'table.sitOutDone'): Promise<boolean> {
    this.patch({ busy: true });
    try {
      await send();
      if (success !== undefined) this.toasts.show(t(success), ToastKind.INFO);
      return true;
    } catch (err) {
      this.toasts.show(errorText(err));
      return false;
    } finally {
      this.patch({ busy: false });
    }
  }

  // ---- session events --------------------------------------------------------------------------

  private onView(view: TableView): void {
    const hand = view.hand;
    let finished = this.state.finished;
    let summary = this.state.summary;
    let dealer = this.state.dealer;
    if (hand?.result != null) {
      finished = this.upsert(finished, hand, view);
      dealer = addDealerLines(dealer, hand.result, seatNames(view), this.clock.now());
      summary = recordHandResult(summary, hand.handId, hand.result, view.state?.hero?.seat ?? null);
      if (summary !== this.state.summary) this.saveSummary(summary);
    }
    // The pre-action: kept or cleared by the new snapshot, then used (and cleared) when the turn
    // arrives. It is sent through act(), the path a clicked action takes, with the turn's token.
    // your_turn comes before the snapshot of its batch, so the choice waits for a snapshot that
    // agrees it is the hero's turn: one of a new street or a raise clears it first.
    let preAction = keepPreAction(this.state.preAction, preActionSpot(view.state));
    const turn = currentTurn(view);
    let decision: Decision | null = null;
    if (turn !== null && preAction !== null && view.state?.actor === turn.seat) {
      decision = preActionDecision(preAction, turn.validActions);
      preAction = null;
    }
    // The turn's cue: once per turn, and not for a turn the pre-action above answers.
    const heroTurn = turn !== null && view.state?.actor === turn.seat ? turn.turnToken : null;
    this.cue(cueForTurn(this.cues, heroTurn, decision !== null));
    const before = this.state.tournament;
    const hero = heroChips(view);
    // Only a new snapshot says anything of the tournament: a `tournament_state` between snapshots (see
    // onTournament) is newer than the snapshot still installed.
    const said = view.state !== this.state.view.state ? view.state?.tournament : undefined;
    const tournament = followTournament(before, said, hero, this.link?.userId ?? null, () =>
      this.knownEntries(said?.tournament_id),
    );
    this.store.set({
      ...this.state,
      view,
      model: this.modelOf(view),
      finished,
      preAction,
      summary,
      dealer,
      tournament,
    });
    if (decision !== null) void this.act(decision);
    if (tournament !== null && tournament !== before) this.link?.noteTable(this.tableId, tournament.view.tournament_id);
    // Seated at a tournament table a moment ago, not now, and not out: a move whose table_moved was lost.
    if (before?.place != null && hero === null && tournament?.result === null) void this.findTournamentSeat();
    void this.confirmEntry();
    this.checkAddOn(hero);
  }

  private onTournament(view: TournamentView): void {
    const hero = heroChips(this.state.view);
    const tournament = followTournament(this.state.tournament, view, hero, this.link?.userId ?? null, () =>
      this.knownEntries(view.tournament_id),
    );
    if (tournament !== this.state.tournament) this.patch({ tournament });
    void this.confirmEntry();
    this.checkAddOn(hero);
  }

  /**
   * The add-on during a break (`break_ends_at`), for a player seated here: the page's last read of the
   * tournament may already say there is nothing to offer (no add-on, its sale over); otherwise the
   * lobby is asked once per break, and again every {@link TOURNAMENTS_POLL_MS} (the tournaments tab's
   * pace) only while the sale has not opened yet (its director opens it just after the first break
   * starts) or the lobby is away. Its `can_add_on` makes the offer; the break's end takes it away.
   * `hero`: the hero's chips in the view installed (null: not seated here).
   */
  private checkAddOn(hero: HeroChips | null): void {
    const tournament = this.state.tournament;
    const view = tournament?.view;
    const seated = tournament?.result === null && hero !== null;
    if (this.link === null || this.disposed || view === undefined || view.break_ends_at === null || !seated) {
      this.addOnBreak = null;
      this.stopAddOnTimer();
      if (this.state.addOn !== null) this.patch({ addOn: null });
      return;
    }
    const key = `${view.tournament_id}:${view.break_ends_at}`;
    if (this.addOnBreak?.key !== key) {
      this.stopAddOnTimer();
      const known = this.link.lastRead(view.tournament_id);
      this.addOnBreak = { key, settled: known !== null && breakAddOn(known).kind === 'none', askedAt: -Infinity };
      if (this.state.addOn !== null && this.state.addOn.tournamentId !== view.tournament_id)
        this.patch({ addOn: null });
    }
    if (this.addOnBreak.settled || this.addOnAsking) return;
    const wait = this.addOnBreak.askedAt + TOURNAMENTS_POLL_MS - Date.now();
    if (wait > 0) this.askAddOnLater(wait);
    else void this.askAddOn(this.addOnBreak, view.tournament_id);
  }

  private async askAddOn(memory: AddOnBreak, tournamentId: string): Promise<void> {
    if (this.link === null) return;
    this.addOnAsking = true;
    memory.askedAt = Date.now();
    try {
      const read = await this.link.readTournament(tournamentId);
      if (this.disposed || this.addOnBreak !== memory) return;
      const sale = breakAddOn(read);
      if (sale.kind === 'wait') {
        this.askAddOnLater(TOURNAMENTS_POLL_MS);
        return;
      }
      memory.settled = true;
      const addOn = sale.kind === 'offer' ? { ...sale.offer, tournamentId, busy: false } : null;
      if (addOn !== null || this.state.addOn !== null) this.patch({ addOn });
    } catch {
      // The lobby is away: asked again at the tab's pace while the break lasts.
      if (!this.disposed && this.addOnBreak === memory) this.askAddOnLater(TOURNAMENTS_POLL_MS);
    } finally {
      this.addOnAsking = false;
    }
  }

  private askAddOnLater(ms: number): void {
    if (this.addOnTimer !== null || this.disposed) return;
    this.addOnTimer = setTimeout(() => {
      this.addOnTimer = null;
      this.checkAddOn(heroChips(this.state.view));
    }, ms);
  }

  private stopAddOnTimer(): void {
    if (this.addOnTimer !== null) clearTimeout(this.addOnTimer);
    this.addOnTimer = null;
  }

  /**
   * What the page knows of the player's entries in tournament `tournamentId`: this table's own answer
   * from the lobby (final), else the page's last read of the tournament (the tournaments tab's, or
   * another table's); null when the lobby was not read.
   */
  private knownEntries(tournamentId: string | undefined): YourEntries | null {
    if (this.link === null || tournamentId === undefined) return null;
    if (this.confirmed?.tournamentId === tournamentId) return this.confirmed.entries;
    const read = this.link.lastRead(tournamentId);
    return read === null ? null : yourEntries(read, this.link.userId);
  }

  /**
   * A row of the player's in `placed` that may be an earlier entry's (pending): asks the lobby which
   * entry is their latest. A row is placed only once late registration is over (a busted entry's
   * place waits for it), so no entry can follow the answer's latest: it settles the row, and the
   * player's rows still to come. The lobby away: asked again with a later word of the table, at most
   * every {@link TOURNAMENTS_POLL_MS} (the tab's pace, as for the add-on), not with every snapshot.
   */
  private async confirmEntry(): Promise<void> {
    const tournament = this.state.tournament;
    if (this.link === null || this.entryCheck || this.disposed || tournament?.pending == null) return;
    if (Date.now() < this.entryAskedAt + TOURNAMENTS_POLL_MS) return;
    const tournamentId = tournament.view.tournament_id;
    this.entryCheck = true;
    this.entryAskedAt = Date.now();
    try {
      const read = await this.link.readTournament(tournamentId);
      if (this.disposed) return;
      const entries = { ...yourEntries(read, this.link.userId), final: true };
      this.confirmed = { tournamentId, entries };
      const now = this.state.tournament;
      if (now?.view.tournament_id === tournamentId) {
        const next = judgeAgain(now, entries);
        if (next !== now) this.patch({ tournament: next });
      }
    } catch {
      // The lobby is away: the row stays pending, and a word of the table 5 s on asks again.
    } finally {
      this.entryCheck = false;
    }
  }

  /** The tournament seats the player at table `to` now: the page opens it in place of this one. */
  private moveTo(to: string): void {
    if (this.disposed || to === this.tableId || this.state.movedTo !== null) return;
    this.patch({ movedTo: to });
  }

  /**
   * Asks the lobby where the player sits in this table's tournament, and follows a move it shows. The
   * tournament is the one this table's view names, or, before any view (a tile opened again after a
   * visit to the lobby, and refused), the one the page saw this table belong to.
   */
  private async findTournamentSeat(): Promise<void> {
    if (this.link === null || this.seatCheck || this.state.movedTo !== null) return;
    const tournamentId = this.state.tournament?.view.tournament_id ?? this.link.tournamentOf(this.tableId);
    if (tournamentId === null) return;
    this.seatCheck = true;
    try {
      const to = await this.link.yourTable(tournamentId);
      if (to !== null) this.moveTo(to);
    } catch {
      // The lobby is away: the table's next word (or a reload) tells.
    } finally {
      this.seatCheck = false;
    }
  }

  private cue(step: { readonly memory: CueMemory; readonly cue: SoundCue | null }): void {
    this.cues = step.memory;
    if (step.cue !== null) this.sound?.play(step.cue);
  }

  private loadSummary(): SessionSummary {
    try {
      return parseSessionSummary(this.storage?.getItem(sessionSummaryKey(this.tableId)) ?? null);
    } catch {
      return EMPTY_SESSION_SUMMARY;
    }
  }

  private saveSummary(summary: SessionSummary): void {
    try {
      this.storage?.setItem(sessionSummaryKey(this.tableId), serializeSessionSummary(summary));
    } catch {
      // Storage full or disabled: the summary still lasts while the table is open.
    }
  }

  private onFairness(verdict: HandFairness): void {
    const finished = this.state.finished.map((h) => (h.handId === verdict.handId ? { ...h, fairness: verdict } : h));
    this.patch({ finished });
  }

  private upsert(list: readonly FinishedHand[], hand: HandMarkers, view: TableView): readonly FinishedHand[] {
    const result = hand.result!;
    const state = view.state;
    const names = seatNames(view);
    const existing = list.find((h) => h.handId === hand.handId);
    const entry: FinishedHand = {
      handId: hand.handId,
      variant: state ? { game: state.variant.game, limit: state.variant.limit } : null,
      result,
      showdown: hand.showdown,
      shown: hand.shown,
      seedCommit: hand.seedCommit?.commit ?? null,
      reveal: hand.reveal,
      fairness: existing?.fairness ?? this.session.fairness(hand.handId) ?? null,
      names: existing !== undefined ? new Map([...existing.names, ...names]) : names,
    };
    if (
      existing !== undefined &&
      existing.reveal === entry.reveal &&
      existing.shown === entry.shown &&
      existing.showdown === entry.showdown &&
      existing.fairness === entry.fairness
    ) {
      return list;
    }
    return [entry, ...list.filter((h) => h.handId !== hand.handId)].slice(0, KEEP_HANDS);
  }

  /** The table model of a view, with what the player's blind seat knows of the hand on the table. */
  private modelOf(view: TableView): TableModel | null {
    const handId = view.state?.hand_id;
    const seat = this.blindSeat;
    const blind =
      seat === null || handId === undefined
        ? null
        : { handId, holeCards: seat.holeCards(handId), audit: seat.auditFailure(handId) };
    return toTableModel(view, blind);
  }

  private patch(partial: Partial<TableScreenState>): void {
    this.store.set({ ...this.state, ...partial });
  }
}

/** The hero's chips and whether a hand of theirs is on; null for a spectator (or a player out). */
function heroChips(view: TableView): HeroChips | null {
  const state = view.state;
  const hero = state?.hero;
  if (state === null || hero === undefined) return null;
  const seat = state.seats.find((s) => s.seat === hero.seat);
  return seat === undefined ? null : { stack: seat.stack, bet: seat.bet, inHand: seat.in_hand };
}

/** The names at the table's seats, by seat. */
function seatNames(view: TableView): Map<number, string> {
  const names = new Map<number, string>();
  for (const s of view.state?.seats ?? []) if (s.name !== null) names.set(s.seat, s.name);
  return names;
}
