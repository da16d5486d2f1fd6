import { BlindParticipant, type BlindMessage, type BlindStep, type BlindView } from '@felt/blind';
import { initialDeck } from '@felt/engine';
import type { BlindHandView, BlindStepMessage, TableMessage, TableState } from '@felt/protocol';
import type { TableActor } from '../../src/actor/table-actor.js';
import type { ClientCommandFrame } from '../../src/table/commands.js';
import { flush, TABLE, type Harness } from './fakes.js';

/** The wire's view as @felt/blind's (what the SDK does too). */
export function blindViewOf(v: BlindHandView): BlindView {
  return {
    tableId: TABLE,
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

/** A relayed step as @felt/blind's (null: a replayed shuffle's digest, which cannot be audited). */
export function blindStepOf(m: BlindStepMessage): BlindStep | null {
  if (m.key !== undefined) return { kind: 'key', seat: m.seat, proof: m.key };
  if (m.shuffle !== undefined)
    return { kind: 'shuffle', seat: m.seat, output: m.shuffle.output, proof: m.shuffle.proof };
  if (m.shares !== undefined) {
    return {
      kind: 'shares',
      seat: m.seat,
      shares: m.shares.map((s) => ({ position: s.position, share: { D: s.D, c: s.c, s: s.s } })),
    };
  }
  return null;
}

export function frameOf(handId: string, m: BlindMessage): ClientCommandFrame {
  if (m.kind === 'key') return { type: 'blind_key', table_id: TABLE, hand_id: handId, proof: m.proof };
  if (m.kind === 'shuffle') {
    return {
      type: 'blind_shuffle',
      table_id: TABLE,
      hand_id: handId,
      output: m.output.map((ct) => ({ ...ct })),
      proof: {
        openings: m.proof.openings.map((o) => ('seed' in o ? { ...o } : { perm: [...o.perm], rand: [...o.rand] })),
      },
    };
  }
  return {
    type: 'blind_shares',
    table_id: TABLE,
    hand_id: handId,
    shares: m.shares.map((s) => ({ position: s.position, D: s.share.D, c: s.share.c, s: s.share.s })),
  };
}

export interface BlindPlayer {
  readonly userId: string;
  readonly connectionId: string;
  /** Stops answering (a player who dropped). */
  silent?: boolean;
  /** Goes silent once it receives a message of this type (drops mid-hand). */
  silentAfter?: string;
  /** Folds at its first turn. */
  folds?: boolean;
  /** Mucks at the showdown instead of showing. */
  mucks?: boolean;
}

/**
 * Players at an engine-blind table, as their SDKs would be: each keeps a BlindParticipant per hand,
 * audits every relayed step, answers what its view says it owes, plays check/call, shows at the
 * showdown and releases its shares after a fold. The table is the real actor.
 */
export class BlindPlayers {
  readonly participants = new Map<string, BlindParticipant>();
  readonly refusals: { userId: string; code: string }[] = [];
  private readonly read = new Map<string, number>();
  private readonly acted = new Set<string>();

  constructor(
    private readonly h: Harness,
    private readonly actor: () => TableActor,
    readonly players: BlindPlayer[],
  ) {}

  /** Messages to a user not read yet. */
  private unread(userId: string): TableMessage[] {
    const all = this.h.publisher.toUser(userId);
    const from = this.read.get(userId) ?? 0;
    this.read.set(userId, all.length);
    return all.slice(from);
  }

  lastState(userId: string): TableState | undefined {
    return this.h.publisher
      .toUser(userId)
      .filter((m): m is TableState => m.type === 'table_state')
      .at(-1);
  }

  /** Each player reads what it was sent and answers; until nobody has anything more to send. */
  async pump(rounds = 50): Promise<void> {
    for (let round = 0; round < rounds; round++) {
      let sent = false;
      for (const p of this.players) {
        const msgs = this.unread(p.userId);
        if (p.silent === true) continue;
        if (p.silentAfter !== undefined && msgs.some((m) => m.type === p.silentAfter)) {
          p.silent = true;
          continue;
        }
        for (const m of msgs) {
          if (m.type !== 'blind_step') continue;
          const step = blindStepOf(m);
          const participant = this.participants.get(`${p.userId}/${m.hand_id}`);
          if (step !== null && participant !== undefined) participant.observe(step);
        }
        const state = this.lastState(p.userId);
        if (state !== undefined && (await this.answer(p, state))) sent = true;
      }
      if (!sent) return;
    }
  }

  private async submit(p: BlindPlayer, frame: ClientCommandFrame): Promise<void> {
    const out = await this.actor().submit({ kind: 'client', connectionId: p.connectionId, userId: p.userId, frame });
    if (out.result !== undefined && !out.result.ok) this.refusals.push({ userId: p.userId, code: out.result.code });
    await flush();
  }

  participant(userId: string, handId: string): BlindParticipant | undefined {
    return this.participants.get(`${userId}/${handId}`);
  }

  private async answer(p: BlindPlayer, state: TableState): Promise<boolean> {
    const blind = state.dealing?.blind ?? null;
    const seat = state.hero?.seat;
    let sent = false;
    if (blind !== null && seat !== undefined && blind.seats.includes(seat) && blind.phase !== 'failed') {
      const key = `${p.userId}/${blind.hand_id}`;
      let participant = this.participants.get(key);
      if (participant === undefined) {
        participant = new BlindParticipant(
          {
            tableId: TABLE,
            handId: blind.hand_id,
            seats: blind.seats,
            cards: initialDeck('standard52'),
            lambda: blind.lambda,
          },
          seat,
        );
        this.participants.set(key, participant);
      }
      const view = blindViewOf(blind);
      for (const m of participant.next(view)) {
        await this.submit(p, frameOf(blind.hand_id, m));
        sent = true;
      }
      const valid = state.hero?.valid_actions;
      const token = state.hero?.turn_token;
      const turnKey = `${state.hand_id}/${token}`;
      if (valid !== undefined && token !== undefined && !this.acted.has(turnKey)) {
        this.acted.add(turnKey);
        sent = true;
        if (valid.show !== undefined && p.mucks !== true) {
          const shown = participant.show(
            view,
            view.positions.filter((x) => x.to === seat).map((x) => x.position),
          );
          await this.submit(p, frameOf(blind.hand_id, shown));
        } else {
          const action =
            p.folds === true || (valid.show !== undefined && p.mucks === true)
              ? 'fold'
              : valid.check
                ? 'check'
                : 'call';
          await this.submit(p, {
            type: 'action',
            table_id: TABLE,
            hand_id: blind.hand_id,
            action,
            turn_token: token,
            command_id: `act-${turnKey}`,
          });
          if (action === 'fold' && valid.show === undefined) {
            const released = participant.release(blindViewOf(this.lastState(p.userId)!.dealing!.blind!));
            if (released !== null) await this.submit(p, frameOf(blind.hand_id, released));
          }
        }
      }
    }
    return sent;
  }
}
