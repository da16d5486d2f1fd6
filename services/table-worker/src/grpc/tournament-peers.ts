import { credentials as grpcCredentials, Metadata, type ChannelCredentials } from '@grpc/grpc-js';
import { injectTraceContext, type Logger, type RingMember, type RingView } from '@felt/platform';
import { TableServiceClient, type TournamentResponse } from '@felt/proto';
import {
  tournamentMessageTarget,
  tournamentOrderResultSchema,
  type TournamentMessage,
  type TournamentOrderResult,
} from '../tournament/contracts.js';
import { PeerRefusedError, PeerUnavailableError, type TournamentPeerLink } from '../tournament/ports.js';

export interface TournamentPeersOptions {
  /** The ring (read lazily: the worker builds its ring view after its tables). */
  readonly ring: Pick<RingView, 'ownerOf' | 'member' | 'refresh'>;
  readonly logger: Logger;
  /** How workers are dialled (mutual TLS with the worker's own certificate); absent: plaintext. */
  readonly credentials?: ChannelCredentials;
  /** The deadline of one call. */
  readonly timeoutMs: number;
}

const utf8 = new TextDecoder();

/**
 * Sends a tournament message to the worker that owns its target by the ring (this one included),
 * over the `Tournament` RPC: a director's orders to its tables, a table's reports to its director.
 * A NotOwner answer refreshes the ring and tries once more at the owner it names. The caller retries
 * a PeerUnavailableError later; a PeerRefusedError changed nothing and will not change by itself.
 */
export class TournamentPeers implements TournamentPeerLink {
  private readonly clients = new Map<string, { addr: string; client: TableServiceClient }>();

  constructor(private readonly options: TournamentPeersOptions) {}

  async send(message: TournamentMessage): Promise<TournamentOrderResult> {
    const target = tournamentMessageTarget(message);
    const ring = this.options.ring;
    let owner = ring.ownerOf(target);
    if (owner === undefined) {
      await ring.refresh();
      owner = ring.ownerOf(target);
    }
    if (owner === undefined) throw new PeerUnavailableError(target, 'no workers in the ring');
    const first = await this.call(owner, target, message);
    if (first.result?.$case !== 'notOwner') return this.answer(target, first);
    await ring.refresh();
    const hinted = first.result.notOwner.ownerWorkerId;
    const next = ring.ownerOf(target) ?? (hinted ? ring.member(hinted) : undefined);
    if (next === undefined) throw new PeerUnavailableError(target, 'its owner is unknown');
    const second = await this.call(next, target, message);
    if (second.result?.$case === 'notOwner') throw new PeerUnavailableError(target, 'its owner moved twice');
    return this.answer(target, second);
  }

  close(): void {
    for (const { client } of this.clients.values()) client.close();
    this.clients.clear();
  }

  private answer(target: string, response: TournamentResponse): TournamentOrderResult {
    const result = response.result;
    if (result?.$case === 'done') {
      return tournamentOrderResultSchema.parse(JSON.parse(utf8.decode(result.done.resultJson)));
    }
    if (result?.$case === 'error') {
      if (result.error.code === 'unavailable') throw new PeerUnavailableError(target, result.error.message);
      throw new PeerRefusedError(target, result.error.code, result.error.message);
    }
    throw new PeerUnavailableError(target, 'an empty answer');
  }

  private call(member: RingMember, target: string, message: TournamentMessage): Promise<TournamentResponse> {
    const client = this.clientFor(member);
    const request = {
      targetId: target,
      payloadJson: Buffer.from(JSON.stringify(message)),
      traceContext: injectTraceContext(),
    };
    return new Promise((resolve, reject) => {
      client.tournament(request, new Metadata(), { deadline: Date.now() + this.options.timeoutMs }, (err, response) => {
        if (err !== null) reject(new PeerUnavailableError(target, `${member.id}: ${err.message}`, { cause: err }));
        else resolve(response);
      });
    });
  }

  private clientFor(member: RingMember): TableServiceClient {
    const known = this.clients.get(member.id);
    if (known !== undefined && known.addr === member.addr) return known.client;
    known?.client.close();
    const client = new TableServiceClient(member.addr, this.options.credentials ?? grpcCredentials.createInsecure(), {
      'grpc.initial_reconnect_backoff_ms': 100,
      'grpc.max_reconnect_backoff_ms': 2_000,
    });
    this.clients.set(member.id, { addr: member.addr, client });
    return client;
  }
}
