import { parseArgs } from 'node:util';
import { VerifierError, VerifierErrorCode } from '../fairness/errors.js';
import { fetchRevealRecords, lobbyRevealUrl, parseRevealJson } from '../fairness/sources.js';
import { verifyReveal, type VerifyOptions, type VerifyResult } from '../fairness/verify.js';

export const VERIFY_USAGE = `usage: felt verify [options] <file|-|url>...
       felt verify [options] --lobby <url> --hand <hand id>

Checks reveal records (one record or a JSON array of them) against the
felt-deck-v1 derivation: the seed commit, the deck seed, every dealt card at its
index, and indices 0..k-1. A card withheld as null (the lobby's history, for
cards you did not see) keeps its index but is not checked; the line says how
many were withheld.
'-' reads standard input. Prints one line per hand; exits 1 if any hand fails,
2 if the input cannot be read.

options:
  --commit <sha256:hex>  the seed_commit you received before the deal (one hand only)
  --seat <n> --seed <hex>  your seat and the client seed you sent (one hand only)
  --lobby <url> --hand <id>  fetch the hand's reveal from the lobby (GET <url>/api/hands/<id>/reveal)
  --session <token>      felt_session token for the lobby (default: $FELT_SESSION)
  --json                 print the full results as JSON
  -h, --help             show this help`;

/** What the command touches outside itself, injected so tests run it in-process. */
export interface VerifyIo {
  out: (line: string) => void;
  err: (line: string) => void;
  readFile: (path: string) => Promise<string>;
  readStdin: () => Promise<string>;
  fetch?: typeof fetch;
  env: Readonly<Record<string, string | undefined>>;
}

export const ExitCode = { OK: 0, FAILED: 1, UNUSABLE: 2 } as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

interface Loaded {
  source: string;
  records: unknown[];
}

interface Outcome {
  source: string;
  position: number;
  result: VerifyResult | null;
  error: string | null;
}

function label(outcome: Outcome, multiple: boolean): string {
  const handId = outcome.result?.handId;
  if (handId) return handId;
  return multiple ? `${outcome.source}[${outcome.position}]` : outcome.source;
}

const MAX_CARD_LINES = 5;

function describe(outcome: Outcome, multiple: boolean): string[] {
  const name = label(outcome, multiple);
  const { result } = outcome;
  if (result === null) return [`FAIL  ${name}  unusable: ${outcome.error ?? 'not a reveal record'}`];
  if (result.ok) {
    const seeds = result.serverSeedOnly
      ? 'no client seed (this proves the deck was not changed after the commit, not how the server chose its seed)'
      : `${result.clientSeedCount} client seed${result.clientSeedCount === 1 ? '' : 's'}`;
    const withheld =
      result.cardsWithheld > 0
        ? ` (${result.cardsWithheld} card${result.cardsWithheld === 1 ? '' : 's'} withheld)`
        : '';
    return [`ok    ${name}  ${result.variant ?? '?'}  ${result.cardsMatched} cards${withheld}, ${seeds}`];
  }
  const codes = [...new Set(result.failures.map((f) => f.code))];
  const lines = [`FAIL  ${name}  ${codes.join(', ')}`];
  // A wrong seed mismatches every card; the first few say enough.
  let cards = 0;
  for (const f of result.failures) {
    if (f.code === 'card_mismatch' && ++cards > MAX_CARD_LINES) continue;
    lines.push(`      ${f.code}: ${f.message}`);
  }
  if (cards > MAX_CARD_LINES) lines.push(`      card_mismatch: ${cards - MAX_CARD_LINES} more cards differ`);
  return lines;
}

