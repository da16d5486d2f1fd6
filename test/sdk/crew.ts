// A table's worth of SDK clients against a real cluster: bot players and spectators signed up through
// the lobby, connected over real WebSockets with @felt/client, every message recorded and audited.
// Used by test/sdk-*.test.ts and scripts/demo.ts.
import {
  FeltClient,
  LobbyApiError,
  LobbyClient,
  PrivacyAuditor,
  TableBot,
  settlePrivacyAudits,
  headerWebSocketFactory,
  type FeltClientOptions,
  type HandFairness,
  type TableSession,
  type WebSocketFactory,
} from '@felt/client';
import type { BettingLimit, ErrorMessage, GameType, RoomConfigInput } from '@felt/protocol';
import WebSocket from 'ws';
import { pause } from '../harness/wait.js';

/** A small seeded PRNG (mulberry32), so a run's bot decisions reproduce from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Role = 'player' | 'spectator';

function rotate<T>(xs: readonly T[], by: number): T[] {
  const k = xs.length === 0 ? 0 : by % xs.length;
  return [...xs.slice(k), ...xs.slice(0, k)];
}

/** One recipient: a lobby account, its SDK client and session, a bot (players) and an auditor. */
export interface Member {
  readonly name: string;
  readonly role: Role;
  /** The seat the lobby gave this player; null for a spectator. */
  readonly seat: number | null;
  readonly lobby: LobbyClient;
  readonly client: FeltClient;
  readonly session: TableSession;
  bot: TableBot | null;
  readonly auditor: PrivacyAuditor;
  /** Every frame this recipient received for the table, as received (when recording). */
  readonly recorded: unknown[];
  /** Problems that are not the server refusing a bot's move: invalid frames, unexpected errors. */
  readonly problems: string[];
  readonly fairness: HandFairness[];
  /** Still seated and playing (false once it left during churn). */
  active: boolean;
}

export interface CrewOptions {
  readonly lobbyUrl: string;
  /** Defaults to the lobby's `GET /api/config`. */
  readonly gatewayUrls?: readonly string[];
  readonly game: GameType;
  readonly limit?: BettingLimit;
  readonly players: number;
  readonly spectators: number;
  /** Room seats; defaults to `players` (more leaves room for churn joins). */
  readonly seats?: number;
  /** Unique per run: user names are `${namePrefix}-${i}`. At most 18 characters. */
  readonly namePrefix: string;
  readonly seed: number;
  readonly record?: boolean;
  readonly config?: RoomConfigInput;
  readonly client?: Partial<FeltClientOptions>;
  /** A member's own socket factory (e.g. one that tampers with frames); default: `ws` with the cookie. */
  readonly socketFactoryFor?: (name: string, cookie: string) => WebSocketFactory | undefined;
  /** Called for each line worth showing an operator. */
  readonly log?: (line: string) => void;
}

const PASSWORD = 'demo-bot-password';

/** Error codes that are the normal outcome of a race, not a fault (e.g. a seed after the window closed). */
const EXPECTED_REFUSALS = new Set(['seed_refused', 'cannot_show']);

/**
 * One table played by SDK bots. `TableCrew.create` signs everyone up, creates the room (the first
 * player is the host), seats the players and connects everyone; `stop()` leaves and closes the room.
 */
export class TableCrew {
  readonly members: Member[] = [];
  readonly handsCompleted = new Set<string>();
  private readonly handListeners = new Set<() => void>();
  private nextIndex = 0;
  private stopped = false;

  private constructor(
    readonly options: CrewOptions,
    readonly tableId: string,
    readonly code: string,
    readonly buyIn: { readonly min: number; readonly max: number },
    readonly gatewayUrls: readonly string[],
    private readonly host: LobbyClient,
  ) {}

  static async create(options: CrewOptions): Promise<TableCrew> {
    const host = new LobbyClient({ baseUrl: options.lobbyUrl });
    const hostName = `${options.namePrefix}-0`;
    await host.signup(hostName, PASSWORD);
    const gatewayUrls = options.gatewayUrls ?? (await host.gatewayUrls());
    const config: RoomConfigInput = {
      game: options.game,
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      seats: options.seats ?? options.players,
      listed: false,
      ...options.config,
    };
    const created = await host.createRoom({ config });
    const crew = new TableCrew(options, created.session_id, created.code, created.room.buy_in, gatewayUrls, host);
    crew.nextIndex = 1;
    const seated = await host.joinByCode(created.code, { buy_in: created.room.buy_in.min });
    crew.members.push(crew.connect(hostName, 'player', host, seated.seat));
    for (let i = 1; i < options.players; i++) await crew.addPlayer();
    for (let i = 0; i < options.spectators; i++) await crew.addSpectator();
    return crew;
  }

