import { credentials, type ChannelCredentials, type ClientDuplexStream } from '@grpc/grpc-js';
import type { Logger } from '@felt/platform';
import { TableServiceClient, type GatewayFrame, type WorkerFrame } from '@felt/proto';

/** One server message for one connection, as the worker sent it (UTF-8 JSON). */
export interface WorkerReply {
  readonly connectionId: string;
  readonly tableSeq: number;
  readonly messageJson: string;
}

/** A refusal as the worker gave it: what the client's `error` message says. */
export interface WorkerRefusal {
  readonly kind: 'error';
  /** An @felt/protocol ErrorCode (anything else is the gateway's internal error). */
  readonly code: string;
  readonly message: string;
  readonly reason?: string;
  readonly min?: number;
  readonly max?: number;
}

/** The outcome of one request, in domain terms: proto types stop in this file and worker-frames.ts. */
export type WorkerAnswer =
  | {
      readonly kind: 'ack';
      /** The table_seq the request took effect at (for a repeated command_id, its first acceptance). */
      readonly atTableSeq: number;
      /** Server messages the request produced for the connection (snapshot, resync answer). */
      readonly replies: readonly WorkerReply[];
    }
  | WorkerRefusal
  | { readonly kind: 'not_owner'; readonly ownerId: string; readonly ownerAddr: string }
  | { readonly kind: 'unavailable'; readonly reason: string };

interface Pending {
  readonly replies: WorkerReply[];
  readonly resolve: (answer: WorkerAnswer) => void;
  readonly timer: NodeJS.Timeout;
}

export type LinkState = 'connecting' | 'open' | 'closed';

export interface WorkerLinkOptions {
  readonly workerId: string;
  readonly addr: string;
  readonly gatewayId: string;
  readonly logger: Logger;
  readonly requestTimeoutMs: number;
  /** The channel's credentials (mutual TLS); absent: plaintext. */
  readonly credentials?: ChannelCredentials;
  /** Called when a stream opens (after the worker's welcome): connections must be re-attached. */
  readonly onOpen: (link: WorkerLink) => void;
  readonly onStateChange?: () => void;
}

const utf8 = new TextDecoder();

/**
 * Stream generations are unique across every link of this process: a link re-created for the same
 * worker id (the worker restarted under its own name at a new address) must never reuse a number
 * an attachment still holds, or that attachment would look current and never be re-attached.
 */
let lastGeneration = 0;

/**
 * The gateway's one long-lived Connect stream to one worker, redialled with backoff while the
 * worker is in the ring. Requests are matched to answers by request id; a stream that dies fails its
 * pending requests as unavailable, and the worker (seeing the same stream end) marks the
 * connections that came over it disconnected.
 */
export class WorkerLink {
  readonly workerId: string;
  readonly addr: string;
  private readonly client: TableServiceClient;
  private stream: ClientDuplexStream<GatewayFrame, WorkerFrame> | undefined;
  private readonly pending = new Map<string, Pending>();
  private stateValue: LinkState = 'connecting';
  private generationValue = 0;
  private retryMs = 100;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: WorkerLinkOptions) {
    this.workerId = options.workerId;
    this.addr = options.addr;
    this.client = new TableServiceClient(options.addr, options.credentials ?? credentials.createInsecure(), {
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 5_000,
      'grpc.keepalive_permit_without_calls': 1,
      'grpc.initial_reconnect_backoff_ms': 100,
      'grpc.max_reconnect_backoff_ms': 2_000,
    });
    this.dial();
  }

  get state(): LinkState {
    return this.stateValue;
  }

  /** Changes every time a new stream opens; attachments made on an older one are void. */
  get generation(): number {
    return this.generationValue;
  }

  request(requestId: string, frame: GatewayFrame): Promise<WorkerAnswer> {
    if (this.closed || !this.stream) return Promise.resolve({ kind: 'unavailable', reason: 'link closed' });
    return new Promise<WorkerAnswer>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        resolve({ kind: 'unavailable', reason: 'timeout' });
      }, this.options.requestTimeoutMs);
      this.pending.set(requestId, { replies: [], resolve, timer });
      this.stream!.write(frame);
    });
  }

  /** Sends without waiting for the answer (detach on socket close). */
  send(frame: GatewayFrame): void {
    if (!this.closed && this.stream && this.stateValue === 'open') this.stream.write(frame);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const stream = this.stream;
    this.stream = undefined;
    this.failPending('link closed');
    this.setState('closed');
    stream?.end();
    stream?.cancel();
    this.client.close();
  }

  private setState(state: LinkState): void {
    if (this.stateValue === state) return;
    this.stateValue = state;
    this.options.onStateChange?.();
  }

  private dial(): void {
    if (this.closed) return;
    this.setState('connecting');
    const stream = this.client.connect();
    this.stream = stream;
    stream.on('data', (frame: WorkerFrame) => this.onFrame(stream, frame));
    let ended = false;
    const onEnd = (why: string, err?: Error) => {
      if (ended) return;
      ended = true;
      if (this.stream !== stream) return;
      this.stream = undefined;
      this.failPending(why);
      if (this.closed) return;
      this.options.logger.warn(
        { event: 'worker_stream_down', workerId: this.workerId, addr: this.addr, why, err: err?.message },
        'worker stream down',
      );
      this.setState('connecting');
      this.retryTimer = setTimeout(() => this.dial(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 2_000);
    };
    stream.on('error', (err: Error) => onEnd('error', err));
    stream.on('end', () => onEnd('end'));
    stream.on('close', () => onEnd('close'));
    stream.write({ frame: { $case: 'hello', hello: { gatewayId: this.options.gatewayId } } });
  }

  private onFrame(stream: ClientDuplexStream<GatewayFrame, WorkerFrame>, frame: WorkerFrame): void {
    const f = frame.frame;
    switch (f?.$case) {
      case 'welcome':
        if (this.stream !== stream) return;
        this.retryMs = 100;
        this.generationValue = ++lastGeneration;
        this.setState('open');
        this.options.logger.info(
          { event: 'worker_stream_open', workerId: this.workerId, addr: this.addr },
          'worker stream open',
        );
        this.options.onOpen(this);
        return;
      case 'reply': {
        const r = f.reply;
        this.pending.get(r.requestId)?.replies.push({
          connectionId: r.connectionId,
          tableSeq: r.tableSeq,
          messageJson: utf8.decode(r.messageJson),
        });
        return;
      }
      case 'ack':
        return this.settle(f.ack.requestId, (p) => ({ kind: 'ack', atTableSeq: f.ack.atTableSeq, replies: p.replies }));
      case 'error': {
        const e = f.error;
        return this.settle(e.requestId, () => ({
          kind: 'error',
          code: e.code,
          message: e.message,
          ...(e.reason !== undefined ? { reason: e.reason } : {}),
          ...(e.min !== undefined ? { min: e.min } : {}),
          ...(e.max !== undefined ? { max: e.max } : {}),
        }));
      }
      case 'notOwner':
        return this.settle(f.notOwner.requestId, () => ({
          kind: 'not_owner',
          ownerId: f.notOwner.ownerWorkerId,
          ownerAddr: f.notOwner.ownerAddr,
        }));
      default:
        return;
    }
  }

  private settle(requestId: string, answer: (p: Pending) => WorkerAnswer): void {
    const p = this.pending.get(requestId);
    if (!p) return;
    this.pending.delete(requestId);
    clearTimeout(p.timer);
    p.resolve(answer(p));
  }

  private failPending(reason: string): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.resolve({ kind: 'unavailable', reason });
      this.pending.delete(id);
    }
  }
}
