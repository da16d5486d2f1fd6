import type { Publication } from '../ports.js';
import type { LiveTable } from '../table/live-table.js';
import { recipientStreams, type Recipients } from '../table/stream-book.js';
import { audienceOf } from './fan-out.js';

/**
 * table_heartbeat: after `everyMs` with nothing published, each connected recipient's stream is
 * told the last table_seq it carried (pub/sub is at most once: a lost last message is otherwise
 * exposed by nothing). `everyMs` 0: none.
 */
export class Heartbeats {
  private publishedAt: number;

  constructor(
    private readonly everyMs: number,
    now: number,
  ) {
    this.publishedAt = now;
  }

  /** Something was published at `now`: the next heartbeat is due everyMs after it. */
  published(now: number): void {
    this.publishedAt = now;
  }

  /** When the next heartbeat is due (nothing published since), or null: none, or nobody to hear it. */
  dueAt(live: LiveTable): number | null {
    if (this.everyMs <= 0 || live.closed || live.connections().length === 0) return null;
    return this.publishedAt + this.everyMs;
  }

  /** The heartbeats due at `now`: one per recipient stream that has carried anything. */
  due(live: LiveTable, recipients: Recipients, now: number): Publication[] {
    const at = this.dueAt(live);
    if (at === null || now < at) return [];
    const beats: Publication[] = [];
    for (const [key] of recipientStreams(recipients)) {
      const last = live.streams.lastOf(key);
      if (last === 0) continue;
      beats.push({
        audience: audienceOf(key, recipients.users),
        message: { type: 'table_heartbeat', table_id: live.tableId, table_seq: last },
      });
    }
    return beats;
  }
}