  get players(): Member[] {
    return this.members.filter((m) => m.role === 'player' && m.active);
  }

  /** Signs up a new player, seats it with the minimum buy-in and connects it. */
  async addPlayer(): Promise<Member> {
    const name = `${this.options.namePrefix}-${this.nextIndex++}`;
    const lobby = new LobbyClient({ baseUrl: this.options.lobbyUrl });
    await lobby.signup(name, PASSWORD);
    const seated = await lobby.joinByCode(this.code, { buy_in: this.buyIn.min });
    const member = this.connect(name, 'player', lobby, seated.seat);
    this.members.push(member);
    return member;
  }

  async addSpectator(): Promise<Member> {
    const name = `${this.options.namePrefix}-s${this.nextIndex++}`;
    const lobby = new LobbyClient({ baseUrl: this.options.lobbyUrl });
    await lobby.signup(name, PASSWORD);
    const member = this.connect(name, 'spectator', lobby, null);
    this.members.push(member);
    return member;
  }

  /** A player gives up the seat: `leave` at the table, then the lobby's leave (cash-out). */
  async removePlayer(member: Member): Promise<void> {
    member.active = false;
    member.bot?.stop();
    if (member.bot) member.bot.holdSeat = false;
    await member.session.leave().catch(() => undefined);
    // The table's leave frees the seat and its cash-out closes the membership, maybe before the
    // lobby's leave arrives: then the lobby has no seat to free (not_seated), and the player is out.
    await member.lobby.leaveRoom(this.tableId).catch((err: unknown) => {
      if (!(err instanceof LobbyApiError && err.code === 'not_seated')) throw err;
    });
    member.session.detach();
    member.client.close();
  }

  /** The same account sits down again with a fresh buy-in: churn's rebuy when no top-up route exists. */
  async rejoin(member: Member): Promise<Member> {
    const seated = await member.lobby.joinByCode(this.code, { buy_in: this.buyIn.min });
    const again = this.connect(member.name, 'player', member.lobby, seated.seat);
    this.members.push(again);
    return again;
  }

  /**
   * Tops a seated player up through the lobby. False when the lobby has no top-up route, or declines
   * because chips already waiting for the next hand would take the stack past the maximum.
   */
  async topUp(member: Member, amount: number): Promise<boolean> {
    try {
      await member.lobby.topUp(this.tableId, amount);
      return true;
    } catch (err) {
      if (err instanceof LobbyApiError && (err.status === 404 || err.status === 405)) return false;
      if (err instanceof LobbyApiError && err.code === 'buy_in_out_of_range') return false;
      throw err;
    }
  }

