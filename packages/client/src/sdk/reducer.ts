// The client side of the protocol's ordering and resync rules (docs/protocol.md, "Ordering, batches
// and loss" and "Resync"), as pure functions over an immutable TableView.
import type {
  HandResult,
  HandVoided,
  ResyncResponse,
  Role,
  SeedReveal,
  Showdown,
  TableEvent,
  TableState,
  YourTurn,
} from '@felt/protocol';

/** What the client knows about one table: the installed snapshot plus hand-local markers. */
export interface TableView {
  readonly tableId: string;
  /** `player` or `spectator`, once a snapshot (hero present or not) or a resync_response said so. */
  readonly role: Role | null;
  /** The receive watermark: the highest table_seq applied; -1 before the first message. */
  readonly lastTableSeq: number;
  /**
   * The authoritative snapshot as installed: the last table_state (or resync snapshot), with fold
   * markers restored where it omitted `folded`, and never a hero for a spectator.
   */
  readonly state: TableState | null;
  /** table_seq of the installed snapshot; -1 when there is none. */
  readonly stateSeq: number;
  /** Markers of the current (or last finished) hand; reset whenever hand_id changes. */
  readonly hand: HandMarkers | null;
  /** A table_closed was applied. */
  readonly closed: boolean;
}

/** The pending decision of a player whose turn it is: everything an `action` frame needs. */
export interface TurnInfo {
  readonly handId: string;
  readonly seat: number;
  readonly turnToken: string;
  readonly validActions: NonNullable<YourTurn['valid_actions']>;
  /** When the action clock ends (absolute server ms); unchanged by reconnects and resyncs. */
  readonly deadline: number | null;
  readonly timeBankMs: number | null;
  /** table_seq of the message it came from. */
  readonly fromSeq: number;
}

/** Hand-local state, cleared when hand_id changes. */
export interface HandMarkers {
  readonly handId: string;
  /** Seats known to have folded from sequenced player_action events (the fold markers). */
  readonly folds: readonly number[];
  /** The hand's sequenced events, deduplicated and in table_seq order: the action history. */
  readonly events: readonly TableEvent[];
  /** Own hole cards in dealing order, from hole_cards_dealt (a draw replaces discards in the snapshot, not here). */
  readonly holeCards: readonly string[];
  /** The seed commitment, and whether it arrived before any card of the hand did. */
  readonly seedCommit: { readonly commit: string; readonly seq: number; readonly beforeDeal: boolean } | null;
  /** A card of the hand (hole card, street or hand_started) has been seen. */
  readonly dealSeen: boolean;
  /** The hero's turn, from your_turn or the snapshot's hero; null when it is not the hero's turn. */
  readonly turn: TurnInfo | null;
  readonly showdown: Showdown | null;
  readonly result: HandResult | null;
  /** The hand was voided (no result follows): why, and the stacks returned. */
  readonly voided: HandVoided | null;
  readonly shown: readonly { readonly seat: number; readonly cards: readonly string[] }[];
  readonly reveal: SeedReveal['reveal'] | null;
}

/** Why a message changed nothing. */
export const IgnoredReason = {
  /** (table_id, table_seq) at or below the watermark: already applied or stale. */
  STALE: 'stale',
  /** Another table's message. */
  OTHER_TABLE: 'other_table',
} as const;
export type IgnoredReason = (typeof IgnoredReason)[keyof typeof IgnoredReason];

export interface ReduceResult {
  readonly view: TableView;
  readonly applied: boolean;
  readonly ignored?: IgnoredReason;
  /**
   * The live stream's prev_table_seq was above the watermark: a message meant for this recipient
   * was lost on the way, so the caller should resync. The message itself is still applied (a
   * forward jump alone is normal and never a reason to resync).
   */
  readonly lossDetected: boolean;
  /** Private data arrived for a spectator and was dropped (an impossible state worth a resync). */
  readonly anomaly?: string;
}

export type ReducibleMessage = TableState | TableEvent | ResyncResponse;

/** The most history kept per hand; a hand has far fewer events than this. */
const MAX_HAND_EVENTS = 2_000;

export function initialTableView(tableId: string, role: Role | null = null): TableView {
  return { tableId, role, lastTableSeq: -1, state: null, stateSeq: -1, hand: null, closed: false };
}

function newHand(handId: string): HandMarkers {
  return {
    handId,
    folds: [],
    events: [],
    holeCards: [],
    seedCommit: null,
    dealSeen: false,
    turn: null,
    showdown: null,
    result: null,
    voided: null,
    shown: [],
    reveal: null,
  };
}

/** A new hand_id starts a new hand: its hand-local state starts empty. */
function handFor(hand: HandMarkers | null, handId: string | undefined): HandMarkers | null {
  if (handId === undefined) return hand;
  return hand?.handId === handId ? hand : newHand(handId);
}

