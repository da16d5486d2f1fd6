import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  LOBBY_ERROR_CODES,
  LOBBY_ROUTES,
  createRoomSchema,
  credentialsSchema,
  handSummarySchema,
  historyQuerySchema,
  joinByCodeSchema,
  lobbyErrorSchema,
  updateMeSchema,
  type HandSummary,
} from './lobby-api.js';

const summary: HandSummary = {
  hand_id: '0b7f1c1e-2a8e-4d55-9b9a-1c2d3e4f5a6b',
  session_id: '6f9619ff-8b86-4011-b42d-00c04fc964ff',
  hand_no: null,
  game: 'holdem',
  limit: 'nl',
  blinds: { smallBlind: 1, bigBlind: 2 },
  started_at: '2026-01-01T00:00:00.000Z',
  ended_at: '2026-01-01T00:00:00.000Z',
  seat: 1,
  cards: [],
  board: [],
  starting_stack: 200,
  final_stack: 200,
  net: 0,
  won: 0,
  folded: false,
  pot_total: 0,
  rake: 0,
  voided_reason: 'checkpoint_lost',
};

describe('the lobby’s HTTP contract', () => {
  it('keys every route `METHOD /path` and lists a schema (or no body) for each success status', () => {
    for (const [key, route] of Object.entries(LOBBY_ROUTES)) {
      expect(key).toMatch(/^(GET|POST|PATCH|DELETE) \/api\/[a-z/{}-]+$/);
      const statuses = Object.keys(route.success).map(Number);
      expect(statuses.length, key).toBeGreaterThan(0);
      for (const status of statuses) {
        expect(status >= 200 && status < 300, key).toBe(true);
        const schema = (route.success as Record<number, unknown>)[status];
        expect(schema === null || schema instanceof z.ZodType, key).toBe(true);
      }
    }
  });

  it('carries a voided hand’s reason in the hand summary, and a played hand without one', () => {
    expect(handSummarySchema.parse(summary)).toEqual(summary);
    const { voided_reason: _, ...played } = summary;
    expect(handSummarySchema.parse({ ...played, hand_no: 4 })).not.toHaveProperty('voided_reason');
  });

  it('refuses what the lobby refuses: bad names and passwords, codes that are not six digits, extra fields', () => {
    expect(credentialsSchema.safeParse({ name: 'al', password: 'password-1' }).success).toBe(false);
    expect(credentialsSchema.safeParse({ name: 'alice', password: 'short' }).success).toBe(false);
    expect(credentialsSchema.safeParse({ name: 'alice', password: 'password-1', admin: true }).success).toBe(false);
    expect(joinByCodeSchema.safeParse({ code: '04281', buy_in: 100 }).success).toBe(false);
    expect(joinByCodeSchema.safeParse({ code: '042817', buy_in: 0 }).success).toBe(false);
    expect(createRoomSchema.safeParse({ config: { seats: 11 } }).success).toBe(false);
    expect(historyQuerySchema.parse({})).toEqual({ page_size: 20 });
    expect(updateMeSchema.safeParse({ locale: 'zh-CN' }).success).toBe(true);
    expect(updateMeSchema.safeParse({ locale: null }).success).toBe(true);
    for (const bad of [{ locale: 'fr' }, { locale: 'zh' }, { locale: 'EN' }, {}, { locale: 'en', name: 'x' }]) {
      expect(updateMeSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('has one stable code per refusal, in the documented error shape', () => {
    expect(new Set(LOBBY_ERROR_CODES).size).toBe(LOBBY_ERROR_CODES.length);
    expect(
      lobbyErrorSchema.safeParse({ error: { code: 'seat_taken', message: 'seat 3 is taken', details: { seat: 3 } } })
        .success,
    ).toBe(true);
    expect(lobbyErrorSchema.safeParse({ error: { code: 'no_such_code', message: 'x' } }).success).toBe(false);
  });
});
