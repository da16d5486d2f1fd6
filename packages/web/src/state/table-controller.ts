import type {
  ConnectionStatus,
  Decision,
  FeltClient,
  HandFairness,
  HandMarkers,
  SessionStatus,
  TableSession,
  TableView,
} from '@felt/client';
import type { ErrorMessage, HandResult, RevealRecordView, Showdown } from '@felt/protocol';
import { ServerClock } from '../lib/clock.js';
import { errorText, tableErrorText } from '../lib/error-text.js';
import { gameTitle } from '../lib/format.js';
import { toTableModel, type TableModel } from '../lib/table-model.js';
import { Store } from './store.js';
import { ToastKind, type Toasts } from './toasts.js';

/** A hand that finished while this page watched it: what the showdown and fairness panels need. */
export interface FinishedHand {
  readonly handId: string;
  readonly title: string;
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
  /** Why the session ended, when it has. */
  readonly closedReason: string | null;
  /** A command is on its way (buttons wait for its answer rather than sending twice). */
  readonly busy: boolean;
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
  private readonly offs: (() => void)[] = [];

  constructor(
    private readonly client: FeltClient,
    readonly tableId: string,
    spectate: boolean,
    private readonly toasts: Toasts,
  ) {
    this.session = client.join(tableId, { spectate });
    const view = this.session.view;
    this.store = new Store<TableScreenState>({
      view,
      model: toTableModel(view),
      session: this.session.status,
      connection: client.connection.state,
      resyncing: false,
      finished: [],
      closedReason: null,
      busy: false,
    });
    const s = this.session;
    this.offs.push(
      s.on('message', (m) => {
        if (m.type === 'table_state') this.clock.sample(m.ts);
        else if (m.type === 'resync_response') {
          this.clock.sample(m.snapshot.ts);
          this.patch({ resyncing: false });
        }
      }),
      s.on('view', (v) => this.onView(v)),
      s.on('fairness', (verdict) => this.onFairness(verdict)),
      s.on('status', (status) => this.patch({ session: status })),
      s.on('resync', () => this.patch({ resyncing: true })),
      s.on('refused', (err: ErrorMessage) => this.toasts.show(tableErrorText(err))),
      s.on('closed', ({ reason, error }) => {
        const text =
          reason === 'table_closed'
            ? 'This table has closed.'
            : error !== undefined
              ? tableErrorText(error)
              : 'You left this table.';
        this.patch({ closedReason: text, session: 'closed' });
      }),
      client.on('connection', (c) => this.patch({ connection: c })),
    );
  }

  get state(): TableScreenState {
    return this.store.get();
  }

  dispose(): void {
    for (const off of this.offs.splice(0)) off();
    this.session.detach();
  }

  // ---- commands ------------------------------------------------------------------------------

  act(decision: Decision): Promise<boolean> {
    return this.run(() => this.session.act(decision));
  }

  sitIn(): Promise<boolean> {
    return this.run(() => this.session.sitIn(), 'You will be dealt in from the next hand.');
  }

  sitOut(): Promise<boolean> {
    return this.run(() => this.session.sitOut(), 'You will sit out from the next hand.');
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

  /** Asks for a fresh snapshot (the reconnect indicator's "Resync now"). */
  resync(): void {
    this.session.resync();
  }

  private async run(send: () => Promise<unknown>, success?: string): Promise<boolean> {
    this.patch({ busy: true });
    try {
      await send();
      if (success !== undefined) this.toasts.show(success, ToastKind.INFO);
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
    if (hand?.result != null) finished = this.upsert(finished, hand, view);
    this.store.set({ ...this.state, view, model: toTableModel(view), finished });
  }

  private onFairness(verdict: HandFairness): void {
    const finished = this.state.finished.map((h) => (h.handId === verdict.handId ? { ...h, fairness: verdict } : h));
    this.patch({ finished });
  }

  private upsert(list: readonly FinishedHand[], hand: HandMarkers, view: TableView): readonly FinishedHand[] {
    const result = hand.result!;
    const state = view.state;
    const names = new Map<number, string>();
    for (const s of state?.seats ?? []) if (s.name !== null) names.set(s.seat, s.name);
    const existing = list.find((h) => h.handId === hand.handId);
    const entry: FinishedHand = {
      handId: hand.handId,
      title: state ? gameTitle(state.variant.game, state.variant.limit) : '',
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

  private patch(partial: Partial<TableScreenState>): void {
    this.store.set({ ...this.state, ...partial });
  }
}
