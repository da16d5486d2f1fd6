// An engine-blind table for SDK tests: @felt/blind's pure state machine as the server, speaking the
// wire (table_state.dealing.blind, blind_step) to each seat as the table worker will. The mapping of
// a BlindView to the wire's BlindHandView here is the server's: `encrypted` = deck, snake_case names.
import {
  BlindRefusal,
  blindView,
  requestCards,
  startBlindHand,
  submitKey,
  submitShares,
  submitShuffle,
  type BlindHandState,
  type BlindStep,
  type BlindView,
  type CardRequest,
  type Rng,
} from '@felt/blind';
import { getGameRules, initialDeck } from '@felt/engine';
import {
  blindKeySchema,
  blindSharesSchema,
  blindShuffleSchema,
  type BlindHandView,
  type BlindStepMessage,
  type ErrorCode,
  type ResyncResponse,
  type TableEvent,
  type TableState,
} from '@felt/protocol';
import { sha512 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { BlindSeat, type BlindSeatOptions } from '../../src/sdk/blind-seat.js';
import { CommandRefusedError } from '../../src/sdk/errors.js';
import { FeltClient } from '../../src/sdk/felt-client.js';
import { initialTableView, reduceTable, type TableView } from '../../src/sdk/reducer.js';
import type { TableSession } from '../../src/sdk/table-session.js';
import { FakeSocketFactory, type FakeSocket } from './fake-socket.js';
import { FakeTimers } from './fake-timers.js';
import { HAND_A, TABLE, seat as seatView, tableState } from './messages.js';

/** Deterministic bytes for tests (SHA-512 of label/counter): never for real keys. */
export function seededRng(label: string): Rng {
  let counter = 0;
  return (n) => {
    const out = new Uint8Array(n);
    for (let o = 0; o < n; o += 64) {
      out.set(sha512(utf8ToBytes(`${label}/${counter++}`)).subarray(0, Math.min(64, n - o)), o);
    }
    return out;
  };
}

/** The server's mapping of @felt/blind's view onto the wire. */
export function wireBlindView(view: BlindView): BlindHandView {
  return {
    hand_id: view.handId,
    seats: [...view.seats],
    lambda: view.lambda,
    phase: view.phase,
    keys: { ...view.keys },
    joint_key: view.jointKey,
    encrypted: view.deck.map(({ c1, c2 }) => ({ c1, c2 })),
    shuffled: view.shuffled,
    shuffler: view.shuffler,
    deadline: view.deadline,
    positions: view.positions.map((p) => ({
      position: p.position,
      to: p.to,
      due: p.due,
      ...(p.card === undefined ? {} : { card: p.card }),
      shares: { ...p.shares },
    })),
    owed:
      view.owed === null
        ? null
        : { key: view.owed.key, shuffle: view.owed.shuffle, positions: [...view.owed.positions] },
    failure: view.failure === null ? null : { ...view.failure, seats: [...view.failure.seats] },
  };
}

type StepBody = Pick<BlindStepMessage, 'seat' | 'key' | 'shuffle' | 'shuffle_digest' | 'shares'>;

function stepBody(step: BlindStep): StepBody {
  if (step.kind === 'key') return { seat: step.seat, key: { ...step.proof } };
  if (step.kind === 'shuffle') {
    return {
      seat: step.seat,
      shuffle: {
        output: step.output.map(({ c1, c2 }) => ({ c1, c2 })),
        proof: JSON.parse(JSON.stringify(step.proof)) as NonNullable<BlindStepMessage['shuffle']>['proof'],
      },
    };
  }
  return {
    seat: step.seat,
    shares: step.shares.map(({ position, share }) => ({ position, D: share.D, c: share.c, s: share.s })),
  };
}

/** A frame a seat sent, and the table's two answers to it. */
export interface Outgoing {
  readonly frame: Record<string, unknown> & { readonly type: string };
  ack(atTableSeq: number): void;
  refuse(code: ErrorCode, message: string): void;
}

/** One seat as the table reaches it: a bare BlindSeat or a whole FeltClient. */
export interface BlindEndpoint {
  readonly seat: number;
  deliver(message: TableState | TableEvent | ResyncResponse): void;
  /** The blind frames sent since the last call. */
  drain(): Outgoing[];
}

export interface BlindTableOptions {
  readonly lambda?: number;
  readonly handId?: string;
  readonly game?: string;
}

/**
 * The table: takes each seat's frame into the state machine, relays the step (the shares of a hole
 * card only to its owner), then sends every seat its snapshot, as a batch ends with one.
 */
export class BlindTable {
  state: BlindHandState;
  now = 1_764_400_000_000;
  /** The table_seq of the last message sent. */
  seq = 100;
  readonly folded = new Set<number>();
  /** Every step message meant for each seat, delivered or not, in order (a resync replays them). */
  readonly sentSteps = new Map<number, BlindStepMessage[]>();
  /** Every message sent to each seat, raw (for the privacy auditor). */
  readonly transcript = new Map<number | 'spectator', unknown[]>();
  /**
   * Seats whose messages are lost on the way (gone, or their connection is down): the table still
   * sends them, so the next message that arrives shows the gap in its prev_table_seq.
   */
  readonly away = new Set<number>();
  /** Rewrites a step for one recipient before it goes (tamper tests). */
  relay: (to: number, step: BlindStepMessage) => BlindStepMessage = (_to, step) => step;
  /** Rewrites a recipient's view before it goes (tamper tests). */
  viewFor: (to: number, view: BlindHandView) => BlindHandView = (_to, view) => view;
  private readonly endpoints = new Map<number, BlindEndpoint>();
  private readonly last = new Map<number | 'spectator', number>();
  readonly handId: string;

  constructor(
    readonly seats: readonly number[],
    options: BlindTableOptions = {},
  ) {
    this.handId = options.handId ?? HAND_A;
    this.game = options.game ?? 'holdem';
    const cards = initialDeck(getGameRules(this.game).deck);
    this.state = startBlindHand(
      {
        tableId: TABLE,
        handId: this.handId,
        seats,
        cards,
        lambda: options.lambda ?? 3,
        deadlines: { keyMs: 2_000, shuffleMs: 5_000, shareMs: 2_000 },
      },
      this.now,
    );
  }

  readonly game: string;

  attach(endpoint: BlindEndpoint): void {
    this.endpoints.set(endpoint.seat, endpoint);
  }

  endpoint(seat: number): BlindEndpoint {
    const e = this.endpoints.get(seat);
    if (e === undefined) throw new Error(`no endpoint at seat ${seat}`);
    return e;
  }

  /** Seat `seat`'s snapshot now (null: a spectator's), as the next message to it. */
  snapshotFor(seat: number | null, tableSeq = this.seq + 1): TableState {
    const key = seat ?? 'spectator';
    const view = blindView(this.state, seat);
    const wire = seat === null ? wireBlindView(view) : this.viewFor(seat, wireBlindView(view));
    const board = view.positions.filter((p) => p.to === 'board' && p.card !== undefined).map((p) => p.card as string);
    const prev = this.last.get(key);
    return tableState(tableSeq, {
      ...(prev === undefined ? {} : { prev_table_seq: prev }),
      hand_id: this.handId,
      game: this.game,
      variant: { ...tableState(0).variant, game: this.game },
      phase: 'betting',
      seats: this.seats.map((s) => seatView(s, { folded: this.folded.has(s) })),
      board,
      actor: null,
      deadline: null,
      time_bank_ms: null,
      seed_commit: undefined,
      dealing: { mode: 'engine_blind', downgraded: null, blind: wire },
      hero: seat === null ? undefined : { seat, cards: [] },
    });
  }

  /** Sends every seat (and the spectator transcript) its snapshot. */
  publish(): void {
    const tableSeq = ++this.seq;
    for (const seat of this.seats) {
      if (this.endpoints.has(seat)) this.sendTo(seat, this.snapshotFor(seat, tableSeq));
    }
    this.record('spectator', this.snapshotFor(null, tableSeq));
    this.last.set('spectator', tableSeq);
  }

  private record(key: number | 'spectator', message: unknown): void {
    let list = this.transcript.get(key);
    if (list === undefined) this.transcript.set(key, (list = []));
    list.push(JSON.parse(JSON.stringify(message)));
  }

  private sendTo(seat: number, message: TableState | TableEvent): void {
    this.last.set(seat, message.table_seq);
    if (message.type === 'blind_step') {
      let list = this.sentSteps.get(seat);
      if (list === undefined) this.sentSteps.set(seat, (list = []));
      list.push(message);
    }
    if (this.away.has(seat)) return;
    this.record(seat, message);
    this.endpoint(seat).deliver(message);
  }

  /**
   * What a resync replays to `seat` after `fromTableSeq`: its steps, each shuffle as its digest (the
   * table keeps no proof in its event buffer), without prev_table_seq.
   */
  replayFor(seat: number, fromTableSeq: number): BlindStepMessage[] {
    return (this.sentSteps.get(seat) ?? [])
      .filter((m) => m.table_seq > fromTableSeq)
      .map(({ prev_table_seq: _prev, shuffle, ...m }) =>
        shuffle === undefined ? m : { ...m, shuffle_digest: 'ab'.repeat(32) },
      );
  }

  /** Relays a step: to every seat, but a share of another seat's unshown hole card to nobody else. */
  private relayStep(step: BlindStep): void {
    const tableSeq = ++this.seq;
    const body = stepBody(step);
    const base = { type: 'blind_step' as const, table_id: TABLE, hand_id: this.handId, hand_seq: tableSeq };
    for (const to of [...this.seats, null]) {
      let forThem: StepBody = body;
      if (body.shares !== undefined) {
        const shares = body.shares.filter(({ position }) => {
          const p = this.state.positions[position];
          return p === undefined || p.to === 'board' || p.to === to || p.card !== undefined;
        });
        if (shares.length === 0) continue;
        forThem = { seat: body.seat, shares };
      }
      const key = to ?? 'spectator';
      const prev = this.last.get(key);
      const message: BlindStepMessage = {
        ...base,
        table_seq: tableSeq,
        ...(prev === undefined ? {} : { prev_table_seq: prev }),
        ...forThem,
      };
      if (to === null) {
        this.record('spectator', message);
        this.last.set('spectator', tableSeq);
      } else if (this.endpoints.has(to)) {
        this.sendTo(to, this.relay(to, message));
      }
    }
  }

  /** Takes one frame from `seat`: refused frames change nothing (and are answered with an error). */
  take(seat: number, out: Outgoing): void {
    // The frames must pass the wire's strict schemas, as the gateway checks them.
    const f = out.frame;
    try {
      let result;
      if (f.type === 'blind_key') {
        result = submitKey(this.state, seat, blindKeySchema.parse(f).proof, this.now);
      } else if (f.type === 'blind_shuffle') {
        const { output, proof } = blindShuffleSchema.parse(f);
        result = submitShuffle(this.state, seat, output, proof, this.now);
      } else if (f.type === 'blind_shares') {
        const shares = blindSharesSchema
          .parse(f)
          .shares.map(({ position, D, c, s }) => ({ position, share: { D, c, s } }));
        result = submitShares(this.state, seat, shares);
      } else {
        throw new Error(`not a blind frame: ${f.type}`);
      }
      this.state = result.state;
      if (result.step !== undefined) this.relayStep(result.step);
      this.publish();
      out.ack(this.seq);
    } catch (error) {
      if (!(error instanceof BlindRefusal)) throw error;
      out.refuse('invalid_frame', error.message);
    }
  }

  /** Takes every seat's frames until none sends anything; returns the frames taken. */
  settle(): Outgoing[] {
    const taken: Outgoing[] = [];
    for (let round = 0; round < 50; round += 1) {
      let any = false;
      for (const seat of this.seats) {
        if (this.away.has(seat) || !this.endpoints.has(seat)) continue;
        for (const out of this.endpoint(seat).drain()) {
          any = true;
          taken.push(out);
          this.take(seat, out);
        }
      }
      if (!any) return taken;
    }
    throw new Error('the table did not settle');
  }

  deal(requests: readonly CardRequest[]): void {
    this.state = requestCards(this.state, requests, this.now).state;
    this.publish();
  }

  /** Hold'em's hole cards as the engine deals them: one at a time round the seats, twice. */
  holePositions(seat: number): number[] {
    const i = this.seats.indexOf(seat);
    return [i, i + this.seats.length];
  }

  dealHoles(): void {
    this.deal(this.seats.flatMap((seat) => this.holePositions(seat).map((position) => ({ position, to: seat }))));
  }

  /** The next `count` board positions after the holes and the board dealt so far. */
  dealBoard(count: number): number[] {
    const first = Object.keys(this.state.positions).length;
    const positions = Array.from({ length: count }, (_, k) => first + k);
    this.deal(positions.map((position) => ({ position, to: 'board' as const })));
    return positions;
  }

  /** A card opened for everyone, at a position. */
  opened(position: number): string | undefined {
    return this.state.positions[position]?.card;
  }
}

/**
 * A bare BlindSeat fed as a TableSession feeds it: through the reducer (a lost message is a gap), with
 * its frames answered by the table. `hold` keeps frames from the table (a dropped connection).
 */
export class SeatEndpoint implements BlindEndpoint {
  readonly blind: BlindSeat;
  view: TableView = initialTableView(TABLE);
  private outbox: Outgoing[] = [];
  private nextCommand = 0;

  constructor(
    readonly seat: number,
    options: BlindSeatOptions = {},
  ) {
    this.blind = new BlindSeat(
      TABLE,
      {
        send: (frame) =>
          new Promise((resolve, reject) => {
            const commandId = `c${this.seat}-${++this.nextCommand}`;
            this.outbox.push({
              frame,
              ack: (atTableSeq) =>
                resolve({ type: 'ack', table_id: TABLE, command_id: commandId, at_table_seq: atTableSeq }),
              refuse: (code, message) =>
                reject(
                  new CommandRefusedError(commandId, frame.type, {
                    type: 'error',
                    code,
                    message,
                    command_id: commandId,
                  }),
                ),
            });
          }),
      },
      options,
    );
  }

  deliver(message: TableState | TableEvent | ResyncResponse): void {
    const result = reduceTable(this.view, message);
    if (!result.applied) return;
    this.view = result.view;
    this.blind.handle(message, result.lossDetected);
  }

  drain(): Outgoing[] {
    const out = this.outbox;
    this.outbox = [];
    return out;
  }
}

/** A whole FeltClient on a fake socket, joined to the table; the table answers its blind frames. */
export class SessionEndpoint implements BlindEndpoint {
  readonly timers = new FakeTimers();
  readonly sockets = new FakeSocketFactory();
  readonly client: FeltClient;
  readonly session: TableSession;
  private read = new Map<FakeSocket, number>();

  constructor(readonly seat: number) {
    this.client = new FeltClient({
      gatewayUrls: ['ws://g1/ws'],
      socketFactory: this.sockets.create,
      timers: this.timers,
      random: () => 0.5,
      backoff: { baseMs: 100, maxMs: 100 },
      pingIntervalMs: 0,
      commandRetryMs: 1_000,
      commandAttempts: 3,
      clientSeeds: false,
      tableSilenceMs: 0,
    });
    this.client.connect();
    this.sockets.last.acceptOpen();
    this.session = this.client.join(TABLE);
  }

  get socket(): FakeSocket {
    return this.sockets.last;
  }

  deliver(message: TableState | TableEvent | ResyncResponse): void {
    this.socket.deliver(message);
  }

  /** Every blind frame this client put on the wire, on every socket, in order. */
  blindFrames(): Record<string, unknown>[] {
    return this.sockets.sockets.flatMap((s) => s.sent.filter((f) => String(f.type).startsWith('blind_')));
  }

  drain(): Outgoing[] {
    const socket = this.socket;
    const from = this.read.get(socket) ?? 0;
    this.read.set(socket, socket.sent.length);
    return socket.sent
      .slice(from)
      .filter((f) => String(f.type).startsWith('blind_'))
      .map((frame) => {
        const commandId = String(frame.command_id);
        return {
          frame: frame as Outgoing['frame'],
          ack: (atTableSeq: number) =>
            socket.deliver({ type: 'ack', table_id: TABLE, command_id: commandId, at_table_seq: atTableSeq }),
          refuse: (code: ErrorCode, message: string) =>
            socket.deliver({ type: 'error', code, message, command_id: commandId, table_id: TABLE }),
        };
      });
  }
}