  /** Resolves once `count` hands have a hand_result at this table. */
  waitHands(count: number, timeoutMs: number): Promise<void> {
    if (this.handsCompleted.size >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.handListeners.delete(check);
        reject(new Error(`table ${this.tableId}: ${this.handsCompleted.size}/${count} hands after ${timeoutMs} ms`));
      }, timeoutMs);
      const check = (): void => {
        if (this.handsCompleted.size < count) return;
        clearTimeout(timer);
        this.handListeners.delete(check);
        resolve();
      };
      this.handListeners.add(check);
    });
  }

  /**
   * For rooms created with `startHand: { autoStart: false, hostMayForceStart: true }`: the host starts
   * hands one at a time, each once the previous one has its hand_result, until `limit` were started.
   */
  async startHands(limit: number, timeoutMs: number): Promise<void> {
    const host = this.members[0]!;
    const deadline = Date.now() + timeoutMs;
    let started = 0;
    const ready = (): boolean => {
      const state = host.session.state;
      return (
        host.session.status === 'joined' &&
        this.handsCompleted.size >= started &&
        (state?.phase === 'waiting' || state?.phase === 'complete') &&
        (state?.seats.filter((s) => s.status === 'active').length ?? 0) >= 2
      );
    };
    while (started < limit) {
      await this.untilHost(ready, deadline, `table ${this.tableId}: started ${started}/${limit} hands in time`);
      const ok = await host.session.startHand().then(
        () => true,
        () => false,
      );
      if (ok) started++;
      else await pause(100, 'the table refused to start a hand: the host backs off before it asks again');
    }
  }

  /** Resolves once `check` holds, looking again at each change of the host's view, status or hands. */
  private untilHost(check: () => boolean, deadline: number, failure: string): Promise<void> {
    if (check()) return Promise.resolve();
    const session = this.members[0]!.session;
    return new Promise((resolve, reject) => {
      const look = (): void => {
        if (!check()) return;
        stop();
        resolve();
      };
      const unsubscribe = [session.on('view', look), session.on('status', look)];
      this.handListeners.add(look);
      const timer = setTimeout(
        () => {
          stop();
          reject(new Error(failure));
        },
        Math.max(0, deadline - Date.now()),
      );
      const stop = (): void => {
        clearTimeout(timer);
        for (const off of unsubscribe) off();
        this.handListeners.delete(look);
      };
    });
  }

  /** Confirms late joiners' views of shown hands against what the others saw shown (see PrivacyAuditor). */
  settlePrivacy(): number {
    return settlePrivacyAudits(this.members.map((m) => m.auditor));
  }

  /** Stops the bots (no more decisions) without leaving: the recording can settle. */
  pauseBots(): void {
    for (const m of this.members) {
      m.bot?.stop();
      if (m.bot) m.bot.holdSeat = false;
    }
  }

  /** Everyone leaves; the host closes the room; every socket closes. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.pauseBots();
    for (const m of this.members) {
      if (m.role === 'player' && m.active) {
        m.active = false;
        await m.session.leave().catch(() => undefined);
      }
    }
    await this.host.closeRoom(this.tableId).catch(() => undefined);
    for (const m of this.members) m.client.close();
  }

  /** `seat` is the seat the lobby gave (null for a spectator): the auditor judges against it, not the server's word. */
  private connect(name: string, role: Role, lobby: LobbyClient, seat: number | null): Member {
    const cookie = lobby.cookie;
    if (cookie === undefined) throw new Error(`${name} has no session cookie`);
    const client = new FeltClient({
      // Members start on different gateways, so a table's traffic crosses gateways as in production.
      gatewayUrls: rotate(this.gatewayUrls, this.members.length),
      socketFactory: this.options.socketFactoryFor?.(name, cookie) ?? headerWebSocketFactory(WebSocket, { cookie }),
      pingIntervalMs: 0,
      ...this.options.client,
    });
    const session = client.join(this.tableId, { spectate: role === 'spectator' });
    const auditor = new PrivacyAuditor(seat);
    const recorded: unknown[] = [];
    const problems: string[] = [];
    const fairness: HandFairness[] = [];
    const member: Member = {
      name,
      role,
      seat,
      lobby,
      client,
      session,
      bot:
        role === 'player'
          ? new TableBot(session, { random: seededRandom(this.options.seed * 1009 + this.nextIndex * 7919) })
          : null,
      auditor,
      recorded,
      problems,
      fairness,
      active: true,
    };
    client.on('raw', (raw) => {
      const tableId = (raw as { table_id?: unknown } | null)?.table_id;
      if (tableId !== undefined && tableId !== this.tableId) return;
      if (this.options.record) recorded.push(raw);
      auditor.observe(raw);
    });
    client.on('invalid', (i) => problems.push(`invalid message: ${i.issues}`));
    client.on('error', (e: ErrorMessage) => problems.push(`error ${e.code}: ${e.message}`));
    session.on('refused', (e) => {
      if (!EXPECTED_REFUSALS.has(e.code)) problems.push(`refused ${e.code}: ${e.message}`);
    });
    session.on('closed', (c) => {
      if (c.reason === 'join_refused') problems.push(`join refused: ${c.error?.code ?? '?'}`);
    });
    session.on('fairness', (f) => fairness.push(f));
    session.on('event', (e) => {
      if (e.type !== 'hand_result' || this.handsCompleted.has(e.hand_id)) return;
      this.handsCompleted.add(e.hand_id);
      for (const l of [...this.handListeners]) l();
    });
    client.connect();
    return member;
  }
}