async function load(
  sources: readonly string[],
  io: VerifyIo,
  lobby: { url?: string; hand?: string; session?: string },
): Promise<Loaded[]> {
  const loaded: Loaded[] = [];
  const fetchOpts = {
    ...(lobby.session !== undefined ? { session: lobby.session } : {}),
    ...(io.fetch !== undefined ? { fetch: io.fetch } : {}),
  };
  if (lobby.url !== undefined && lobby.hand !== undefined) {
    const url = lobbyRevealUrl(lobby.url, lobby.hand);
    loaded.push({ source: url, records: await fetchRevealRecords(url, fetchOpts) });
  }
  for (const source of sources) {
    if (/^https?:\/\//i.test(source)) {
      loaded.push({ source, records: await fetchRevealRecords(source, fetchOpts) });
      continue;
    }
    let text: string;
    try {
      text = source === '-' ? await io.readStdin() : await io.readFile(source);
    } catch (err) {
      throw new VerifierError(
        VerifierErrorCode.SOURCE_UNREADABLE,
        `cannot read ${source === '-' ? 'stdin' : source}`,
        { source },
        { cause: err },
      );
    }
    loaded.push({
      source: source === '-' ? 'stdin' : source,
      records: parseRevealJson(text, source === '-' ? 'stdin' : source),
    });
  }
  return loaded;
}

/** `felt verify`: returns the process exit code. */
export async function runVerify(argv: readonly string[], io: VerifyIo): Promise<ExitCode> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        commit: { type: 'string' },
        seat: { type: 'string' },
        seed: { type: 'string' },
        lobby: { type: 'string' },
        hand: { type: 'string' },
        session: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    io.err(`felt verify: ${(err as Error).message}`);
    io.err(VERIFY_USAGE);
    return ExitCode.UNUSABLE;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(VERIFY_USAGE);
    return ExitCode.OK;
  }
  const usage = (message: string): ExitCode => {
    io.err(`felt verify: ${message}`);
    io.err(VERIFY_USAGE);
    return ExitCode.UNUSABLE;
  };
  if ((values.lobby === undefined) !== (values.hand === undefined)) return usage('--lobby and --hand go together');
  if (positionals.length === 0 && values.lobby === undefined) return usage('nothing to verify');
  if ((values.seat === undefined) !== (values.seed === undefined)) return usage('--seat and --seed go together');

  const opts: VerifyOptions = {};
  if (values.commit !== undefined) opts.expectedCommit = values.commit;
  if (values.seat !== undefined && values.seed !== undefined) {
    const seat = Number(values.seat);
    if (!Number.isInteger(seat)) return usage('--seat must be an integer');
    opts.ownSeed = { seat, seed: values.seed };
  }

  let loaded: Loaded[];
  try {
    const session = values.session ?? io.env.FELT_SESSION;
    loaded = await load(positionals, io, {
      ...(values.lobby !== undefined ? { url: values.lobby } : {}),
      ...(values.hand !== undefined ? { hand: values.hand } : {}),
      ...(session !== undefined && session !== '' ? { session } : {}),
    });
  } catch (err) {
    if (err instanceof VerifierError) {
      io.err(`felt verify: ${err.message}`);
      return ExitCode.UNUSABLE;
    }
    throw err;
  }

  const total = loaded.reduce((n, l) => n + l.records.length, 0);
  if (total === 0) return usage('no reveal records in the input');
  if (total > 1 && (opts.expectedCommit !== undefined || opts.ownSeed !== undefined)) {
    return usage('--commit, --seat and --seed apply to a single hand, but the input holds ' + total);
  }

  const outcomes: Outcome[] = [];
  for (const { source, records } of loaded) {
    for (const [position, record] of records.entries()) {
      try {
        outcomes.push({ source, position, result: verifyReveal(record, opts), error: null });
      } catch (err) {
        if (!(err instanceof VerifierError)) throw err;
        if (err.code === VerifierErrorCode.INVALID_OPTION) return usage(err.message);
        outcomes.push({ source, position, result: null, error: err.message });
      }
    }
  }

  const failed = outcomes.filter((o) => o.result?.ok !== true).length;
  if (values.json) {
    io.out(JSON.stringify({ hands: outcomes.length, ok: outcomes.length - failed, failed, outcomes }, null, 2));
  } else {
    for (const outcome of outcomes) for (const line of describe(outcome, total > 1)) io.out(line);
    io.out(
      `${outcomes.length} hand${outcomes.length === 1 ? '' : 's'}: ${outcomes.length - failed} ok, ${failed} failed`,
    );
  }
  return failed === 0 ? ExitCode.OK : ExitCode.FAILED;
}
