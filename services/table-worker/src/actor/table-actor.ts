import type { Logger } from '@felt/platform';
import type { TableMessage } from '@felt/protocol';
import type { CheckpointStore, Clock, EventPublisher, Publication, TableSeed, TableSeedSource } from '../ports.js';
import { Mailbox } from './mailbox.js';
import { notJoined, notMember, tableClosed } from './table-error.js';
import { seatViews, tableStateFor, type ConnectionState, type MemberState, type TableStateData } from './table-view.js';

export type TableCommand =
  | {
      readonly kind: 'attach';
      readonly connectionId: string;
      readonly streamId: string;
      readonly userId: string;
    }
  | { readonly kind: 'detach'; readonly connectionId: string; readonly userId: string }
  /** The gateway stream carrying these connections ended (gateway died or restarted). */
  | { readonly kind: 'stream_closed'; readonly streamId: string }
  | { readonly kind: 'resync'; readonly connectionId: string; readonly userId: string }
  /** The lobby changed the room (member joined or left, room closed): reread it. */
  | { readonly kind: 'refresh' };

export type TableCommandKind = TableCommand['kind'];

export interface ConnectionReply {
  readonly connectionId: string;
  readonly message: TableMessage;
}

export interface TableOutcome {
  readonly tableSeq: number;
  readonly replies: readonly ConnectionReply[];
}

export interface TableActorDeps {
  readonly seeds: TableSeedSource;
  readonly checkpoints: CheckpointStore;
  readonly publisher: EventPublisher;
  readonly clock: Clock;
  readonly logger: Logger;
}

function membersOf(seed: TableSeed): MemberState[] {
  return seed.members.map((m) => ({ userId: m.userId, name: m.name, seat: m.seat, stack: m.stack }));
}

/**
 * One live table. Every command goes through the mailbox and follows one order:
 * validate → apply → assign table_seq → build per-recipient messages → checkpoint → publish → reply.
 * A command that fails validation changes nothing and consumes no table_seq.
 */
export class TableActor {
  private state: TableStateData;
  private readonly mailbox = new Mailbox();
  /** Last spectator seats published, to skip fan-out when a command changed nothing visible. */
  private lastPublishedSeats: string;
  private idleSince: number;

  private constructor(
    state: TableStateData,
    private readonly deps: TableActorDeps,
  ) {
    this.state = state;
    this.lastPublishedSeats = JSON.stringify(seatViews(state));
    this.idleSince = deps.clock.now();
  }

  /** Builds the actor from its room rows, continuing table_seq from the last checkpoint if any. */
  static create(tableId: string, seed: TableSeed, tableSeq: number, deps: TableActorDeps): TableActor {
    return new TableActor(
      {
        tableId,
        tableSeq,
        closed: seed.status !== 'open',
        seatCount: seed.seatCount,
        members: membersOf(seed),
        connections: [],
      },
      deps,
    );
  }

  get tableId(): string {
    return this.state.tableId;
  }

  get tableSeq(): number {
    return this.state.tableSeq;
  }

  get connectionCount(): number {
    return this.state.connections.length;
  }

  get isClosed(): boolean {
    return this.state.closed;
  }

  /** Since when the table has had no connection, or undefined while it has some. */
  idleSinceMs(): number | undefined {
    return this.state.connections.length === 0 ? this.idleSince : undefined;
  }

  get queueDepth(): number {
    return this.mailbox.depth;
  }

  /** A copy of the serializable state (for checkpoints and tests). */
  snapshot(): TableStateData {
    return structuredClone(this.state);
  }

  submit(command: TableCommand): Promise<TableOutcome> {
    return this.mailbox.post(() => this.handle(command));
  }

  /** Finishes queued commands, then refuses more. */
  async stop(): Promise<void> {
    await this.mailbox.close();
  }

