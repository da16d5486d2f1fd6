// The recorded-traffic fixture format (packages/client/README.md, "Recorded traffic") and the cut of a
// live recording into one.
import { writeFileSync } from 'node:fs';
import type { BettingLimit, GameType } from '@felt/protocol';

export const TRAFFIC_FORMAT = 'felt-traffic/1';

export interface RecordedRecipient {
  readonly name: string;
  readonly role: 'player' | 'spectator';
  /** The recipient's seat (from the lobby), null for a spectator. */
  readonly seat: number | null;
  /** Every server frame for the table, exactly as received, in arrival order. */
  readonly messages: readonly Record<string, unknown>[];
}

export interface TrafficFixture {
  readonly format: typeof TRAFFIC_FORMAT;
  readonly description: string;
  readonly game: GameType;
  readonly limit: BettingLimit | null;
  /** Hands fully recorded (seed_commit to seed_reveal) by every recipient. */
  readonly hands: number;
  readonly recipients: readonly RecordedRecipient[];
}

type Msg = Record<string, unknown>;

/**
 * The messages of `recorded` up to and including the `table_state` that follows the seed_reveal of
 * hand `handIds[last]`; null while that point has not been reached.
 */
export function cutAfterHands(recorded: readonly unknown[], handIds: readonly string[]): Msg[] | null {
  const last = handIds.at(-1);
  if (last === undefined) return null;
  const messages = recorded as Msg[];
  const reveal = messages.findIndex((m) => m.type === 'seed_reveal' && m.hand_id === last);
  if (reveal < 0) return null;
  const end = messages.findIndex((m, i) => i > reveal && m.type === 'table_state');
  return end < 0 ? null : messages.slice(0, end + 1);
}

/** One message per line, so a regenerated fixture diffs readably. */
export function writeFixture(path: string, fixture: TrafficFixture): void {
  const lines: string[] = ['{'];
  const { recipients: _recipients, ...head } = fixture;
  for (const [k, v] of Object.entries(head)) lines.push(`  ${JSON.stringify(k)}: ${JSON.stringify(v)},`);
  lines.push('  "recipients": [');
  fixture.recipients.forEach((r, i) => {
    lines.push('    {');
    lines.push(`      "name": ${JSON.stringify(r.name)},`);
    lines.push(`      "role": ${JSON.stringify(r.role)},`);
    lines.push(`      "seat": ${JSON.stringify(r.seat)},`);
    lines.push('      "messages": [');
    r.messages.forEach((m, j) => lines.push(`        ${JSON.stringify(m)}${j < r.messages.length - 1 ? ',' : ''}`));
    lines.push('      ]');
    lines.push(`    }${i < fixture.recipients.length - 1 ? ',' : ''}`);
  });
  lines.push('  ]');
  lines.push('}');
  writeFileSync(path, lines.join('\n') + '\n');
}
