/*
 * The table actor alone, in this process: six players who answer every turn and send their client
 * seeds at once, through the real pipeline (commit, views, state hashes, checkpoint text, envelopes),
 * with the memory adapters in place of Redis. No gRPC, no sockets, so a change to the worker's own
 * work shows in seconds rather than in a cluster run (worker-persister-cost.bench.ts measures that).
 *
 *   npx tsx scripts/bench/actor-loop.ts [hands=300] [--sections]
 *
 * Prints the actor's CPU per completed hand, commits per hand and the mean checkpoint size;
 * `--sections` also prints the mean bytes of each top-level section of the checkpoint, sampled at
 * every save of the measured hands. To profile it: `node --cpu-prof --import tsx scripts/bench/actor-loop.ts`
 * (docs/architecture.md, "The ninth round").
 */
import type { TableMessage } from '@felt/protocol';
import { TableActor } from '../../services/table-worker/src/actor/table-actor.js';
import { MemoryCheckpointStore } from '../../services/table-worker/src/adapters/memory-checkpoint-store.js';
import type { EventPublisher, Publication } from '../../services/table-worker/src/ports.js';
import { encodePublication } from '../../services/table-worker/src/adapters/publication-envelope.js';
import { CountingRandom, FAST, harness, room, TABLE, uid } from '../../services/table-worker/test/support/fakes.js';
import { ownCpuSeconds } from './proc-cpu.js';

const hands = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 300);
const PLAYERS = 6;

/** Encodes each publication as the Redis publisher does, and hands it to the players. */
class EncodingPublisher implements EventPublisher {
  bytes = 0;
  constructor(private readonly deliver: (p: Publication) => void) {}
  publish(tableId: string, publications: readonly Publication[]): Promise<void> {
    for (const p of publications) {
      this.bytes += encodePublication(tableId, p).length;
      this.deliver(p);
    }
    return Promise.resolve();
  }
  tableReset(): Promise<void> {
    return Promise.resolve();
  }
}

/** The memory store (it writes the same text Redis would), counting what it was given. */
class SizedCheckpoints extends MemoryCheckpointStore {
  bytes = 0;
  saves = 0;
  /** Bytes per top-level section (`engine`, `hand`, `commands`, …) over the sampled saves, when sampling. */
  sections: Map<string, number> | null = null;
  override save(...args: Parameters<MemoryCheckpointStore['save']>): Promise<void> {
    this.saves++;
    this.bytes += args[2].length;
    if (this.sections) {
      for (const [key, value] of Object.entries(JSON.parse(args[2]) as Record<string, unknown>)) {
        this.sections.set(key, (this.sections.get(key) ?? 0) + JSON.stringify(value).length);
      }
    }
    return super.save(...args);
  }
}

const users = Array.from({ length: PLAYERS }, (_, i) => uid(i + 1));
const todo: (() => Promise<unknown>)[] = [];
let decision = 0;
let completed = 0;

function onMessage(userId: string, m: TableMessage): void {
  if (m.type === 'seed_commit') {
    const seed = (decision++ % 251).toString(16).padStart(2, '0').repeat(32);
    todo.push(() =>
      actor.submit({
        kind: 'client',
        connectionId: `c-${userId}`,
        userId,
        frame: { type: 'client_seed', table_id: TABLE, hand_id: m.hand_id, seed, command_id: `s-${decision}` },
      }),
    );
  } else if (m.type === 'your_turn') {
    const v = m.valid_actions;
    const n = decision++;
    const action = v.check ? 'check' : n % 4 === 0 && v.fold ? 'fold' : 'call';
    todo.push(() =>
      actor.submit({
        kind: 'client',
        connectionId: `c-${userId}`,
        userId,
        frame: {
          type: 'action',
          table_id: TABLE,
          hand_id: m.hand_id,
          turn_token: m.turn_token,
          command_id: `a-${n}-${userId.slice(-4)}`,
          action,
        },
      }),
    );
  } else if (m.type === 'hand_result') {
    if (userId === users[0]) completed++;
  }
}

const base = harness({ ...FAST, seedWindowMs: 5_000 });
const checkpoints = new SizedCheckpoints();
const publisher = new EncodingPublisher((p) => {
  if (p.audience.kind === 'user' && p.message.type !== 'table_heartbeat') onMessage(p.audience.userId, p.message);
});
const deps = { ...base.deps, checkpoints, publisher, random: new CountingRandom('loop') };
const seed = room(
  users.map((userId, i) => ({ userId, name: `P${i + 1}`, seat: i + 1, stack: 1_000_000 })),
  { seats: 6 },
);
base.seeds.rooms.set(TABLE, seed);
const actor = TableActor.create(TABLE, seed, 0, deps);
for (const userId of users) {
  await actor.submit({ kind: 'attach', connectionId: `c-${userId}`, streamId: 'g', userId });
}

async function play(until: number): Promise<void> {
  while (completed < until) {
    if (todo.length > 0) {
      // What the players sent meanwhile reaches the table together, as it does through the gateways:
      // the six seeds of a hand above all, which the table applies and commits as one group.
      await Promise.all(todo.splice(0).map((send) => send()));
      continue;
    }
    const at = base.time.nextAt();
    if (at === undefined) throw new Error('the table stopped: no timer and nothing to do');
    base.time.advance(Math.max(0, at - base.time.now()));
    // The tick the timer posted runs in the mailbox.
    await new Promise((r) => setImmediate(r));
  }
}

const warm = Math.min(50, Math.floor(hands / 4));
await play(warm);
const saves0 = checkpoints.saves;
const bytes0 = checkpoints.bytes;
const pub0 = publisher.bytes;
if (process.argv.includes('--sections')) checkpoints.sections = new Map();
const from = completed;
const cpu0 = ownCpuSeconds();
await play(warm + hands);
const cpu = ownCpuSeconds() - cpu0;
const played = completed - from;
const saves = checkpoints.saves - saves0;
console.log(
  `ACTOR hands=${played} cpu_ms_per_hand=${((cpu * 1000) / played).toFixed(3)} ` +
    `checkpoints_per_hand=${(saves / played).toFixed(1)} checkpoint_bytes=${Math.round((checkpoints.bytes - bytes0) / saves)} ` +
    `published_bytes_per_hand=${Math.round((publisher.bytes - pub0) / played)}`,
);
if (checkpoints.sections) {
  const rows = [...checkpoints.sections].sort((a, b) => b[1] - a[1]);
  for (const [key, bytes] of rows) console.log(`  ${key.padEnd(24)} ${Math.round(bytes / saves)} B`);
}
await actor.stop();
