import type { ChannelCredentials } from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import type { Logger, RingMember, RingView } from '@felt/platform';
import type { GatewayFrame } from '@felt/proto';
import { WorkerLink, type WorkerAnswer } from './worker-link.js';

/** Before asking a worker again whose ring lagged ours: ring changes reach workers in milliseconds. */
const RETRY_SAME_WORKER_DELAY_MS = 100;

export interface RoutedAnswer {
  readonly answer: WorkerAnswer;
  /** The worker that gave the answer (undefined when none could be reached). */
  readonly workerId: string | undefined;
  readonly linkGeneration: number;
  /** Whether a NOT_OWNER made the router refresh its ring and retry. */
  readonly retried: boolean;
}

export interface WorkerRouterOptions {
  readonly ring: RingView;
  readonly gatewayId: string;
  readonly logger: Logger;
  readonly requestTimeoutMs: number;
  /** How workers are dialled (mutual TLS); absent: plaintext. */
  readonly credentials?: ChannelCredentials;
  /** A stream to `workerId` (re)opened: its attachments must be renewed. */
  readonly onLinkOpen: (workerId: string) => void;
  readonly onLinksChanged?: () => void;
}

/**
 * Sends each table's requests to ring(table id) over that worker's stream. A NOT_OWNER answer means
 * this gateway's ring is stale (or the worker's is): refresh the ring and retry once, at the owner
 * the refreshed ring names, or else at the owner the worker named.
 */
export class WorkerRouter {
  private readonly links = new Map<string, WorkerLink>();

  constructor(private readonly options: WorkerRouterOptions) {}

  /** Opens streams to every ring member and closes the ones to members that left or moved. */
  syncLinks(): void {
    const members = new Map(this.options.ring.members().map((m) => [m.id, m]));
    for (const [id, link] of this.links) {
      const m = members.get(id);
      if (!m || m.addr !== link.addr) {
        link.close();
        this.links.delete(id);
      }
    }
    for (const m of members.values()) if (!this.links.has(m.id)) this.linkFor(m);
    this.options.onLinksChanged?.();
  }

  openStreams(): number {
    let n = 0;
    for (const link of this.links.values()) if (link.state === 'open') n++;
    return n;
  }

  link(workerId: string): WorkerLink | undefined {
    return this.links.get(workerId);
  }

  async request(tableId: string, build: (requestId: string) => GatewayFrame): Promise<RoutedAnswer> {
    const ring = this.options.ring;
    const first = ring.ownerOf(tableId);
    if (!first) {
      await ring.refresh();
      const owner = ring.ownerOf(tableId);
      if (!owner)
        return {
          answer: { kind: 'unavailable', reason: 'no workers' },
          workerId: undefined,
          linkGeneration: 0,
          retried: false,
        };
      return this.send(owner, tableId, build, false);
    }
    const firstTry = await this.send(first, tableId, build, false);
    if (firstTry.answer.kind !== 'not_owner') return firstTry;

    const hint = firstTry.answer;
    await ring.refresh();
    const refreshed = ring.ownerOf(tableId);
    // Prefer the refreshed ring. If it still names the worker that refused, follow the worker's hint
    // when the hint is a live member; otherwise that worker's ring was the stale one: ask it again.
    let target: RingMember | undefined = refreshed;
    if (refreshed?.id === first.id) {
      const hinted = hint.ownerId && hint.ownerId !== first.id ? ring.member(hint.ownerId) : undefined;
      if (hinted) target = hinted;
      else await new Promise((r) => setTimeout(r, RETRY_SAME_WORKER_DELAY_MS));
    }
    this.options.logger.info(
      { event: 'not_owner', tableId, asked: first.id, hint: hint.ownerId, retryAt: target?.id },
      'NOT_OWNER: ring refreshed, retrying once',
    );
    if (!target) return { ...firstTry, answer: { kind: 'unavailable', reason: 'owner unknown' }, retried: true };
    const second = await this.send(target, tableId, build, true);
    if (second.answer.kind === 'not_owner')
      return { ...second, answer: { kind: 'unavailable', reason: 'owner moved twice' } };
    return second;
  }

  /** Fire-and-forget to the current owner (detach on socket close). */
  notify(tableId: string, workerId: string | undefined, build: (requestId: string) => GatewayFrame): void {
    const id = workerId ?? this.options.ring.ownerOf(tableId)?.id;
    if (id) this.links.get(id)?.send(build(randomUUID()));
  }

  close(): void {
    for (const link of this.links.values()) link.close();
    this.links.clear();
  }

  private async send(
    member: RingMember,
    _tableId: string,
    build: (requestId: string) => GatewayFrame,
    retried: boolean,
  ): Promise<RoutedAnswer> {
    const link = this.linkFor(member);
    const requestId = randomUUID();
    const answer = await link.request(requestId, build(requestId));
    // Read after the answer: a stream that answered is the current one (a reconnect fails pending).
    return { answer, workerId: member.id, linkGeneration: link.generation, retried };
  }

  private linkFor(member: RingMember): WorkerLink {
    const existing = this.links.get(member.id);
    if (existing && existing.addr === member.addr) return existing;
    existing?.close();
    const link = new WorkerLink({
      workerId: member.id,
      addr: member.addr,
      gatewayId: this.options.gatewayId,
      logger: this.options.logger,
      requestTimeoutMs: this.options.requestTimeoutMs,
      ...(this.options.credentials ? { credentials: this.options.credentials } : {}),
      onOpen: (l) => this.options.onLinkOpen(l.workerId),
      onStateChange: () => this.options.onLinksChanged?.(),
    });
    this.links.set(member.id, link);
    return link;
  }
}
