import { SeatStatus as EngineSeatStatus } from '@felt/engine';
import { createHash } from 'node:crypto';
import {
  HandPhase,
  SeatStatus,
  StateHashInput,
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
  const hand = live.hand;
  if (hand === null) return HandPhase.WAITING;
  switch (hand.phase) {
    case 'betting':
      return HandPhase.BETTING;
    case 'drawing':
      return HandPhase.DRAWING;
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
  return finishSnapshot(prepareView(live, viewer, ts), tableSeq, prevTableSeq);
}

/** A snapshot without its stream fields (table_seq, prev_table_seq) and hash. */
export type SnapshotBody = Omit<TableState, 'table_seq' | 'prev_table_seq' | 'state_hash'>;

/** SHA-256 by node:crypto: the same hex as the protocol's JavaScript one, at a fraction of its cost. */
const nativeSha256: Sha256Hex = (ascii) => createHash('sha256').update(ascii, 'latin1').digest('hex');

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

export function prepareView(live: LiveTable, viewer: Viewer, ts: number): PreparedView {
  const body = snapshotBody(live, viewer, ts);
  const input = StateHashInput.of(body);
  return { body, input, key: input.hash(nativeSha256) };
}

/** Stamps a view with its place in the recipient's stream and hashes it as sent. */
export function finishSnapshot(view: PreparedView, tableSeq: number, prevTableSeq: number | null): TableState {
  // table_seq is not hashed, so without a prev_table_seq the hash is the key's.
  const stateHash =
    prevTableSeq !== null ? view.input.with({ prev_table_seq: prevTableSeq }).hash(nativeSha256) : view.key;
  return {
    ...view.body,
    table_seq: tableSeq,
    ...(prevTableSeq !== null ? { prev_table_seq: prevTableSeq } : {}),
    state_hash: stateHash,
  };
}

/** What the recipient sees, without the stream fields: the input of both the key and the snapshot. */
function snapshotBody(live: LiveTable, viewer: Viewer, ts: number): SnapshotBody {
  const hand = live.hand;
  const member = viewer === null ? undefined : live.member(viewer);
  // The seat the viewer holds is the engine's word only: the room rows may already give the viewer a
  // seat that someone else still plays in this hand, whose cards must stay theirs.
  const engineSeat = member && !member.bot ? live.seatOf(member.userId) : undefined;
  const heroSeat = engineSeat ?? (member && !member.bot ? member.seat : undefined);
  const handSeat =
    engineSeat !== undefined && hand?.setup.players.some((p) => p.seat === engineSeat && p.id === member!.userId)
      ? engineSeat
      : null;
  const view = hand?.view(handSeat) ?? null;
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
      stack: p ? p.stack : s.stack,
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
  let hero: HeroView | undefined;
  if (heroSeat !== undefined && member) {
    const own = handSeat !== null ? inHand.get(handSeat) : undefined;
    const cards = own ? own.hole.filter((c): c is NonNullable<typeof c> => c !== null) : [];
    const acting = hand !== null && turn !== null && turn.seat === heroSeat && turn.playerId === member.userId;
    const valid = acting ? validActionsView(hand, heroSeat) : null;
    hero =
      acting && valid !== null
        ? { seat: heroSeat, cards, valid_actions: valid, turn_token: turn.token }
        : { seat: heroSeat, cards };
  }

  const mixed = live.engine.mixed;
  const handId = live.pending?.handId ?? hand?.handId;
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
      : live.meta
        ? { seed_commit: live.meta.seedCommit }
        : {}),
    ...(live.nextHandAt !== null ? { next_hand_at: live.nextHandAt } : {}),
    ...(live.closing ? { closing: true as const } : {}),
    ...(live.botsBlocked !== null ? { bots_blocked: live.botsBlocked } : {}),
    ...(hero ? { hero } : {}),
  };
}