  private async handle(command: TableCommand): Promise<TableOutcome> {
    const s = this.state;
    switch (command.kind) {
      case 'attach': {
        if (s.closed) throw tableClosed(s.tableId);
        let base = s;
        if (!s.members.some((m) => m.userId === command.userId)) {
          // The lobby's member_joined event may not have arrived yet: reread once before refusing.
          base = await this.reloaded(s);
          if (base.closed) throw tableClosed(s.tableId);
          if (!base.members.some((m) => m.userId === command.userId)) throw notMember(s.tableId);
        }
        const others = base.connections.filter((c) => c.connectionId !== command.connectionId);
        const conn: ConnectionState = {
          connectionId: command.connectionId,
          userId: command.userId,
          streamId: command.streamId,
        };
        return this.commit({ ...base, connections: [...others, conn] }, [command.connectionId]);
      }
      case 'detach': {
        const conn = s.connections.find((c) => c.connectionId === command.connectionId);
        // Detaching twice is not an error: the gateway may retry after a lost ack.
        if (!conn || conn.userId !== command.userId) return { tableSeq: s.tableSeq, replies: [] };
        return this.commit({ ...s, connections: s.connections.filter((c) => c !== conn) }, []);
      }
      case 'stream_closed': {
        const remaining = s.connections.filter((c) => c.streamId !== command.streamId);
        if (remaining.length === s.connections.length) return { tableSeq: s.tableSeq, replies: [] };
        return this.commit({ ...s, connections: remaining }, []);
      }
      case 'resync': {
        const conn = s.connections.find((c) => c.connectionId === command.connectionId);
        if (!conn || conn.userId !== command.userId) throw notJoined(s.tableId);
        return this.commit(s, [command.connectionId]);
      }
      case 'refresh':
        return this.commit(await this.reloaded(s), []);
    }
  }

  /** `s` with the room reread; a vanished room counts as closed. */
  private async reloaded(s: TableStateData): Promise<TableStateData> {
    const seed = await this.deps.seeds.load(s.tableId);
    return seed
      ? { ...s, closed: seed.status !== 'open', seatCount: seed.seatCount, members: membersOf(seed) }
      : { ...s, closed: true };
  }

  private async commit(next: TableStateData, replyTo: readonly string[]): Promise<TableOutcome> {
    const wasClosed = this.state.closed;
    const tableSeq = this.state.tableSeq + 1;
    const state: TableStateData = { ...next, tableSeq };
    const now = this.deps.clock.now();

    const publications: Publication[] = [];
    const seatsJson = JSON.stringify(seatViews(state));
    if (state.closed && !wasClosed) {
      publications.push({
        audience: { kind: 'table', except: [] },
        message: { type: 'table_closed', table_id: state.tableId, table_seq: tableSeq },
      });
    } else if (seatsJson !== this.lastPublishedSeats) {
      // Each connected member gets their own view; the table channel carries the spectator view
      // for everyone else.
      const personal = [...new Set(state.connections.map((c) => c.userId))].filter((u) =>
        state.members.some((m) => m.userId === u),
      );
      for (const userId of personal) {
        publications.push({ audience: { kind: 'user', userId }, message: tableStateFor(state, userId, now) });
      }
      publications.push({ audience: { kind: 'table', except: personal }, message: tableStateFor(state, null, now) });
    }

    const replies: ConnectionReply[] = replyTo.flatMap((connectionId) => {
      const conn = state.connections.find((c) => c.connectionId === connectionId);
      return conn ? [{ connectionId, message: tableStateFor(state, conn.userId, now) }] : [];
    });

    // Checkpoint before anything leaves the actor: a published table_seq must never be reissued.
    await this.deps.checkpoints.save({ version: 1, tableId: state.tableId, tableSeq, state });
    if (this.state.connections.length > 0 && state.connections.length === 0) this.idleSince = now;
    this.state = state;
    if (publications.length > 0) {
      this.lastPublishedSeats = seatsJson;
      await this.deps.publisher.publish(state.tableId, tableSeq, publications);
    }
    return { tableSeq, replies };
  }
}
