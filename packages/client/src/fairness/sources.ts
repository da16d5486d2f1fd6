import { VerifierError, VerifierErrorCode } from './errors.js';

/**
 * The reveal records in a JSON document: one record, an array of them, or the lobby's envelopes
 * `{ "reveal": record }` and `{ "reveals": [records] }`. Items are returned unchecked; verifyReveal judges them.
 */
export function extractRevealRecords(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  if (typeof json === 'object' && json !== null) {
    const envelope = json as { reveal?: unknown; reveals?: unknown };
    if (Array.isArray(envelope.reveals)) return envelope.reveals;
    if (envelope.reveal !== undefined && !('hand_id' in json)) return [envelope.reveal];
  }
  return [json];
}

export function parseRevealJson(text: string, source: string): unknown[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new VerifierError(VerifierErrorCode.SOURCE_UNREADABLE, `${source} is not JSON`, { source }, { cause: err });
  }
  return extractRevealRecords(json);
}

/** Where the lobby's verification endpoint serves a hand's reveal record. */
export function lobbyRevealUrl(lobbyBaseUrl: string, handId: string): string {
  return new URL(`api/hands/${encodeURIComponent(handId)}/reveal`, lobbyBaseUrl.replace(/\/?$/, '/')).toString();
}

export interface FetchRevealOptions {
  /** A `felt_session` token for non-browser callers; browsers send the cookie themselves. */
  session?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** GETs reveal records over HTTP (the lobby, or any URL serving the same JSON). */
export async function fetchRevealRecords(url: string, opts: FetchRevealOptions = {}): Promise<unknown[]> {
  const doFetch = opts.fetch ?? fetch;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.session !== undefined) headers.cookie = `felt_session=${opts.session}`;
  let response: Response;
  try {
    response = await doFetch(url, { headers, signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000) });
  } catch (err) {
    throw new VerifierError(VerifierErrorCode.SOURCE_UNREADABLE, `could not fetch ${url}`, { url }, { cause: err });
  }
  if (!response.ok) {
    throw new VerifierError(VerifierErrorCode.SOURCE_UNREADABLE, `${url} answered HTTP ${response.status}`, {
      url,
      status: response.status,
    });
  }
  return parseRevealJson(await response.text(), url);
}
