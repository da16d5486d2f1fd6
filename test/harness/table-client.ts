import { randomBytes } from 'node:crypto';
import { serverMessageSchema, stateHash, type TableState, type ValidActionsView } from '@felt/protocol';
import { TEST_ORIGIN } from './cluster.js';
import { TestSocket } from './ws-client.js';
import { pause } from './wait.js';

export type Msg = Record<string, unknown> & { type: string };

/** What an autoplaying client does at its turn: an action frame's fields, or null to let the clock run. */
export type Decide = (
  valid: ValidActionsView,
  state: TableState,
  rng: () => number,
) => { action: string; amount?: number; cards?: string[] } | null;

export interface TableClientOptions {
  readonly spectate?: boolean;
  /** Send a fresh client_seed after every seed_commit for a hand this client is dealt into. */
  readonly sendSeeds?: boolean;
  /** Play at every turn (the hero's turn_token in a snapshot), or leave the clock to act. */
  readonly decide?: Decide;
  readonly seed?: number;
}

/**
 * A protocol-level test client for one table (independent of @felt/client): it applies reference
 * 003's reducer rules (watermark, resync_response), detects lost messages with prev_table_seq and
 * resyncs, verifies every snapshot's state_hash, and can play. It records everything it receives.
 */
export class TableClient {
  readonly received: Msg[] = [];
  lastSeq = 0;
  state: TableState | null = null;
  lossesDetected = 0;
  /** What each detected loss looked like (for failure messages). */
  readonly lossLog: string[] = [];
  resyncs = 0;
  hashMismatches = 0;
  invalidMessages: string[] = [];
  readonly acks = new Map<string, Msg>();
  readonly errors: Msg[] = [];
  private resyncing = false;
  private answeredTokens = new Set<string>();
  private seeded = new Set<string>();
  readonly sentSeeds = new Map<string, string>();
  private nextCommand = 0;
  private rngState: number;
  private listeners = new Set<() => void>();

  private constructor(
    readonly socket: TestSocket,
    readonly tableId: string,
    readonly userId: string,
    private readonly options: TableClientOptions,
  ) {
    this.rngState = options.seed ?? 1;
    socket.ws.on('message', (data) => {
      const m = JSON.parse((data as Buffer).toString('utf8')) as Msg;
      this.received.push(m);
      this.onMessage(m);
      for (const l of this.listeners) l();
    });
  }

  static async join(
    wsUrl: string,
    cookie: string,
    tableId: string,
    userId: string,
    options: TableClientOptions = {},
  ): Promise<TableClient> {
    const socket = await TestSocket.connect(wsUrl, { cookie, origin: TEST_ORIGIN });
    const client = new TableClient(socket, tableId, userId, options);
    // `unavailable` means "retry shortly" (a table still starting on a busy worker).
    for (let attempt = 0; ; attempt++) {
      const seen = client.errors.length;
      client.send({ type: 'join_table', table_id: tableId, ...(options.spectate ? { spectate: true } : {}) });
      try {
        await client.until(() => client.state !== null || client.errors[seen], 20_000, 'the join snapshot');
      } catch (err) {
        client.close();
        throw err;
      }
      if (client.state !== null) return client;
      if (client.errors[seen]?.code !== 'unavailable' || attempt >= 3) break;
      await pause(500, 'the join backs off before it asks an unavailable table again');
    }
    client.close();
    throw new Error(`join_table refused: ${JSON.stringify(client.errors.at(-1))}`);
  }

  get role(): 'player' | 'spectator' {
    return this.options.spectate ? 'spectator' : 'player';
  }

  send(frame: Record<string, unknown>): void {
    this.socket.send(frame);
  }

  /** Sends a command with a fresh command_id and returns it. */
  command(frame: Record<string, unknown>): string {
    const id = `${this.userId.slice(0, 8)}-${++this.nextCommand}`;
    this.send({ ...frame, table_id: this.tableId, command_id: id });
    return id;
  }

  /**
   * A barrier: the table answers a resync request only after every command it received before it, so
   * its answer names the latest table_seq (`to_table_seq`) and replays every event after this client's
   * watermark, in flight or not. Resolves with the answer, installed like any resync. Absence checks
   * ("nothing more was broadcast") go after it, never after a sleep.
   */
  async barrier(timeoutMs = 10_000): Promise<Msg> {
    const from = this.lastSeq;
    const seen = this.received.filter((m) => m.type === 'resync_response').length;
    this.send({ type: 'resync_request', table_id: this.tableId, from_table_seq: from });
    return this.until(
      () => this.received.filter((m) => m.type === 'resync_response')[seen],
      timeoutMs,
      'the barrier’s resync_response',
    );
  }

  /** Every event of this table the client received, live or replayed by a resync, once per table_seq. */
  events(): Msg[] {
    const bySeq = new Map<number, Msg>();
    for (const m of this.received) {
      if (m.type === 'resync_response') {
        for (const e of m.replayed_events as Msg[]) bySeq.set(e.table_seq as number, e);
      } else if (m.table_id === this.tableId && typeof m.table_seq === 'number' && m.type !== 'table_heartbeat') {
        bySeq.set(m.table_seq, m);
      }
    }
    return [...bySeq.keys()].sort((a, b) => a - b).map((k) => bySeq.get(k)!);
  }

  /** Waits for the answer (ack or error) to a command. */
  async answer(commandId: string, timeoutMs = 10_000): Promise<Msg> {
    return this.until(
      () => this.acks.get(commandId) ?? this.errors.find((e) => e.command_id === commandId),
      timeoutMs,
      `the answer to ${commandId}`,
    );
  }

