import { bytesToHex, SeededRng, type Hand, type PlayerAction, type Rng } from '@felt/engine';
import { decideBotAction } from '../bots/bot-brain.js';
import type { BotFundingRefusal } from '../money/ports.js';
import type { Seating } from './seating.js';
import type { TableContext } from './table-context.js';
import type { TimeBanks } from './time-banks.js';

/** A bot the table wants seated, waiting for its funding (@felt/db `seatBot`) before it sits. */
export interface BotRequest {
  readonly botId: string;
  readonly seat: number;
  readonly stack: number;
}

/**
 * The table's bots: room bot-fill and operator bot-only tables keep seats filled up to a target;
 * funded bots are asked for (`nextRequest`), funded by the actor and seated once funded, with a
 * back-off after a refusal; and each bot's decisions at its turn.
 */
export class BotSeats {
  /** Bots waiting to be funded and seated (not checkpointed: a funded bot is a member in the room rows). */
  private requests: BotRequest[] = [];
  /** Why the house bankroll last refused to stake a bot, until one is seated (shown in table_state). */
  private blocked: BotFundingRefusal | null = null;
  /** When a bot could not be funded, asking again waits until then. */
  private backoffUntil = 0;
  private readonly rng: Rng;

  constructor(
    private readonly ctx: TableContext,
    private readonly seating: Seating,
    private readonly banks: TimeBanks,
  ) {
    const { botSeed, random } = ctx.deps;
    const seed = botSeed !== undefined ? `${botSeed}/${ctx.tableId}` : bytesToHex(random.bytes(16));
    this.rng = new SeededRng(seed);
  }

  private get funded(): boolean {
    return this.ctx.deps.fundedBots === true;
  }

  /** The first bot waiting for its funding, if any. */
  nextRequest(): BotRequest | undefined {
    return this.requests[0];
  }

  get blockedBy(): BotFundingRefusal | null {
    return this.blocked;
  }

  /** When bots that could not be funded are asked for again, or null. */
  get retryAt(): number | null {
    return this.backoffUntil !== 0 ? this.backoffUntil : null;
  }

  /** The back-off is over: bots may be asked for again. */
  expireBackoff(now: number): void {
    if (this.backoffUntil !== 0 && now >= this.backoffUntil) this.backoffUntil = 0;
  }

  /** No more bots for this table (it is closing). */
  dropRequests(): void {
    this.requests = [];
  }

  /** Room bot-fill and operator bot-only tables: bots take empty seats up to the target. */
  fill(now: number): void {
    const { config, engine } = this.ctx;
    const seating = this.seating;
    const fill = config.botFill.mode === 'fill';
    const target = seating.botsOnly
      ? fill
        ? config.botFill.targetPlayers
        : config.seats
      : fill
        ? config.botFill.targetPlayers
        : 0;
    const seated = engine.seats().filter((s) => !seating.isLeaving(s.playerId));
    const humansSeated = seated.filter((s) => !seating.member(s.playerId)?.bot).length;
    const bots = seated.filter((s) => seating.member(s.playerId)?.bot);
    const humanMembers = seating.memberList().filter((m) => !m.bot).length;
    // Bots keep humans company; without a human (and not bot-only) they leave. Players waiting for a
    // seat come first: bots give up seats (here, at a hand boundary) until one is free for each.
    const room = Math.max(0, config.seats - Math.max(humansSeated, humanMembers) - seating.waitlisted);
    const wanted = Math.min(room, seating.botsOnly || humansSeated > 0 ? Math.max(0, target - humansSeated) : 0);
    for (const b of bots.slice(wanted).reverse()) seating.removeBot(b.playerId, now);
    let count = Math.min(bots.length, wanted);
    const reserved = new Set(
      seating
        .memberList()
        .filter((m) => !m.bot)
        .map((m) => m.seat),
    );
    // Bots asked for and not funded yet count; those no longer wanted are dropped.
    this.requests = this.requests
      .filter((r) => engine.seat(r.seat) === undefined && !reserved.has(r.seat))
      .slice(0, Math.max(0, wanted - count));
    count += this.requests.length;
    if (this.funded && now < this.backoffUntil) return;
    for (let seat = config.seats; seat >= 1 && count < wanted; seat--) {
      if (engine.seat(seat) !== undefined || reserved.has(seat)) continue;
      if (this.requests.some((r) => r.seat === seat)) continue;
      if (this.funded && seating.isHeld(seat)) continue;
      const id = this.ctx.deps.random.uuid();
      const stack = config.buyIn.max;
      count++;
      if (this.funded) {
        // Funded first (the actor calls seatBot), seated by `funded`.
        this.requests.push({ botId: id, seat, stack });
        continue;
      }
      const name = `Bot ${seat}`;
      seating.addMember({ userId: id, name, seat, stack, bot: true });
      engine.sit(seat, id, stack, { name });
      this.banks.fill(id);
    }
  }

  /**
   * The actor funded a requested bot (it is now a user with a membership and a buy-in): it joins
   * the members. Returns false when the table closed meanwhile: its buy-in went straight back.
   */
  fundedBot(request: BotRequest, membershipId: string, now: number): boolean {
    this.requests = this.requests.filter((r) => r.botId !== request.botId);
    this.blocked = null;
    this.seating.addMember({
      userId: request.botId,
      name: `Bot ${request.seat}`,
      seat: request.seat,
      stack: request.stack,
      bot: true,
      membershipId,
    });
    if (!this.ctx.lifecycle.closed) return true;
    this.seating.release(request.botId, membershipId, request.stack, 'room_close', now);
    return false;
  }

  /**
   * A bot could not be funded (the seat was taken in the room rows, Postgres down; or the house
   * bankroll refused its stake, `refusal`, which the table then shows its players): try later.
   */
  refused(request: BotRequest, now: number, retryMs = 5_000, refusal?: BotFundingRefusal): void {
    this.requests = this.requests.filter((r) => r.botId !== request.botId);
    this.backoffUntil = now + retryMs;
    if (refusal !== undefined) this.blocked = refusal;
  }

  /** After a hand: a funded bot that went broke leaves (a fresh one is funded); others buy in again. */
  replaceBroke(now: number): void {
    const { engine, config } = this.ctx;
    for (const m of [...this.seating.memberList()]) {
      if (!m.bot) continue;
      const s = engine.seats().find((x) => x.playerId === m.userId);
      if (!s || s.stack !== 0) continue;
      if (m.membershipId !== undefined) {
        // A funded bot that went broke leaves (a cash-out of nothing); a fresh one is funded.
        this.seating.removeBot(m.userId, now);
      } else {
        // Unfunded bots (no Postgres) buy in again.
        engine.addChips(s.seat, config.buyIn.max);
        engine.sitIn(s.seat);
      }
    }
  }

  /** When a bot whose turn starts now acts: after about botThinkMs (±50 %). */
  actsAt(now: number): number {
    const think = this.ctx.timing.botThinkMs;
    return now + Math.round(think / 2 + (think * (this.rng.nextUint32() % 1000)) / 1000);
  }

  /** The bot at `seat` acts (the clock acts for it if it finds nothing the rules allow). */
  decide(hand: Hand, seat: number): void {
    const valid = hand.validActions();
    let action: PlayerAction | null = null;
    if (valid !== null) {
      action = decideBotAction({ rules: hand.rules, state: hand.view(seat), seat, valid }, this.rng, this.ctx.deps.bot);
    }
    if (action === null || !hand.canAct(seat, action)) hand.applyTimeout();
    else hand.act(seat, action);
  }
}
