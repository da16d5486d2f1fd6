/** The one stream all spectators share (the table channel). */
export const TABLE_STREAM = 'table';

/** A member's own stream (their user channel). */
export const userStream = (userId: string): string => `user:${userId}`;

/** Who hears the table now: connected members (each on their own stream) and any spectator. */
export interface Recipients {
  readonly users: readonly string[];
  readonly spectators: boolean;
}

/** Each recipient's stream key and who it is for (a member's id, or null for the spectators). */
export function recipientStreams(recipients: Recipients): [string, string | null][] {
  const streams: [string, string | null][] = recipients.users.map((u) => [userStream(u), u]);
  if (recipients.spectators) streams.push([TABLE_STREAM, null]);
  return streams;
}

/** The actor's record of each recipient stream: what its prev_table_seq chain and last snapshot were. */
export interface StreamState {
  last: number;
  snapshotPrev: number | null;
  snapshotKey: string | null;
}

/** Where each stream's prev_table_seq chain stands (0: it has carried nothing). */
export interface StreamPositions {
  lastOf(key: string): number;
}

/**
 * Every recipient stream the table has sent to, checkpointed with it, so that a stream's
 * prev_table_seq chain and its snapshot de-duplication continue across owners.
 */
export class StreamBook implements StreamPositions {
  private readonly streams: Map<string, StreamState>;

  constructor(json: Readonly<Record<string, StreamState>> = {}) {
    this.streams = new Map(Object.entries(json).map(([k, v]) => [k, { ...v }]));
  }

  lastOf(key: string): number {
    return this.streams.get(key)?.last ?? 0;
  }

  /** The table_seq the stream's last snapshot followed (its prev_table_seq), if it had one. */
  snapshotPrevOf(key: string): number | null {
    return this.streams.get(key)?.snapshotPrev ?? null;
  }

  /** The stream's record, opened (nothing carried yet) if it is new. */
  open(key: string): Readonly<StreamState> {
    return this.entry(key);
  }

  /** Events went out: each stream's chain now ends at the table_seq given (in the order given). */
  advance(lastByStream: ReadonlyMap<string, number>): void {
    for (const [key, last] of lastByStream) this.entry(key).last = last;
  }

  /** A snapshot went out on the stream at `tableSeq`; returns the table_seq it followed. */
  snapshotSent(key: string, tableSeq: number, snapshotKey: string): number {
    const s = this.entry(key);
    const prev = s.last;
    s.snapshotPrev = prev;
    s.snapshotKey = snapshotKey;
    s.last = tableSeq;
    return prev;
  }

  private entry(key: string): StreamState {
    let s = this.streams.get(key);
    if (!s) {
      s = { last: 0, snapshotPrev: null, snapshotKey: null };
      this.streams.set(key, s);
    }
    return s;
  }

  toJSON(): Record<string, StreamState> {
    return Object.fromEntries(this.streams);
  }
}