  /** Polls `check` after every message (and every 50 ms) until it returns something. */
  until<T>(check: () => T | undefined | false | null, timeoutMs: number, what: string): Promise<T> {
    const hit = check();
    if (hit !== undefined && hit !== false && hit !== null) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const tick = (): void => {
        const v = check();
        if (v !== undefined && v !== false && v !== null) {
          done();
          resolve(v);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${this.userId.slice(0, 8)})`));
      }, timeoutMs);
      const poll = setInterval(tick, 50);
      const done = (): void => {
        clearTimeout(timer);
        clearInterval(poll);
        this.listeners.delete(tick);
      };
      this.listeners.add(tick);
    });
  }

  close(): void {
    this.socket.close();
  }

  private rng(): number {
    // mulberry32: reproducible play per client seed.
    let t = (this.rngState += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  private requestResync(): void {
    if (this.resyncing) return;
    this.resyncing = true;
    this.resyncs++;
    this.send({ type: 'resync_request', table_id: this.tableId, from_table_seq: this.lastSeq });
  }

  private onMessage(m: Msg): void {
    if (!serverMessageSchema.safeParse(m).success) this.invalidMessages.push(m.type);
    switch (m.type) {
      case 'ack':
        this.acks.set(m.command_id as string, m);
        return;
      case 'error':
        this.errors.push(m);
        return;
      case 'pong':
        return;
      case 'table_heartbeat':
        // A quiet table's note of the last table_seq this stream carried: above ours, the stream's
        // last message was lost.
        if (m.table_id === this.tableId && (m.table_seq as number) > this.lastSeq) {
          this.lossesDetected++;
          this.lossLog.push(`heartbeat seq=${String(m.table_seq)} last=${this.lastSeq}`);
          this.requestResync();
        }
        return;
      case 'resync_response': {
        if (m.table_id !== this.tableId) return;
        this.resyncing = false;
        // The reply travels beside the stream: a newer snapshot may already be here.
        if ((m.to_table_seq as number) >= (this.state?.table_seq ?? 0)) this.install(m.snapshot as TableState);
        this.lastSeq = Math.max(this.lastSeq, m.to_table_seq as number);
        this.afterState();
        return;
      }
    }
    if (m.table_id !== this.tableId) return;
    const seq = m.table_seq as number;
    if (seq <= this.lastSeq) return;
    const prev = m.prev_table_seq as number | undefined;
    // A loss is measured from a point the client was in sync at: before its first snapshot (the join
    // answer races the stream it subscribed to, and may come second) there is none yet.
    if (prev !== undefined && prev > this.lastSeq && this.state !== null) {
      // A message of this stream never arrived.
      this.lossesDetected++;
      this.lossLog.push(`${m.type} seq=${seq} prev=${prev} last=${this.lastSeq}`);
      this.requestResync();
    }
    this.lastSeq = seq;
    if (m.type === 'table_state') {
      this.install(m as unknown as TableState);
      this.afterState();
    } else if (m.type === 'seed_commit' && this.options.sendSeeds && !this.seeded.has(m.hand_id as string)) {
      const seat = this.state?.hero?.seat;
      if (seat !== undefined && (m.seats as number[]).includes(seat)) {
        this.seeded.add(m.hand_id as string);
        const seed = randomBytes(32).toString('hex');
        this.sentSeeds.set(m.hand_id as string, seed);
        this.command({ type: 'client_seed', hand_id: m.hand_id, seed });
      }
    }
  }

  private install(s: TableState): void {
    const { state_hash, ...rest } = s;
    if (stateHash(rest) !== state_hash) {
      this.hashMismatches++;
      this.requestResync();
    }
    this.state = s;
  }

  private afterState(): void {
    const s = this.state;
    const decide = this.options.decide;
    const token = s?.hero?.turn_token;
    const valid = s?.hero?.valid_actions;
    if (!s || !decide || !token || !valid || this.answeredTokens.has(token)) return;
    this.answeredTokens.add(token);
    const choice = decide(valid, s, () => this.rng());
    if (choice === null) return;
    this.command({ type: 'action', hand_id: s.hand_id, turn_token: token, ...choice });
  }
}

/**
 * A legal random choice that keeps stacks alive: small bets and raises (the minimum, or a fixed
 * limit's choice), calls of modest size, folds to big bets, random discards.
 */
export const randomPlay: Decide = (v, s, rng) => {
  const r = rng();
  if (v.discard !== null) {
    const cards = (s.hero?.cards ?? []).filter(() => rng() < 0.4).slice(0, v.discard.max);
    return { action: 'discard', cards };
  }
  if (v.bring_in !== null) {
    if (v.complete && r < 0.3) return { action: 'complete', amount: v.complete.choices?.[0] ?? v.complete.min };
    return { action: 'bring_in' };
  }
  const smallest = (range: { min: number; choices?: number[] | undefined }): number => range.choices?.[0] ?? range.min;
  if (v.bet && r < 0.3 && smallest(v.bet) <= v.stack / 4) return { action: 'bet', amount: smallest(v.bet) };
  if (v.raise && r < 0.1 && smallest(v.raise) - v.player_bet <= v.stack / 6) {
    return { action: 'raise', amount: smallest(v.raise) };
  }
  if (v.check) return { action: 'check' };
  if (v.call !== null && (v.call <= v.stack / 8 || r < 0.2)) return { action: 'call' };
  return v.fold ? { action: 'fold' } : { action: 'call' };
};

/** Checks when free, folds to any bet: keeps a stack alive for long sweeps. */
export const passivePlay: Decide = (v) => {
  if (v.discard !== null) return { action: 'discard', cards: [] };
  if (v.bring_in !== null) return { action: 'bring_in' };
  if (v.check) return { action: 'check' };
  if (v.call !== null && v.call <= v.pot / 4) return { action: 'call' };
  return v.fold ? { action: 'fold' } : { action: 'call' };
};
