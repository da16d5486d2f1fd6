import { SeatStatus as EngineSeatStatus } from '@felt/engine';
import { hash } from 'node:crypto';
import {
  canonicalJson,
  HandPhase,
  SeatStatus,
  StateHashInput,
  type DealingView,
  type HeroView,
  type SeatView,
  type Sha256Hex,
  type TableState,
} from '@felt/protocol';
import { stakesView } from './engine-config.js';
import type { LiveTable } from './live-table.js';
import { validActionsView } from './valid-actions.js';

/** Who a snapshot is for: a member's user id, or null for the spectator view. */
export type Viewer = string | null;

function phaseOf(live: LiveTable): HandPhase {
  if (live.pending !== null) return HandPhase.SEEDING;
  // An engine-blind hand's players are keying, shuffling and opening their hole cards.
  if (live.announcedHandId !== null) return HandPhase.DEALING;
  const hand = live.hand;
  if (hand === null) return HandPhase.WAITING;
  switch (hand.phase) {
    case 'betting':
      return HandPhase.BETTING;
    case 'drawing':
      return HandPhase.DRAWING;
    case 'dealing':
      return HandPhase.DEALING;
    case 'showdown':
      return HandPhase.SHOWDOWN;
    case 'complete':
      return HandPhase.COMPLETE;
  }
}

/** The seat's lifecycle status as the protocol defines it (`seats[].status`), not its hand state. */
function statusOf(live: LiveTable, playerId: string, engineStatus: string): SeatStatus {
  if (live.isLeaving(playerId) || engineStatus === EngineSeatStatus.SITTING_OUT) return SeatStatus.SITTING_OUT;
  const member = live.member(playerId);
  if (member?.bot) return SeatStatus.ACTIVE;
  if (!live.isConnected(playerId)) return SeatStatus.DISCONNECTED;
  if (live.isAway(playerId)) return SeatStatus.AWAY;
  return SeatStatus.ACTIVE;
}

/**
 * The table as one recipient may see it, built from the engine's redacted view for that seat:
 * nothing here reads another seat's hidden cards (invariant 2). Every seat index is listed.
 */
export function buildSnapshot(
  live: LiveTable,
  viewer: Viewer,
  ts: number,
  tableSeq: number,
  prevTableSeq: number | null,
): TableState {
  return finishSnapshot(new TableViews(live, ts).prepare(viewer), tableSeq, prevTableSeq);
}

/** A snapshot without its stream fields (table_seq, prev_table_seq) and hash. */
export type SnapshotBody = Omit<TableState, 'table_seq' | 'prev_table_seq' | 'state_hash'>;

/**
 * SHA-256 by node:crypto, one shot: the same hex as the protocol's JavaScript one, at a fraction of
 * its cost (the text is ASCII, so its UTF-8 is its bytes).
 */
const nativeSha256: Sha256Hex = (ascii) => hash('sha256', ascii, 'hex');

/**
 * One recipient's view: the body, what its state_hash covers (encoded once, for both the key and
 * the hash of the snapshot sent), and its key.
 */
export interface PreparedView {
  readonly body: SnapshotBody;
  readonly input: StateHashInput;
  /** "Has this recipient's view changed": the hash of the view without its stream fields. */
  readonly key: string;
}

/**
 * Every recipient's view of the table at one moment. A member's view is the spectators' but for
 * their own seat's cards (from the engine's view for that seat) and `hero`, so the spectators' view
 * is built and encoded once and each member's adds only those.
 */
export class TableViews {
  private readonly shared: SnapshotBody;
  private readonly sharedInput: StateHashInput;
  private sharedView: PreparedView | undefined;
  /** The canonical JSON of each of the spectators' seats, encoded once for every member's view. */
  private seatTexts: string[] | undefined;

  constructor(
    private readonly live: LiveTable,
    ts: number,
  ) {
    this.shared = spectatorBody(live, ts);
    this.sharedInput = StateHashInput.of(this.shared);
  }

