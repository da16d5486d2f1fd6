import type { TableMessage } from '@felt/protocol';
import type { Audience, Publication } from '../ports.js';
import type { BufferedEvent } from '../table/event-buffer.js';
import { TABLE_STREAM, userStream, type Recipients, type StreamPositions } from '../table/stream-book.js';

/** Who receives what is sent on stream `key`: one member, or the spectators (everyone but `users`). */
export function audienceOf(key: string, users: readonly string[]): Audience {
  return key === TABLE_STREAM ? { kind: 'table', except: users } : { kind: 'user', userId: key.slice(5) };
}

export interface FanOut {
  /** Each recipient's copy of each event it may see, in table_seq order, with its stream's prev_table_seq. */
  readonly publications: Publication[];
  /** Where each stream that carried anything now ends (its last table_seq), in the order they were first reached. */
  readonly lastByStream: ReadonlyMap<string, number>;
}

/**
 * Fan-out: sequenced events to the streams that may carry them. An event for everyone goes to each
 * connected member's own stream and, when anyone spectates, once to the shared spectator stream; a
 * private event (hole cards, your_turn) only to its member's stream. Each copy names the table_seq
 * its stream carried before it (prev_table_seq), so a recipient notices a gap. Pure: the stream
 * positions are read, never changed; the caller records `lastByStream`.
 */
export function fanOut(streams: StreamPositions, events: readonly BufferedEvent[], recipients: Recipients): FanOut {
  const lastByStream = new Map<string, number>();
  const publications: Publication[] = [];
  const send = (key: string, message: TableMessage): void => {
    const prev = lastByStream.get(key) ?? streams.lastOf(key);
    lastByStream.set(key, message.table_seq);
    publications.push({
      audience: audienceOf(key, recipients.users),
      message: { ...message, prev_table_seq: prev },
    });
  };
  for (const e of events) {
    if (e.audience.kind === 'all') {
      for (const u of recipients.users) send(userStream(u), e.message);
      if (recipients.spectators) send(TABLE_STREAM, e.message);
    } else if (recipients.users.includes(e.audience.userId)) {
      send(userStream(e.audience.userId), e.message);
    }
  }
  return { publications, lastByStream };
}
