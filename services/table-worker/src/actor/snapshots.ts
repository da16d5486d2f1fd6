import type { Publication } from '../ports.js';
import type { LiveTable } from '../table/live-table.js';
import { recipientStreams, type Recipients } from '../table/stream-book.js';
import { finishSnapshotText, TableViews, type PreparedView } from '../table/views.js';
import { audienceOf } from './fan-out.js';

/** A snapshot a batch owes one recipient's stream: its place in the stream is taken, its text not built yet. */
export interface DueSnapshot {
  readonly audience: Publication['audience'];
  readonly view: PreparedView;
  readonly tableSeq: number;
  readonly prevTableSeq: number;
}

/**
 * Snapshot de-duplication: a batch ends, on each recipient's stream, with that recipient's
 * snapshot when the stream carried events in it (`touched`), when the snapshot is forced (an
 * attaching viewer must see a table_seq above anything it held), or when what the recipient sees
 * changed since its stream's last snapshot; otherwise no snapshot is sent. The snapshots of one
 * batch share one table_seq, taken after its events.
 *
 * This decides which are due and records them in the streams (so the checkpoint that follows holds
 * them); `snapshotTexts` builds what is sent, which the checkpoint does not need (TableActor builds
 * it while the checkpoint's round trip is under way).
 */
export function dueSnapshots(
  live: LiveTable,
  recipients: Recipients,
  touched: ReadonlySet<string>,
  forced: string | undefined,
  now: number,
): DueSnapshot[] {
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
  return due.map((d) => ({
    audience: audienceOf(d.key, recipients.users),
    view: d.view,
    tableSeq,
    prevTableSeq: live.streams.snapshotSent(d.key, tableSeq, d.view.key),
  }));
}

/** The due snapshots as published: each stamped with its stream fields and state_hash, and its JSON. */
export function snapshotTexts(due: readonly DueSnapshot[]): Publication[] {
  return due.map((d) => {
    const { message, text } = finishSnapshotText(d.view, d.tableSeq, d.prevTableSeq);
    return { audience: d.audience, message, text };
  });
}
