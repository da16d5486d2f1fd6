import { isUtf8 } from 'node:buffer';
import { ErrorCode, parseClientFrame, readClientFrame, serverMessageSchema, type ClientFrame } from '@felt/protocol';
import { uwsReadLimit, type FuzzFrame } from './frame-fuzz.js';
import type { RawSocket, ServerMsg } from './raw-socket.js';

/** The gateway settings the expected answers depend on. */
export interface FuzzLimits {
  readonly maxPayload: number;
  /** GATEWAY_MAX_BLIND_PAYLOAD: a blind_shuffle may be this large. */
  readonly maxBlindPayload: number;
  readonly maxTablesPerSocket: number;
}

/** An answer the gateway gives at once, in the order the frames came (no worker involved). */
export type SyncAnswer =
  | { readonly type: 'error'; readonly code: string; readonly commandId: string | undefined }
  | { readonly type: 'pong'; readonly nonce: string | undefined };

/** What the gateway must do with one frame, given the tables the socket is attached to. */
export type Expectation =
  /** The socket ends: 1009 from the gateway, 1006 when uWS drops it (over its maxPayloadLength, not UTF-8). */
  | { readonly kind: 'close'; readonly code: number }
  | { readonly kind: 'sync'; readonly answer: SyncAnswer }
  /** Goes to a worker; answered (by command_id) with ack, error, the join snapshot or resync_response. */
  | {
      readonly kind: 'async';
      readonly frame: Exclude<ClientFrame, { type: 'ping' | 'lobby_subscribe' | 'lobby_unsubscribe' }>;
    }
  /** leave_table of an attached table: detached at once, no answer. */
  | { readonly kind: 'silent'; readonly tableId: string };

/**
 * The gateway's contract for one client frame (docs/protocol.md, services/gateway/src/gateway.ts),
 * computed with the protocol's own parser.
 */
export function expectationOf(frame: FuzzFrame, attached: ReadonlySet<string>, limits: FuzzLimits): Expectation {
  const size = frame.bytes.length;
  if (size > uwsReadLimit(limits)) return { kind: 'close', code: 1006 };
  const oversized = size > limits.maxPayload;
  if (oversized && (frame.binary || size > limits.maxBlindPayload)) return { kind: 'close', code: 1009 };
  if (frame.binary)
    return { kind: 'sync', answer: { type: 'error', code: ErrorCode.INVALID_FRAME, commandId: undefined } };
  if (!isUtf8(frame.bytes)) return { kind: 'close', code: 1006 };
  const text = frame.bytes.toString('utf8');
  let parsed: ReturnType<typeof parseClientFrame>;
  if (oversized) {
    // Only a blind_shuffle is read past GATEWAY_MAX_PAYLOAD.
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return { kind: 'close', code: 1009 };
    }
    if (typeof raw !== 'object' || raw === null || (raw as { type?: unknown }).type !== 'blind_shuffle')
      return { kind: 'close', code: 1009 };
    parsed = readClientFrame(raw);
  } else {
    parsed = parseClientFrame(text);
  }
  if (!parsed.ok) return { kind: 'sync', answer: { type: 'error', code: parsed.code, commandId: parsed.command_id } };
  const f = parsed.frame;
  if (f.type === 'ping') return { kind: 'sync', answer: { type: 'pong', nonce: f.nonce } };
  // Answered later, by a list or an error that carries no command id: not among the generated frames.
  if (f.type === 'lobby_subscribe' || f.type === 'lobby_unsubscribe')
    throw new Error(`${f.type} is not among the frames this fuzzer sends`);
  const commandId = 'command_id' in f ? f.command_id : undefined;
  if (f.type === 'join_table') {
    if (!attached.has(f.table_id) && attached.size >= limits.maxTablesPerSocket)
      return { kind: 'sync', answer: { type: 'error', code: ErrorCode.LIMIT_REACHED, commandId } };
    return { kind: 'async', frame: f };
  }
  if (!attached.has(f.table_id))
    return { kind: 'sync', answer: { type: 'error', code: ErrorCode.NOT_JOINED, commandId } };
  if (f.type === 'leave_table') return { kind: 'silent', tableId: f.table_id };
  return { kind: 'async', frame: f };
}

export interface FuzzStats {
  frames: number;
  readonly byLabel: Map<string, number>;
  /** Answers by kind: error codes (`error:<code>`), pong, ack, snapshot, resync. */
  readonly answers: Map<string, number>;
  readonly closes: Map<number, number>;
  reconnects: number;
  /** Worker answers that arrived after the lane had moved on (a re-join settled by a stream snapshot). */
  late: number;
  /** Table stream messages the fuzzing sockets received as spectators. */
  streamMessages: number;
  /** Milliseconds from sending a worker-bound frame to its answer. */
  readonly workerAnswerMs: number[];
  readonly violations: string[];
}

export function newFuzzStats(): FuzzStats {
  return {
    frames: 0,
    byLabel: new Map(),
    answers: new Map(),
    closes: new Map(),
    reconnects: 0,
    late: 0,
    streamMessages: 0,
    workerAnswerMs: [],
    violations: [],
  };
}