  prepare(viewer: Viewer): PreparedView {
    const own = viewer === null ? null : memberParts(this.live, viewer, this.shared.seats);
    if (own === null) {
      this.sharedView ??= { body: this.shared, input: this.sharedInput, key: this.sharedInput.hash(nativeSha256) };
      return this.sharedView;
    }
    const body: SnapshotBody = { ...this.shared, ...own };
    const input = this.sharedInput.withCanonical({
      hero: canonicalJson(own.hero),
      ...(own.seats !== undefined ? { seats: this.seatsText(own.seats) } : {}),
      ...(own.dealing !== undefined ? { dealing: canonicalJson(own.dealing) } : {}),
    });
    return { body, input, key: input.hash(nativeSha256) };
  }

  /** A member's seats: the spectators' seat texts, but for each seat that is not the same object. */
  private seatsText(seats: readonly SeatView[]): string {
    const shared = this.shared.seats;
    const texts = (this.seatTexts ??= shared.map((s) => canonicalJson(s)));
    return `[${seats.map((s, i) => (s === shared[i] ? texts[i]! : canonicalJson(s))).join(',')}]`;
  }
}

/** Stamps a view with its place in the recipient's stream and hashes it as sent. */
export function finishSnapshot(view: PreparedView, tableSeq: number, prevTableSeq: number | null): TableState {
  return stamp(view, tableSeq, prevTableSeq).message;
}

/**
 * finishSnapshot, with the snapshot's JSON (`text`) built from the canonical text its state_hash
 * covers and the fields the hash leaves out, so that it is not encoded a second time to be published.
 * Parsed, `text` equals `message`.
 */
export function finishSnapshotText(
  view: PreparedView,
  tableSeq: number,
  prevTableSeq: number | null,
): { message: TableState; text: string } {
  const { input, message } = stamp(view, tableSeq, prevTableSeq);
  return { message, text: input.snapshotText(message) };
}

/** The snapshot sent, and what its state_hash covers. */
function stamp(
  view: PreparedView,
  tableSeq: number,
  prevTableSeq: number | null,
): { input: StateHashInput; message: TableState } {
  // table_seq is not hashed, so without a prev_table_seq the hash is the key's.
  const input = prevTableSeq !== null ? view.input.with({ prev_table_seq: prevTableSeq }) : view.input;
  const stateHash = prevTableSeq !== null ? input.hash(nativeSha256) : view.key;
  const message: TableState = {
    ...view.body,
    table_seq: tableSeq,
    ...(prevTableSeq !== null ? { prev_table_seq: prevTableSeq } : {}),
    state_hash: stateHash,
  };
  return { input, message };
}

/**
 * What a member sees beyond the spectators: their own seat's cards, when they are dealt into the
 * hand, and `hero`. Null for anyone who sees what the spectators see (a bot, a non-member).
 */
function memberParts(
  live: LiveTable,
  viewer: string,
  seats: readonly SeatView[],
): { seats?: SeatView[]; hero: HeroView; dealing?: DealingView } | null {
  const member = live.member(viewer);
  // A tournament player moved away or out sees what the spectators see.
  if (member === undefined || member.bot || member.departed === true) return null;
  const hand = live.hand;
  // The seat the viewer holds is the engine's word only: the room rows may already give the viewer a
  // seat that someone else still plays in this hand, whose cards must stay theirs.
  const engineSeat = live.seatOf(member.userId);
  const heroSeat = engineSeat ?? member.seat;
  const handSeat =
    engineSeat !== undefined && hand?.setup.players.some((p) => p.seat === engineSeat && p.id === member.userId)
      ? engineSeat
      : null;
  const own = handSeat !== null ? hand!.view(handSeat).players.find((p) => p.seat === handSeat) : undefined;
  const turn = live.turn;
  const cards = own ? own.hole.filter((c): c is NonNullable<typeof c> => c !== null) : [];
  const acting = hand !== null && turn !== null && turn.seat === heroSeat && turn.playerId === member.userId;
  const valid = acting ? validActionsView(hand, heroSeat) : null;
  const hero: HeroView =
    acting && valid !== null
      ? { seat: heroSeat, cards, valid_actions: valid, turn_token: turn.token }
      : { seat: heroSeat, cards };
  // An engine-blind hand's participant sees what it owes and the shares of its own hole cards.
  const blindSeats = live.dealingSeats();
  const dealing =
    engineSeat !== undefined && blindSeats?.includes(engineSeat) === true ? live.dealingView(engineSeat) : undefined;
  const withDealing = dealing !== undefined ? { dealing } : {};
  if (own === undefined) return { hero, ...withDealing };
  return {
    seats: seats.map((s) => (s.seat === handSeat ? { ...s, cards: own.hole.map((c) => c) } : s)),
    hero,
    ...withDealing,
  };
}

