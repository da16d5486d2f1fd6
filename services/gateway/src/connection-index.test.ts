import type { Envelope } from '@felt/platform';
import { describe, expect, it } from 'vitest';
import { ConnectionIndex, type ClientConnection } from './connection-index.js';

function conn(id: string, userId: string): ClientConnection {
  return { id, userId, sessionId: `s-${id}`, name: userId, tables: new Map() };
}

const msg = { type: 'table_state' };

describe('envelope routing', () => {
  const index = new ConnectionIndex();
  const ann1 = conn('a1', 'ann');
  const ann2 = conn('a2', 'ann');
  const bob = conn('b1', 'bob');
  const spectator = conn('s1', 'sam');
  const elsewhere = conn('x1', 'ann');
  index.add(ann1, 'T');
  index.add(ann2, 'T');
  index.add(bob, 'T');
  index.add(spectator, 'T');
  index.add(elsewhere, 'OTHER');

  it('delivers a table-channel message to everyone at the table not in except', () => {
    const env: Envelope = { table_id: 'T', table_seq: 5, except: ['ann', 'bob'], msg };
    expect(index.recipients({ kind: 'table', tableId: 'T' }, env).map((c) => c.id)).toEqual(['s1']);
    const all: Envelope = { table_id: 'T', table_seq: 5, msg };
    expect(
      index
        .recipients({ kind: 'table', tableId: 'T' }, all)
        .map((c) => c.id)
        .sort(),
    ).toEqual(['a1', 'a2', 'b1', 's1']);
  });

  it('delivers a user-channel message to that user’s connections at that table only', () => {
    const env: Envelope = { table_id: 'T', table_seq: 5, msg };
    expect(
      index
        .recipients({ kind: 'user', tableId: 'T', userId: 'ann' }, env)
        .map((c) => c.id)
        .sort(),
    ).toEqual(['a1', 'a2']);
    expect(index.recipients({ kind: 'user', tableId: 'T', userId: 'nobody' }, env)).toEqual([]);
    // A user channel is one table's: an envelope naming another table is not delivered from it.
    expect(index.recipients({ kind: 'user', tableId: 'T', userId: 'ann' }, { ...env, table_id: 'OTHER' })).toEqual([]);
  });

  it('drops a table-channel envelope naming another table', () => {
    const env: Envelope = { table_id: 'OTHER', table_seq: 1, msg };
    expect(index.recipients({ kind: 'table', tableId: 'T' }, env)).toEqual([]);
  });

  it('forgets a table when its last connection leaves', () => {
    const i = new ConnectionIndex();
    const c = conn('c', 'u');
    i.add(c, 'T');
    i.remove(c, 'T');
    expect(i.tableIds()).toEqual([]);
    expect(i.recipients({ kind: 'user', tableId: 'T', userId: 'u' }, { table_id: 'T', table_seq: 1, msg })).toEqual([]);
  });
});