const bump = <K>(map: Map<K, number>, key: K): void => {
  map.set(key, (map.get(key) ?? 0) + 1);
};

export class FuzzViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FuzzViolation';
  }
}

interface Pending {
  readonly commandId: string;
  readonly frame: Exclude<ClientFrame, { type: 'ping' | 'lobby_subscribe' | 'lobby_unsubscribe' }>;
  answer: ServerMsg | undefined;
}

export interface FuzzLaneOptions {
  readonly name: string;
  /** Opens a new socket for this lane (the first, and after every close). */
  readonly connect: () => Promise<RawSocket>;
  /** The table the lane spectates, re-joined whenever the socket is not at it. */
  readonly home: string;
  readonly limits: FuzzLimits;
  readonly stats: FuzzStats;
  /** Frames in flight with an immediate answer before the lane waits for them. */
  readonly window?: number;
  /** How long any one answer may take before the run fails. */
  readonly answerTimeoutMs?: number;
}

const snippet = (f: FuzzFrame): string =>
  `${f.label} ${f.binary ? 'binary' : 'text'} ${f.bytes.length}B ${JSON.stringify(f.bytes.subarray(0, 120).toString('latin1'))}`;

/**
 * One fuzzing socket of the attacker: sends generated frames and checks that each gets what
 * expectationOf says. Answers the gateway gives at once are matched in order (up to `window` in
 * flight); a frame that goes to a worker carries a fresh command_id and is awaited before the next
 * one, so the lane never has more than one command in a table's mailbox. A frame that must close the
 * socket is sent once every earlier answer arrived; the lane then reconnects and spectates again.
 */
export class FuzzLane {
  private socket: RawSocket | undefined;
  private readonly attached = new Set<string>();
  private readonly fifo: { answer: SyncAnswer; frame: FuzzFrame }[] = [];
  private pending: Pending | undefined;
  private readonly issued = new Set<string>();
  private readonly waiters = new Set<() => void>();
  private expectingClose = false;
  private nextCommand = 0;
  /** The last frames sent, for failure messages. */
  private readonly recent: string[] = [];
  frames = 0;

  constructor(private readonly o: FuzzLaneOptions) {}

  /** Sends frames from `next` until it returns undefined, then waits for every answer. */
  async run(next: () => FuzzFrame | undefined): Promise<void> {
    await this.open();
    for (let frame = next(); frame !== undefined; frame = next()) {
      await this.sendOne(frame);
      this.frames++;
    }
    await this.until(() => this.fifo.length === 0, 'the last answers');
    this.expectingClose = true;
    this.socket?.close();
  }

  private get stats(): FuzzStats {
    return this.o.stats;
  }

  /** Records a violation that ends the lane, and returns it to throw or reject with. */
  private fatal(message: string): FuzzViolation {
    const text = `${this.o.name}: ${message}`;
    this.stats.violations.push(text);
    return new FuzzViolation(text);
  }

  private fail(message: string): never {
    throw this.fatal(message);
  }

  private async open(): Promise<void> {
    const socket = await this.o.connect();
    this.socket = socket;
    this.attached.clear();
    this.fifo.length = 0;
    this.pending = undefined;
    this.expectingClose = false;
    socket.onMessage((m) => this.onMessage(m));
    void socket.closed.then((c) => {
      if (this.socket === socket && !this.expectingClose)
        this.stats.violations.push(
          `${this.o.name}: the socket closed unexpectedly (${c.code} ${c.reason}${socket.lastError ? `; ${socket.lastError}` : ''}) ` +
            `after ${this.recent.join(' | ')}`,
        );
      for (const w of [...this.waiters]) w();
    });
    await this.joinHome();
  }

