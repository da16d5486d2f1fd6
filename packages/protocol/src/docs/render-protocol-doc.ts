import { z } from 'zod';
import { CloseCode } from '../close-codes.js';
import { ErrorCode } from '../error-codes.js';
import {
  errorMessageSchema,
  joinTableSchema,
  leaveTableSchema,
  pingSchema,
  pongSchema,
  resyncRequestSchema,
  tableClosedSchema,
  tableStateSchema,
} from '../messages.js';

const ERROR_CODE_DOCS: Record<ErrorCode, string> = {
  bad_json: 'The frame was not valid JSON.',
  invalid_frame: 'Valid JSON, but not a valid frame of its type: missing, extra or mistyped fields.',
  unknown_type: 'The frame’s `type` is not one this server knows.',
  rate_limited: 'The frame arrived over the per-socket rate limit and was dropped.',
  not_member: 'The user is not a member of the room behind this table (join it through the lobby first).',
  table_not_found: 'No open room has this table id.',
  not_joined: 'The frame needs the connection to have joined the table (`join_table`) first.',
  unavailable: 'The table’s worker could not be reached; retry shortly.',
  table_closed: 'The table is closed.',
  internal: 'The server failed; nothing was applied.',
};

const CLOSE_CODE_DOCS: Record<CloseCode, string> = {
  1001: 'Going away: the gateway is shutting down. Reconnect (any gateway) and send `join_table` again.',
  1009: 'Message too big: a frame exceeded the per-socket payload limit (`GATEWAY_MAX_PAYLOAD`, default 16384 bytes).',
  1011: 'Internal error.',
  4001: 'Session ended: the session was revoked or expired while the socket was open. Log in again.',
  4008: 'Rate-limit abuse: the client kept sending after its frames were refused with `rate_limited`.',
  4013: 'Slow consumer: the socket’s outgoing buffer passed the backpressure limit. Reconnect and resync.',
};

function schemaBlock(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any' });
  delete (json as Record<string, unknown>).$schema;
  return '```json\n' + JSON.stringify(json, null, 2) + '\n```';
}

function section(title: string, schema: z.ZodType): string {
  const description = schema.description ?? '';
  return `### \`${title}\`\n\n${description}\n\n${schemaBlock(schema)}\n`;
}

/**
 * docs/protocol.md, generated from the zod schemas so that the document cannot drift from what the
 * gateway enforces. A test fails when the committed file differs from this output.
 */
export function renderProtocolDoc(): string {
  const clients: [string, z.ZodType][] = [
    ['join_table', joinTableSchema],
    ['leave_table', leaveTableSchema],
    ['resync_request', resyncRequestSchema],
    ['ping', pingSchema],
  ];
  const servers: [string, z.ZodType][] = [
    ['table_state', tableStateSchema],
    ['table_closed', tableClosedSchema],
    ['error', errorMessageSchema],
    ['pong', pongSchema],
  ];
  const errorRows = Object.values(ErrorCode).map((code) => `| \`${code}\` | ${ERROR_CODE_DOCS[code]} |`);
  const closeRows = Object.values(CloseCode).map((code) => `| ${code} | ${CLOSE_CODE_DOCS[code]} |`);

  return [
    '<!-- Generated from packages/protocol (zod schemas). Do not edit: run `npm run gen:docs -w @felt/protocol`. -->',
    '',
    '# Felt client protocol (WebSocket)',
    '',
    'Clients talk to a gateway over one WebSocket at `/ws`, JSON text frames both ways. The zod schemas in',
    '`@felt/protocol` are the single source of truth; this page is generated from them.',
    '',
    '## Connecting',
    '',
    '- Log in through the lobby first: it sets the `felt_session` cookie (HttpOnly, SameSite=Lax). The browser',
    '  sends it on the upgrade; other clients send it in a `Cookie` header.',
    '- The upgrade is refused before any WebSocket exists, with an HTTP status:',
    '  - `403` when an `Origin` header is present and not in the gateway’s allowlist',
    '    (`GATEWAY_ALLOWED_ORIGINS`). Browsers always send one; other clients (bots, load runners) may omit it;',
    '  - `401` when the cookie is missing, forged, expired or revoked (logged out);',
    '  - `503` when the gateway cannot check revocation (Redis unreachable) or is shutting down.',
    '- Any gateway serves any table. After a reconnect, send `join_table` again: the answer is a fresh',
    '  `table_state`.',
    '',
    '## Ordering: table_seq',
    '',
    'Every table-scoped server message carries `table_id` and `table_seq`. `table_seq` is a table-wide',
    'watermark that only grows, also across worker changes. It is not contiguous for any one recipient:',
    'ignore a message whose `(table_id, table_seq)` is not above the last one applied, and do not resync',
    'because of a gap alone. `table_state` is the authoritative snapshot and replaces what the client held.',
    '',
    '## Limits',
    '',
    '- **Payload**: a frame larger than `GATEWAY_MAX_PAYLOAD` bytes (default 16384) closes the socket with',
    '  code 1009. Frames past 1 MiB (or the limit, if larger) are not even read: the transport drops the',
    '  connection without a close frame (the client sees 1006).',
    '- **Rate**: each socket has a token bucket (`GATEWAY_RATE_PER_SEC` per second, burst `GATEWAY_RATE_BURST`).',
    '  A frame over the limit is dropped and answered with `error` `rate_limited` (at most one such error',
    '  per second). A socket that keeps sending while limited (more dropped frames than its burst in a',
    '  row) is closed with code 4008.',
    '- **Backpressure**: the gateway never queues without bound for a slow reader. When a socket’s',
    '  outgoing buffer passes 1 MiB, the gateway closes it with code 4013; the client reconnects and',
    '  receives a fresh snapshot, which is safe because `table_state` is a full snapshot.',
    '',
    '## Client → server',
    '',
    ...clients.map(([t, s]) => section(t, s)),
    '## Server → client',
    '',
    ...servers.map(([t, s]) => section(t, s)),
    '## Error codes',
    '',
    'An `error` refuses one frame and changes nothing. Its `code` is stable; `message` is for people.',
    'It echoes `command_id` and `table_id` when the refused frame had readable ones.',
    '',
    '| code | meaning |',
    '| --- | --- |',
    ...errorRows,
    '',
    '## WebSocket close codes',
    '',
    '| code | meaning |',
    '| --- | --- |',
    ...closeRows,
    '',
    '## State hash',
    '',
    '`table_state.state_hash` covers the snapshot as sent to that recipient. To verify it: remove `ts`,',
    '`table_seq`, `hand_seq` and `state_hash` from the top-level object; serialize the rest as JSON with',
    'keys sorted at every depth (by code point), non-ASCII escaped as `\\uXXXX` (lowercase hex, surrogate',
    'pairs past U+FFFF) and no whitespace, which is Python’s',
    '`json.dumps(obj, sort_keys=True, ensure_ascii=True, separators=(",", ":"))`; hash the UTF-8 bytes with',
    'SHA-256 and compare with `"sha256:" + lowercase hex`. On a mismatch, send `resync_request`.',
    '',
  ].join('\n');
}