function insertEvent(events: readonly TableEvent[], event: TableEvent): readonly TableEvent[] {
  if (events.some((e) => e.table_seq === event.table_seq)) return events;
  const out = [...events, event].sort((a, b) => a.table_seq - b.table_seq);
  return out.length > MAX_HAND_EVENTS ? out.slice(out.length - MAX_HAND_EVENTS) : out;
}

/** record_history + update_hand_markers for one sequenced event of the hand `hand` belongs to. */
function recordEvent(hand: HandMarkers, event: TableEvent, role: Role | null): HandMarkers {
  if (hand.events.some((e) => e.table_seq === event.table_seq)) return hand;
  let next: HandMarkers = { ...hand, events: insertEvent(hand.events, event) };
  switch (event.type) {
    case 'player_action':
      if (event.action === 'fold' && !next.folds.includes(event.seat)) {
        next = { ...next, folds: [...next.folds, event.seat].sort((a, b) => a - b) };
      }
      if (next.turn?.seat === event.seat) next = { ...next, turn: null };
      break;
    case 'seed_commit':
      next = { ...next, seedCommit: { commit: event.seed_commit, seq: event.table_seq, beforeDeal: !next.dealSeen } };
      break;
    case 'hand_started':
      next = { ...next, dealSeen: true };
      break;
    case 'hole_cards_dealt':
      if (role !== 'spectator') next = { ...next, holeCards: [...next.holeCards, ...event.cards] };
      next = { ...next, dealSeen: true };
      break;
    case 'street_revealed':
      next = { ...next, dealSeen: true };
      break;
    case 'your_turn':
      if (role !== 'spectator') {
        next = {
          ...next,
          turn: {
            handId: event.hand_id,
            seat: event.seat,
            turnToken: event.turn_token,
            validActions: event.valid_actions,
            deadline: event.deadline,
            timeBankMs: event.time_bank_ms,
            fromSeq: event.table_seq,
          },
        };
      }
      break;
    case 'showdown':
      next = { ...next, showdown: event, shown: [...next.shown, ...event.shown.map((s) => ({ ...s }))] };
      break;
    case 'cards_shown':
      next = { ...next, shown: [...next.shown, { seat: event.seat, cards: event.cards }] };
      break;
    case 'hand_result':
      // The hand is finished: clear its fold markers, and the turn is over too.
      next = { ...next, result: event, folds: [], turn: null };
      break;
    case 'seed_reveal':
      next = { ...next, reveal: event.reveal };
      break;
    case 'hand_voided':
      // A voided hand is over like a finished one, with no result; its turn token is dead, so no
      // client may keep acting on it.
      next = { ...next, voided: event, folds: [], turn: null };
      break;
    default:
      break;
  }
  return next;
}

/** Restores same-hand fold markers only where the snapshot omits `folded`. An explicit value always wins. */
export function restoreFolds(state: TableState, folds: readonly number[]): TableState {
  if (folds.length === 0) return state;
  let changed = false;
  const seats = state.seats.map((s) => {
    if (s.in_hand && s.folded === undefined && folds.includes(s.seat)) {
      changed = true;
      return { ...s, folded: true };
    }
    return s;
  });
  return changed ? { ...state, seats } : state;
}

/** Installs a snapshot: replace_table_state, hand switch, folds, hero turn. */
function installSnapshot(view: TableView, snapshot: TableState, role: Role | null): TableView {
  let hand = handFor(view.hand, snapshot.hand_id);
  let state = snapshot;
  // A spectator's snapshot creates no private hero state (docs/protocol.md, "Privacy").
  if (role === 'spectator' && state.hero !== undefined) {
    const { hero: _hero, ...rest } = state;
    state = rest;
  }
  if (hand !== null && snapshot.hand_id === hand.handId) {
    state = restoreFolds(state, hand.folds);
    // The snapshot is authoritative for the turn: its hero carries the token exactly while the hero acts.
    const hero = state.hero;
    if (hero?.turn_token !== undefined && hero.valid_actions !== undefined) {
      hand = {
        ...hand,
        turn: {
          handId: hand.handId,
          seat: hero.seat,
          turnToken: hero.turn_token,
          validActions: hero.valid_actions,
          deadline: state.deadline,
          timeBankMs: state.time_bank_ms,
          fromSeq: snapshot.table_seq,
        },
      };
    } else if (hand.turn !== null && hand.turn.fromSeq < snapshot.table_seq) {
      hand = { ...hand, turn: null };
    }
    if (hand.seedCommit === null && snapshot.seed_commit !== undefined) {
      hand = {
        ...hand,
        seedCommit: {
          commit: snapshot.seed_commit,
          seq: snapshot.table_seq,
          // A snapshot in the seeding phase precedes every card of the hand.
          beforeDeal: snapshot.phase === 'seeding' && !hand.dealSeen,
        },
      };
    }
  } else if (hand !== null && hand.turn !== null) {
    // Between hands: no turn.
    hand = { ...hand, turn: null };
  }
  return { ...view, role, state, stateSeq: snapshot.table_seq, hand };
}