  private async joinHome(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const answer = await this.request({ type: 'join_table', table_id: this.o.home, spectate: true });
      if (answer.type === 'table_state') return;
      // A table still coming up at its worker answers unavailable: retry.
      if (answer.code !== ErrorCode.UNAVAILABLE || attempt >= 5)
        this.fail(`could not spectate ${this.o.home}: ${JSON.stringify(answer)}`);
    }
  }

  private async sendOne(frame: FuzzFrame): Promise<void> {
    const socket = this.socket!;
    const exp = expectationOf(frame, this.attached, this.o.limits);
    this.recent.push(`${snippet(frame).slice(0, 100)} => ${exp.kind}`);
    if (this.recent.length > 4) this.recent.shift();
    this.stats.frames++;
    bump(this.stats.byLabel, frame.label);
    switch (exp.kind) {
      case 'close': {
        await this.until(() => this.fifo.length === 0, 'the answers before a closing frame');
        this.expectingClose = true;
        socket.sendBytes(frame.bytes, frame.binary);
        const closed = await withTimeout(socket.closed, this.o.answerTimeoutMs ?? 30_000, () =>
          this.fatal(`no close after ${snippet(frame)}`),
        );
        bump(this.stats.closes, closed.code);
        if (closed.code !== exp.code) this.fail(`closed with ${closed.code}, expected ${exp.code}: ${snippet(frame)}`);
        this.stats.reconnects++;
        await this.open();
        return;
      }
      case 'sync':
        this.fifo.push({ answer: exp.answer, frame });
        socket.sendBytes(frame.bytes, frame.binary);
        if (this.fifo.length >= (this.o.window ?? 32)) {
          await this.until(() => this.fifo.length < (this.o.window ?? 32) / 2, 'answers in flight');
        }
        return;
      case 'silent':
        socket.sendBytes(frame.bytes, frame.binary);
        this.attached.delete(exp.tableId);
        if (!this.attached.has(this.o.home)) await this.joinHome();
        return;
      case 'async':
        // A refused join leaves the socket where it was (the gateway drops the attachment it made).
        await this.request(exp.frame);
        return;
    }
  }

  /** Sends a worker-bound frame with a fresh command_id and waits for its answer. */
  private async request(
    frame: Exclude<ClientFrame, { type: 'ping' | 'lobby_subscribe' | 'lobby_unsubscribe' }>,
  ): Promise<ServerMsg> {
    const commandId = `fz-${this.o.name}-${++this.nextCommand}`;
    this.issued.add(commandId);
    const pending: Pending = { commandId, frame, answer: undefined };
    this.pending = pending;
    const sent = performance.now();
    this.socket!.send({ ...frame, command_id: commandId });
    await this.until(() => pending.answer !== undefined, `the answer to ${JSON.stringify(frame).slice(0, 200)}`);
    this.stats.workerAnswerMs.push(performance.now() - sent);
    this.pending = undefined;
    const answer = pending.answer!;
    if (frame.type === 'join_table' && answer.type === 'table_state') this.attached.add(frame.table_id);
    return answer;
  }

  private until(check: () => boolean, what: string): Promise<void> {
    if (check()) return Promise.resolve();
    const socket = this.socket;
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(tick);
      };
      const tick = (): void => {
        if (check()) {
          done();
          resolve();
        } else if (socket?.closeInfo && !this.expectingClose) {
          done();
          reject(new FuzzViolation(`${this.o.name}: socket closed while waiting for ${what}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        const head = this.fifo[0];
        reject(
          this.fatal(
            `timed out waiting for ${what}` +
              (head ? `; first unanswered: ${snippet(head.frame)} expecting ${JSON.stringify(head.answer)}` : ''),
          ),
        );
      }, this.o.answerTimeoutMs ?? 30_000);
      this.waiters.add(tick);
    });
  }

  private onMessage(m: ServerMsg): void {
    try {
      this.match(m);
    } catch (err) {
      this.stats.violations.push(err instanceof Error ? err.message : String(err));
    }
    for (const w of [...this.waiters]) w();
  }

  private match(m: ServerMsg): void {
    if (!serverMessageSchema.safeParse(m).success)
      this.violation(`a message outside the protocol: ${JSON.stringify(m).slice(0, 300)}`);
    const commandId = typeof m.command_id === 'string' ? m.command_id : undefined;
    const pending = this.pending;
    switch (m.type) {
      case 'error':
        if (m.code === ErrorCode.INTERNAL) this.violation(`an internal error: ${JSON.stringify(m)}`);
        bump(this.stats.answers, `error:${String(m.code)}`);
        if (commandId !== undefined && pending?.commandId === commandId) {
          pending.answer = m;
          return;
        }
        if (commandId !== undefined && this.issued.has(commandId)) {
          this.stats.late++;
          return;
        }
        return this.matchSync(m);
      case 'pong':
        bump(this.stats.answers, 'pong');
        return this.matchSync(m);
      case 'ack':
        bump(this.stats.answers, 'ack');
        if (commandId !== undefined && pending?.commandId === commandId) pending.answer = m;
        else if (commandId !== undefined && this.issued.has(commandId)) this.stats.late++;
        else this.violation(`an ack for no command of this socket: ${JSON.stringify(m)}`);
        return;
      case 'resync_response':
        bump(this.stats.answers, 'resync');
        if (pending?.frame.type === 'resync_request' && pending.frame.table_id === m.table_id) pending.answer = m;
        else this.stats.late++;
        return;
      case 'table_state':
        if (pending?.frame.type === 'join_table' && pending.frame.table_id === m.table_id) {
          bump(this.stats.answers, 'snapshot');
          pending.answer = m;
          return;
        }
        this.stats.streamMessages++;
        return;
      default:
        this.stats.streamMessages++;
    }
  }

  private matchSync(m: ServerMsg): void {
    const head = this.fifo.shift();
    if (!head) return this.violation(`an answer to no frame: ${JSON.stringify(m).slice(0, 300)}`);
    const want = head.answer;
    const ok =
      want.type === 'pong'
        ? m.type === 'pong' && m.nonce === want.nonce
        : m.type === 'error' && m.code === want.code && m.command_id === want.commandId;
    if (!ok)
      this.violation(`${snippet(head.frame)} expected ${JSON.stringify(want)}, got ${JSON.stringify(m).slice(0, 300)}`);
  }

  private violation(message: string): void {
    this.stats.violations.push(`${this.o.name}: ${message}`);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
