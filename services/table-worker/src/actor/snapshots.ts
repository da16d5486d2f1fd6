import type { Publication } from '../ports.js';
import type { LiveTable } from '../table/live-table.js';
import { recipientStreams, type Recipients } from '../table/stream-book.js';
import { finishSnapshotText, TableViews, type PreparedView } from '../table/views.js';
import { audienceOf } from './fan-out.js';

/**
 * Snapshot de-duplication: a batch ends, on each recipient's stream, with that recipient's
 * snapshot when the stream carried events in it (`touched`), when the snapshot is forced (an
 * attaching viewer must see a table_seq above anything it held), or when what the recipient sees
 * changed since its stream's last snapshot; otherwise no snapshot is sent. The snapshots of one
 * batch share one table_seq, taken after its events.
 */
export function snapshotPublications(
  live: LiveTable,
  recipients: Recipients,
  touched: ReadonlySet<string>,
  forced: string | undefined,
  now: number,
): Publication[] {
  const due: { key: string; view: PreparedView }[] = [];
  const views = new TableViews(live, now);
  for (const [key, viewer] of recipientStreams(recipients)) {
    const view = views.prepare(viewer);
    if (touched.has(key) || key === forced || live.streams.open(key).snapshotKey !== view.key) {
      due.push({ key, view });
    }
  }
  if (due.length === 0) return [];
  const tableSeq = live.nextTableSeq();
  return due.map((d) => {
    const prev = live.streams.snapshotSent(d.key, tableSeq, d.view.key);
    const { message, text } = finishSnapshotText(d.view, tableSeq, prev);
    return { audience: audienceOf(d.key, recipients.users), message, text };
  });
}