function applyResync(view: TableView, message: ResyncResponse): ReduceResult {
  // 1. Validate table_id (the role is taken from the response: membership can change).
  if (message.table_id !== view.tableId) {
    return { view, applied: false, ignored: IgnoredReason.OTHER_TABLE, lossDetected: false };
  }
  const role = message.role;
  // 2. Sort and deduplicate the replay; consume it for history and hand markers.
  const seen = new Set<number>();
  const replay = [...message.replayed_events]
    .sort((a, b) => a.table_seq - b.table_seq)
    .filter((e) => (seen.has(e.table_seq) ? false : (seen.add(e.table_seq), true)));
  let hand = view.hand;
  for (const event of replay) {
    // Table-scoped, not about a hand: nothing of the hand's markers changes.
    if (!('hand_id' in event)) continue;
    hand = handFor(hand, event.hand_id);
    if (hand !== null) hand = recordEvent(hand, event, role);
  }
  let next: TableView = { ...view, hand };
  // 3-4. Install the snapshot as the final state, re-applying folds only where it omits them.
  // A response overtaken by a newer live snapshot (the reply and the live stream travel different
  // paths) must not roll the state back, so an older snapshot is not installed.
  if (message.snapshot.table_seq >= view.stateSeq) next = installSnapshot(next, message.snapshot, role);
  else next = { ...next, role };
  // 5. Advance the watermark.
  next = { ...next, lastTableSeq: Math.max(view.lastTableSeq, message.to_table_seq) };
  return { view: next, applied: true, lossDetected: false };
}

/**
 * Applies one server message to a table view. Pure: returns a new
 * view and never mutates its inputs.
 */
export function reduceTable(view: TableView, message: ReducibleMessage): ReduceResult {
  if (message.type === 'resync_response') return applyResync(view, message);
  if (message.table_id !== view.tableId) {
    return { view, applied: false, ignored: IgnoredReason.OTHER_TABLE, lossDetected: false };
  }
  if (message.table_seq <= view.lastTableSeq) {
    return { view, applied: false, ignored: IgnoredReason.STALE, lossDetected: false };
  }
  // prev_table_seq 0 means "nothing before"; and until a baseline (join snapshot or resync) is
  // installed there is nothing to have lost: the baseline itself brings the client up to date.
  const lossDetected =
    view.state !== null &&
    message.prev_table_seq !== undefined &&
    message.prev_table_seq > 0 &&
    message.prev_table_seq > view.lastTableSeq;
  let next: TableView;
  let anomaly: string | undefined;
  if (message.type === 'table_state') {
    // Every player's snapshot has a hero and a spectator's never does, so the snapshot says which
    // this recipient is (a member who gives the seat up becomes a spectator).
    next = installSnapshot(view, message, message.hero !== undefined ? 'player' : 'spectator');
  } else if (message.type === 'table_closed') {
    next = { ...view, closed: true, hand: view.hand === null ? null : { ...view.hand, folds: [], turn: null } };
  } else if (message.type === 'chat_message' || message.type === 'tournament_state' || message.type === 'table_moved') {
    // Chat changes nothing of the table: only the watermark moves (TableSession emits it as `chat`).
    // A tournament's news is in the snapshot that ends the batch; TableSession emits it (and follows
    // a move) as `tournament` and `moved`.
    next = view;
  } else {
    if (view.role === 'spectator' && (message.type === 'hole_cards_dealt' || message.type === 'your_turn')) {
      anomaly = `${message.type} sent to a spectator`;
    }
    // A void told again (a late notice of an earlier hand) never replaces the markers of the hand
    // now on the table: its seed_commit and turn stay.
    const lateVoid =
      message.type === 'hand_voided' &&
      view.hand !== null &&
      view.hand.handId !== message.hand_id &&
      view.state?.hand_id === view.hand.handId;
    const hand = lateVoid ? view.hand : handFor(view.hand, message.hand_id);
    next = { ...view, hand: hand === null || lateVoid ? hand : recordEvent(hand, message, view.role) };
  }
  next = { ...next, lastTableSeq: message.table_seq };
  return { view: next, applied: true, lossDetected, ...(anomaly !== undefined ? { anomaly } : {}) };
}

/** The hero's pending turn, when it is the hero's turn in the current hand. */
export function currentTurn(view: TableView): TurnInfo | null {
  const hand = view.hand;
  if (hand === null || hand.turn === null || view.closed) return null;
  if (view.state?.hand_id !== undefined && view.state.hand_id !== hand.handId) return null;
  return hand.turn;
}

/** Seats in the current hand that have folded, per the installed snapshot. */
export function foldedSeats(view: TableView): number[] {
  return (view.state?.seats ?? []).filter((s) => s.in_hand && s.folded === true).map((s) => s.seat);
}
