// A player's side of engine-blind dealing over a protocol-level TableClient: one @felt/blind
// BlindParticipant per hand (the same class the SDK uses), fed every relayed step and every snapshot,
// answering what it owes, playing check/call, showing at the showdown (or mucking), releasing its
// shares after a fold. It decrypts its own hole cards; nothing else in the test can.
import { BlindParticipant, type BlindMessage, type BlindStep, type BlindView } from '@felt/blind';
import { initialDeck } from '@felt/engine';
import type { BlindHandView, TableState } from '@felt/protocol';
import type { Msg, TableClient } from './table-client.js';

export interface AutopilotOptions {
  /** Folds at its first turn of every hand (and releases its shares). */
  readonly folds?: boolean;
  /** Mucks at the showdown instead of showing. */
  readonly mucks?: boolean;
}

function viewOf(tableId: string, v: BlindHandView): BlindView {
  return {
    tableId,
    handId: v.hand_id,
    seats: v.seats,
    lambda: v.lambda,
    phase: v.phase,
    keys: v.keys,
    jointKey: v.joint_key,
    deck: v.encrypted,
    shuffled: v.shuffled,
    shuffler: v.shuffler,
    deadline: v.deadline,
    positions: v.positions.map(({ card, ...p }) => ({ ...p, ...(card === undefined ? {} : { card }) })),
    owed: v.owed,
    failure: v.failure,
  };
}

function stepOf(m: Msg): BlindStep | null {
  const seat = m.seat as number;
  if (m.key !== undefined) return { kind: 'key', seat, proof: m.key as Extract<BlindStep, { kind: 'key' }>['proof'] };
  if (m.shuffle !== undefined) {
    const s = m.shuffle as Pick<Extract<BlindStep, { kind: 'shuffle' }>, 'output' | 'proof'>;
    return { kind: 'shuffle', seat, output: s.output, proof: s.proof };
  }
  if (m.shares !== undefined) {
    const shares = m.shares as { position: number; D: string; c: string; s: string }[];
    return {
      kind: 'shares',
      seat,
      shares: shares.map((x) => ({ position: x.position, share: { D: x.D, c: x.c, s: x.s } })),
    };
  }
  return null;
}

function frameOf(handId: string, m: BlindMessage): Record<string, unknown> {
  if (m.kind === 'key') return { type: 'blind_key', hand_id: handId, proof: m.proof };
  if (m.kind === 'shuffle') return { type: 'blind_shuffle', hand_id: handId, output: m.output, proof: m.proof };
  return {
    type: 'blind_shares',
    hand_id: handId,
    shares: m.shares.map((s) => ({ position: s.position, D: s.share.D, c: s.share.c, s: s.share.s })),
  };
}

export class BlindAutopilot {
  /** Per hand id, this player's participant. */
  readonly participants = new Map<string, BlindParticipant>();
  /** Per hand id, the hole cards this player read. */
  readonly holeCards = new Map<string, string[]>();
  private observed = 0;
  /** Blind commands sent and not yet answered; one answered with an error is sent again. */
  private readonly pending = new Set<string>();
  private errorsSeen = 0;
  private readonly turns = new Set<string>();
  private stopped = false;
  private readonly onMessage = (): void => this.step();

  constructor(
    readonly client: TableClient,
    private readonly options: AutopilotOptions = {},
  ) {
    client.socket.ws.on('message', this.onMessage);
    this.step();
  }

  /** Stops answering: a player whose device went away (its socket may stay open). */
  stop(): void {
    this.stopped = true;
    this.client.socket.ws.off('message', this.onMessage);
  }

  private step(): void {
    if (this.stopped) return;
    const received = this.client.received;
    for (; this.observed < received.length; this.observed++) {
      const m = received[this.observed]!;
      // A resync (a lost message, a new owner): what this player sent may not have been taken.
      if (m.type === 'resync_response') for (const p of this.participants.values()) p.resend();
      if (m.type !== 'blind_step') continue;
      const step = stepOf(m);
      const p = this.participants.get(m.hand_id as string);
      if (step !== null && p !== undefined) p.observe(step);
    }
    // A blind command the table did not take (its worker died, the table was moving): send it again.
    const errors = this.client.errors;
    for (; this.errorsSeen < errors.length; this.errorsSeen++) {
      const id = errors[this.errorsSeen]!.command_id as string | undefined;
      if (id === undefined || !this.pending.delete(id)) continue;
      for (const p of this.participants.values()) p.resend();
    }
    for (const id of this.pending) if (this.client.acks.has(id)) this.pending.delete(id);
    const state = this.client.state;
    if (state !== null) this.answer(state);
  }

  private send(handId: string, m: BlindMessage): void {
    this.pending.add(this.client.command(frameOf(handId, m)));
  }

  private answer(state: TableState): void {
    const blind = state.dealing?.blind ?? null;
    const seat = state.hero?.seat;
    if (blind === null || seat === undefined || !blind.seats.includes(seat) || blind.phase === 'failed') return;
    let p = this.participants.get(blind.hand_id);
    if (p === undefined) {
      const cards = initialDeck(state.variant.game === 'shortdeck' ? 'short36' : 'standard52');
      p = new BlindParticipant(
        { tableId: this.client.tableId, handId: blind.hand_id, seats: blind.seats, cards, lambda: blind.lambda },
        seat,
      );
      this.participants.set(blind.hand_id, p);
    }
    const view = viewOf(this.client.tableId, blind);
    for (const m of p.next(view)) this.send(blind.hand_id, m);
    const read = [...p.holeCards(view).values()];
    if (read.length > 0) this.holeCards.set(blind.hand_id, read);
    const hero = state.hero;
    const token = hero?.turn_token;
    const valid = hero?.valid_actions;
    if (token === undefined || valid === undefined || this.turns.has(token)) return;
    this.turns.add(token);
    if (valid.show !== undefined && this.options.mucks !== true) {
      const own = view.positions.filter((x) => x.to === seat).map((x) => x.position);
      this.send(blind.hand_id, p.show(view, own));
      return;
    }
    const fold = this.options.folds === true || valid.show !== undefined;
    const action = fold ? 'fold' : valid.check ? 'check' : 'call';
    this.client.command({ type: 'action', hand_id: blind.hand_id, action, turn_token: token });
    if (action === 'fold' && valid.show === undefined) {
      const released = p.release(view);
      if (released !== null) this.send(blind.hand_id, released);
    }
  }
}
