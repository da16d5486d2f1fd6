import { describe, expect, it } from 'vitest';
import type { TableEvent } from '@felt/protocol';
import type { BufferedEvent } from '../table/event-buffer.js';
import { StreamBook } from '../table/stream-book.js';
import { audienceOf, fanOut } from './fan-out.js';

const TABLE_ID = 't1';

function closed(tableSeq: number, audience: BufferedEvent['audience'] = { kind: 'all' }): BufferedEvent {
  const message: TableEvent = { type: 'table_closed', table_id: TABLE_ID, table_seq: tableSeq };
  return { tableSeq, audience, message };
}

const positions = (lasts: Record<string, number>) => ({ lastOf: (key: string) => lasts[key] ?? 0 });

describe('fanOut', () => {
  it('sends an event for everyone to each member’s stream and once to the spectators, in order', () => {
    const { publications, lastByStream } = fanOut(positions({}), [closed(5), closed(6)], {
      users: ['ann', 'bob'],
      spectators: true,
    });
    expect(publications.map((p) => [p.audience, p.message.table_seq])).toEqual([
      [{ kind: 'user', userId: 'ann' }, 5],
      [{ kind: 'user', userId: 'bob' }, 5],
      [{ kind: 'table', except: ['ann', 'bob'] }, 5],
      [{ kind: 'user', userId: 'ann' }, 6],
      [{ kind: 'user', userId: 'bob' }, 6],
      [{ kind: 'table', except: ['ann', 'bob'] }, 6],
    ]);
    expect([...lastByStream]).toEqual([
      ['user:ann', 6],
      ['user:bob', 6],
      ['table', 6],
    ]);
  });

  it('chains prev_table_seq per stream: from where each stream stood, then within the batch', () => {
    const { publications } = fanOut(
      positions({ 'user:ann': 3, table: 1 }),
      [closed(4), closed(5, { kind: 'user', userId: 'ann' }), closed(6)],
      { users: ['ann', 'bob'], spectators: true },
    );
    const prev = (audience: string) =>
      publications
        .filter((p) => (p.audience.kind === 'user' ? p.audience.userId : 'spectators') === audience)
        .map((p) => [p.message.table_seq, 'prev_table_seq' in p.message ? p.message.prev_table_seq : undefined]);
    expect(prev('ann')).toEqual([
      [4, 3],
      [5, 4],
      [6, 5],
    ]);
    // A stream that never carried anything starts its chain at 0.
    expect(prev('bob')).toEqual([
      [4, 0],
      [6, 4],
    ]);
    expect(prev('spectators')).toEqual([
      [4, 1],
      [6, 4],
    ]);
  });

  it('sends a private event only to its member, and nowhere when that member is not connected', () => {
    const { publications, lastByStream } = fanOut(
      positions({}),
      [closed(7, { kind: 'user', userId: 'bob' }), closed(8, { kind: 'user', userId: 'cat' })],
      { users: ['ann', 'bob'], spectators: true },
    );
    expect(publications).toHaveLength(1);
    expect(publications[0]!.audience).toEqual({ kind: 'user', userId: 'bob' });
    expect([...lastByStream.keys()]).toEqual(['user:bob']);
  });

  it('sends nothing to a spectator stream nobody watches, and nothing at all without recipients', () => {
    expect(fanOut(positions({}), [closed(1)], { users: ['ann'], spectators: false }).publications).toHaveLength(1);
    const none = fanOut(positions({}), [closed(1)], { users: [], spectators: false });
    expect(none.publications).toEqual([]);
    expect(none.lastByStream.size).toBe(0);
  });

  it('is pure: the stream positions and the events are read, never changed', () => {
    const book = new StreamBook({ 'user:ann': { last: 2, snapshotPrev: 1, snapshotKey: 'k' } });
    const events = [closed(3), closed(4)];
    const before = JSON.stringify({ book: book.toJSON(), events });
    const first = fanOut(book, events, { users: ['ann'], spectators: true });
    const second = fanOut(book, events, { users: ['ann'], spectators: true });
    expect(JSON.stringify({ book: book.toJSON(), events })).toBe(before);
    expect(second).toEqual(first);
    // The caller records where each stream now ends.
    book.advance(first.lastByStream);
    expect(book.lastOf('user:ann')).toBe(4);
    expect(book.lastOf('table')).toBe(4);
  });

  it('names the audience of a stream key', () => {
    expect(audienceOf('table', ['ann'])).toEqual({ kind: 'table', except: ['ann'] });
    expect(audienceOf('user:bob', ['ann'])).toEqual({ kind: 'user', userId: 'bob' });
  });
});