/** What a spectator sees, without the stream fields: the start of every recipient's view. */
function spectatorBody(live: LiveTable, ts: number): SnapshotBody {
  const hand = live.hand;
  const view = hand?.view(null) ?? null;
  const inHand = new Map((view?.players ?? []).map((p) => [p.seat, p]));
  const engineSeats = new Map(live.engine.seats().map((s) => [s.seat, s]));
  const table = live.engine.toJSON();
  const seats: SeatView[] = [];
  for (let seat = 1; seat <= live.config.seats; seat++) {
    const s = engineSeats.get(seat);
    if (s === undefined) {
      seats.push({ seat, user_id: null, name: null, stack: 0, status: SeatStatus.EMPTY, in_hand: false, bet: 0 });
      continue;
    }
    const m = live.member(s.playerId);
    const p = inHand.get(seat);
    const base: SeatView = {
      seat,
      user_id: s.playerId,
      name: m?.name ?? s.name ?? '',
      // The last hand's stacks while it is still shown; once the engine has finished it, the engine's
      // (a top-up or an add-on since then is on the seat at once).
      stack: p && live.engine.currentHandId !== null ? p.stack : s.stack,
      status: statusOf(live, s.playerId, s.status),
      ...(m?.bot ? { bot: true } : {}),
      in_hand: p !== undefined,
      bet: p ? p.bet : 0,
      time_bank_ms: live.bankOf(s.playerId),
    };
    seats.push(
      p
        ? {
            ...base,
            folded: p.folded,
            all_in: p.allIn,
            cards: p.hole.map((c) => c),
            up: p.visibility.map((v) => v === 'up'),
          }
        : base,
    );
  }

  const turn = live.turn;
  const mixed = live.engine.mixed;
  const handId = live.announcedHandId ?? hand?.handId;
  const dealing = live.dealingView(null);
  return {
    type: 'table_state' as const,
    table_id: live.tableId,
    ...(handId !== undefined ? { hand_id: handId, hand_seq: hand?.operations.length ?? 0 } : {}),
    ts,
    game: live.config.game,
    variant: live.variantView(),
    ...(mixed !== null
      ? {
          rotation: {
            format: live.config.game,
            next: { game: mixed.next.game, limit: mixed.next.limit, stakes: stakesView(mixed.next.stakes) },
            hands_played: mixed.handsPlayed,
            hands_per_variant: mixed.handsPerVariant,
          },
        }
      : {}),
    phase: phaseOf(live),
    street: view !== null && view.street >= 0 ? view.streetName : null,
    button: table.button,
    small_blind: table.smallBlind,
    big_blind: table.bigBlind,
    seats,
    board: view ? [...view.board] : [],
    pots: view ? view.pots.map((p) => ({ amount: p.amount, eligible: [...p.eligible] })) : [],
    pot_total: hand?.potTotal ?? 0,
    current_bet: view?.currentBet ?? 0,
    actor: hand !== null && !hand.isComplete ? hand.actor : null,
    deadline: turn?.deadline ?? null,
    time_bank_ms: turn?.bankAtStart ?? null,
    ...(live.pending
      ? { seed_commit: live.pending.seedCommit }
      : live.meta && live.meta.dealing !== 'blind'
        ? { seed_commit: live.meta.seedCommit }
        : {}),
    ...(live.nextHandAt !== null ? { next_hand_at: live.nextHandAt } : {}),
    ...(live.closing ? { closing: true as const } : {}),
    ...(live.botsBlocked !== null ? { bots_blocked: live.botsBlocked } : {}),
    ...(live.tournamentInfo !== null ? { tournament: live.tournamentInfo } : {}),
    ...(dealing !== undefined ? { dealing } : {}),
  };
}
