import { randomBytes } from 'node:crypto';
import type { Envelope } from '@felt/platform';

export type AttachmentState = 'attaching' | 'attached';

export interface Attachment {
  state: AttachmentState;
  /** The worker that answered the last attach, and the stream generation it answered on. */
  workerId: string | undefined;
  linkGeneration: number;
  /** Joined as a spectator (re-attachments join the same way). */
  spectate: boolean;
}

/** What the gateway knows about one client socket. */
export interface ClientConnection {
  /**
   * The connection's id at the workers, unique across gateways and restarts (workers keep it in
   * table checkpoints). '' until the socket first joins a table ({@link ensureConnectionId}): an
   * idle socket does not pay for one.
   */
  id: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly name: string;
  /**
   * The tables the socket is at. Most sockets are at none: those share {@link NO_TABLES} (an empty
   * Map costs a few hundred bytes) until their first join, and go back to it when they leave the last.
   */
  tables: Map<string, Attachment>;
}

/** Gives the connection its id before the workers first hear of it: 128 random bits, a flat hex string. */
export function ensureConnectionId(conn: ClientConnection): string {
  if (conn.id === '') conn.id = randomBytes(16).toString('hex');
  return conn.id;
}

/** An empty table map that refuses entries: give the connection its own Map before its first table. */
class NoTables extends Map<string, Attachment> {
  override set(): this {
    throw new Error('NO_TABLES is shared: give the connection its own Map first');
  }
}

/** The shared, empty `tables` of every connection at no table. */
export const NO_TABLES: Map<string, Attachment> = new NoTables();

export type Channel =
  | { readonly kind: 'table'; readonly tableId: string }
  | { readonly kind: 'user'; readonly tableId: string; readonly userId: string };

/**
 * Which connections sit at which table, for delivering pub/sub envelopes. A connection counts from
 * the moment it asks to join (attaching), so that an event published between the worker's snapshot
 * and the attach ack is not lost; the client orders them by table_seq.
 */
export class ConnectionIndex {
  private readonly byTable = new Map<string, Set<ClientConnection>>();

  add(conn: ClientConnection, tableId: string): void {
    let set = this.byTable.get(tableId);
    if (!set) {
      set = new Set();
      this.byTable.set(tableId, set);
    }
    set.add(conn);
  }

  remove(conn: ClientConnection, tableId: string): void {
    const set = this.byTable.get(tableId);
    if (!set) return;
    set.delete(conn);
    if (set.size === 0) this.byTable.delete(tableId);
  }

  at(tableId: string): ReadonlySet<ClientConnection> {
    return this.byTable.get(tableId) ?? EMPTY;
  }

  tableIds(): string[] {
    return [...this.byTable.keys()];
  }

  /**
   * The envelope rules of docs/dev/contracts.md: a table-channel message goes to every connection
   * at that table whose user is not in `except` (those users got a personal copy); a user-channel
   * message goes only to that user's connections at that table.
   */
  recipients(channel: Channel, envelope: Envelope): ClientConnection[] {
    if (envelope.table_id !== channel.tableId) return [];
    const conns = this.at(envelope.table_id);
    const out: ClientConnection[] = [];
    if (channel.kind === 'table') {
      const except = new Set(envelope.except ?? []);
      for (const c of conns) if (!except.has(c.userId)) out.push(c);
    } else {
      for (const c of conns) if (c.userId === channel.userId) out.push(c);
    }
    return out;
  }
}

const EMPTY: ReadonlySet<ClientConnection> = new Set();
