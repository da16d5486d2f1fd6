import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { HistoryReader } from '../history-reader.js';
import {
  handDetailSchema,
  handIdParamSchema,
  historyPageSchema,
  historyQuerySchema,
  ohhResponseSchema,
  phhResponseSchema,
  revealResponseSchema,
} from '../schemas.js';
import { cookieAuth, errors, json, type Env } from './http.js';

/** The signed-in user's hand history: a page of hands, one hand, its reveal record, OHH and PHH. */
export function registerHandRoutes(app: OpenAPIHono<Env>, history: HistoryReader): void {
  const HISTORY_NOTE =
    'You see what you could see at the table (your cards, cards dealt face up, the board, every hand shown) ' +
    "plus what the reveal made public (the seeds). Other players' cards that were never shown are never " +
    'served as cards; but the revealed server seed rebuilds the whole deck, so anyone can reconstruct them ' +
    'afterwards: that is the price of verifiable dealing (docs/fairness.md, honest limits). An engine-blind hand ' +
    '(`dealing: "engine_blind"`) was dealt by its players: it has no seed, and the server never knew a hole card ' +
    'nobody showed, yours included.';

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/hands',
      summary: 'Your recent hands, newest first',
      description: HISTORY_NOTE,
      security: cookieAuth,
      request: { query: historyQuerySchema },
      responses: { 200: json(historyPageSchema, 'A page of hands'), ...errors(400, 401) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const page = await history.list(c.get('auth').userId, q.page_size, q.cursor);
      return c.json(page, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/hands/{id}',
      summary: 'One of your hands: players, actions in order, pots, board, seeds',
      description: HISTORY_NOTE,
      security: cookieAuth,
      request: { params: handIdParamSchema },
      responses: { 200: json(handDetailSchema, 'The hand'), ...errors(400, 401, 404) },
    }),
    async (c) => c.json(await history.get(c.get('auth').userId, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/hands/{id}/reveal',
      summary: 'The reveal record that `felt verify` and the web client check',
      description:
        'Seeds (seed_commit, server_seed, client seeds, deck_seed) and every dealt deck index with its card; ' +
        'a card you did not see at the table is withheld as `card: null` and listed in `withheld`. ' +
        'A voided or engine-blind hand has none (422 export_unsupported). ' +
        HISTORY_NOTE,
      security: cookieAuth,
      request: { params: handIdParamSchema },
      responses: { 200: json(revealResponseSchema, 'The reveal record'), ...errors(400, 401, 404, 422) },
    }),
    async (c) => c.json(await history.reveal(c.get('auth').userId, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/hands/{id}/ohh',
      summary: 'The hand as Open Hand History 1.4 (you are the hero)',
      description: HISTORY_NOTE,
      security: cookieAuth,
      request: { params: handIdParamSchema },
      responses: {
        200: { content: { 'application/json': { schema: ohhResponseSchema } }, description: 'OHH' },
        ...errors(400, 401, 404, 422),
      },
    }),
    async (c) => c.json((await history.ohh(c.get('auth').userId, c.req.valid('param').id)) as never, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/hands/{id}/phh',
      summary: 'The hand as PHH (pokerkit notation); cards you did not see (or nobody knew) are ??',
      description: HISTORY_NOTE,
      security: cookieAuth,
      request: { params: handIdParamSchema },
      responses: {
        200: { content: { 'text/plain': { schema: phhResponseSchema } }, description: 'PHH (TOML)' },
        ...errors(400, 401, 404, 422),
      },
    }),
    async (c) => {
      const text = await history.phh(c.get('auth').userId, c.req.valid('param').id);
      return c.text(text, 200, { 'content-type': 'application/x-phh; charset=utf-8' });
    },
  );
}
