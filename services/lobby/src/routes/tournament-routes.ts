import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Tournaments } from '../tournaments.js';
import {
  tournamentAddOnSchema,
  tournamentDetailSchema,
  tournamentEntrySchema,
  tournamentIdParamSchema,
  tournamentListQuerySchema,
  tournamentListSchema,
  tournamentUnregisteredSchema,
} from '../schemas.js';
import { cookieAuth, errors, json, type Env } from './http.js';

/** Tournaments: the list, one with its players and payouts, register and unregister, the add-on. */
export function registerTournamentRoutes(app: OpenAPIHono<Env>, tournaments: Tournaments): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tournaments',
      summary: 'Tournaments registering and running (or of one status), soonest start first',
      security: cookieAuth,
      request: { query: tournamentListQuerySchema },
      responses: { 200: json(tournamentListSchema, 'Tournaments'), ...errors(400, 401) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json({ tournaments: await tournaments.list(q.status, q.page_size) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tournaments/{id}',
      summary: 'One tournament: its structure, players, places and what each paid place wins',
      security: cookieAuth,
      request: { params: tournamentIdParamSchema },
      responses: { 200: json(tournamentDetailSchema, 'The tournament'), ...errors(400, 401, 404) },
    }),
    async (c) => c.json(await tournaments.get(c.req.valid('param').id, c.get('auth').userId), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/tournaments/{id}/register',
      summary: 'Register (a re-entry when your last entry is out): buy-in to the prize pool, fee to the house',
      description:
        'Registering while registered or playing changes nothing (replayed, nothing charged: the entry you hold). ' +
        'Refused once the tournament has started or its start time has come (tournament_closed), unless it offers ' +
        'late registration: then until its director closes registration (late_registration_open), and the entry ' +
        'stays registered until the director seats it (then playing, with your table in the detail). When your ' +
        'last entry is out (busted or finished), this is a re-entry: a new entry (entry_no 2 and on) paid like the ' +
        'first, taken while re_entry_open and you have re-entries left (can_re_enter in the detail); refused when ' +
        'the tournament offers no re-entry or its director closed it (tournament_closed) and once your re-entries ' +
        '(the config reEntry.max) are used up (tournament_entry_limit). Refused when every place is taken ' +
        '(tournament_full: a place is a player, busted ones included; a re-entry takes none), when the wallet ' +
        'cannot pay (insufficient_funds), and after five unregistrations from it (tournament_entry_limit). ' +
        'Counts against FELT_TOURNAMENT_CHANGES_PER_USER with unregistrations and add-ons (rate_limited).',
      security: cookieAuth,
      request: { params: tournamentIdParamSchema },
      responses: { 200: json(tournamentEntrySchema, 'Registered'), ...errors(400, 401, 404, 409, 429) },
    }),
    async (c) => c.json(await tournaments.register(c.get('auth').userId, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/tournaments/{id}/register',
      summary: 'Unregister before the start: buy-in and fee back to your wallet',
      description:
        'Refused when you hold no registered entry (not_registered) and once the tournament has started or ' +
        'its start time has come, late registration or not (tournament_closed). Counts against ' +
        'FELT_TOURNAMENT_CHANGES_PER_USER with registrations and add-ons (rate_limited).',
      security: cookieAuth,
      request: { params: tournamentIdParamSchema },
      responses: {
        200: json(tournamentUnregisteredSchema, 'Unregistered and refunded'),
        ...errors(400, 401, 404, 409, 429),
      },
    }),
    async (c) => c.json(await tournaments.unregister(c.get('auth').userId, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/tournaments/{id}/add-on',
      summary: 'Buy the add-on at the first break: its chips at your table, its cost to the prize pool',
      description:
        'For a tournament whose config has addOn {chips, cost}: on sale while add_on_open (from the start of ' +
        'the first break, when its director opens the sale, until add_on_until, the break’s end), once per ' +
        'entry, for the entry you are playing (can_add_on in the detail). The cost goes from your wallet into ' +
        'the prize pool and the director adds the chips at your table; if you are out before it does, the cost ' +
        'comes back to your wallet (tournament_add_on_refund). Buying again for the same entry changes nothing ' +
        '(replayed, nothing charged). Refused while no add-on is on sale: the tournament offers none, the first ' +
        'break has not come or the sale is over (tournament_closed); when you hold no entry playing: not in ' +
        'it, registered late and not seated yet, or out (not_registered); when the wallet cannot pay ' +
        '(insufficient_funds). Counts against FELT_TOURNAMENT_CHANGES_PER_USER with registrations (rate_limited).',
      security: cookieAuth,
      request: { params: tournamentIdParamSchema },
      responses: { 200: json(tournamentAddOnSchema, 'Bought'), ...errors(400, 401, 404, 409, 429) },
    }),
    async (c) => c.json(await tournaments.addOn(c.get('auth').userId, c.req.valid('param').id), 200),
  );
}
