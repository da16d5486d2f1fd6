// One room-create request once broke the room list and quick join for everyone (invariant 11 of
// docs/architecture.md: an unreadable row is skipped, never a failed list). The derived buy-in
// range overflowed the safe-integer bound, the room was stored, and every read of it threw.
import { randomUUID } from 'node:crypto';
import { parseRoomConfig } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLogger, expectError, startHarness, type Harness } from './harness.js';

let h: Harness;
let logs: ReturnType<typeof capturedLogger>;

beforeAll(async () => {
  logs = capturedLogger('warn');
  h = await startHarness({ logger: logs.logger });
});

afterAll(async () => {
  await h.close();
});

const OVERFLOW = { config: { stakes: { smallBlind: 50_000_000_000_000, bigBlind: 100_000_000_000_000 } } };

interface Issues {
  error: { details: { issues: { path: string; message: string }[] } };
}

describe('room configs whose amounts overflow', () => {
  it('refuses the overflowing create with a typed 400 and stores nothing; the list keeps working', async () => {
    const host = await h.user();
    const before = await h.snapshot();
    const res = await host.post<Issues>('/api/rooms', OVERFLOW);
    expectError(res, 400, 'invalid_room_config');
    expect(res.body.error.details.issues.map((i) => i.path)).toContain('buyIn.max');
    expect(await h.snapshot()).toEqual(before);

    const list = await host.get<{ rooms: unknown[] }>('/api/rooms');
    expect(list.status).toBe(200);
    const quick = await host.post('/api/rooms/quick-join', {});
    expectError(quick, 404, 'no_room_available');
  });

  it('holds a new room to 10^12 chips for every amount, given or derived', async () => {
    const host = await h.user();
    // A 10^10 + 1 big blind makes a default maximum buy-in (100 big blinds) just above 10^12.
    const res = await host.post<Issues>('/api/rooms', {
      config: { stakes: { smallBlind: 5_000_000_000, bigBlind: 10_000_000_001 } },
    });
    expectError(res, 400, 'invalid_room_config');
    expect(res.body.error.details.issues.map((i) => i.path)).toEqual(['buyIn.max']);
    const cap = await host.post<Issues>('/api/rooms', { config: { rake: { percent: 5, cap: 1_000_000_000_001 } } });
    expect(cap.body.error.details.issues.map((i) => i.path)).toEqual(['rake.cap']);
    // At the bound itself a room is fine.
    const ok = await host.post('/api/rooms', {
      config: { stakes: { smallBlind: 5_000_000_000, bigBlind: 10_000_000_000 }, listed: false },
    });
    expect(ok.status).toBe(201);
  });

  it('skips a stored row whose config does not parse, logs it once with the room id, and serves the rest', async () => {
    const host = await h.user();
    const good = await host.post<{ session_id: string; code: string }>('/api/rooms', { config: { seats: 6 } });
    expect(good.status).toBe(201);

    // Rows written before the bound (the stored form of the overflowing config), and by hand. They
    // are older than the good room, so list and quick join meet them first.
    const overflowing = {
      ...JSON.parse(JSON.stringify(parseRoomConfig({}))),
      stakes: { ...parseRoomConfig({}).stakes, smallBlind: 50_000_000_000_000, bigBlind: 100_000_000_000_000 },
      buyIn: { min: 4_000_000_000_000_000, max: 10_000_000_000_000_000 },
    };
    const broken: { id: string; code: string }[] = [];
    for (const [i, config] of [overflowing, { game: 'poker' }, 'not even an object'].entries()) {
      const id = randomUUID();
      const code = `9${String(i).padStart(5, '0')}`;
      await h.db.prisma.$executeRaw`
        INSERT INTO "rooms" ("id", "code", "config", "is_public", "host_id", "created_at")
        VALUES (${id}::uuid, ${code}, ${JSON.stringify(config)}::jsonb, true, ${host.id}::uuid, now() - interval '1 hour')`;
      broken.push({ id, code });
    }

    const list = await host.get<{ rooms: { session_id: string }[] }>('/api/rooms');
    expect(list.status).toBe(200);
    const listed = list.body.rooms.map((r) => r.session_id);
    expect(listed).toContain(good.body.session_id);
    for (const b of broken) expect(listed).not.toContain(b.id);
    // Filtered lists read every row too.
    expect((await host.get('/api/rooms?stakes=1/2')).status).toBe(200);
    expect((await host.get('/api/rooms?limit=nl&game=holdem')).status).toBe(200);

    const player = await h.user();
    const joined = await player.post<{ session_id: string }>('/api/rooms/quick-join', { buy_in: 100 });
    expect(joined.status).toBe(200);
    expect(joined.body.session_id).toBe(good.body.session_id);

    // The broken rooms themselves: not found, never a 500.
    for (const b of broken) {
      expectError(await player.get(`/api/rooms/${b.id}`), 404, 'room_not_found');
      expectError(await player.post('/api/rooms/join', { code: b.code, buy_in: 100 }), 404, 'room_not_found');
    }

    // One warning per room with its id, however many times it was read.
    await host.get('/api/rooms');
    const warnings = logs.lines().filter((l) => l.event === 'room_config_unreadable');
    expect(warnings.map((w) => w.roomId).sort()).toEqual(broken.map((b) => b.id).sort());
    expect(warnings.every((w) => w.level === 40)).toBe(true);
    expect(logs.lines().filter((l) => (l.level as number) >= 50)).toEqual([]);
  });
});
