// Lobby HTTP load: every iteration signs up and logs in a room creator and a second player, creates a
// room and joins it by code, i.e. the path every new table takes before any WebSocket opens; then the
// host closes the room, which refunds both seats.
//
//   k6 run -e LOBBY_URL=https://felt.example.com [-e VUS=50] [-e DURATION=5m] dist/lobby.js
import type { Options } from 'k6/options';
import { envInt, envString, envUrl } from './lib/env.js';
import { closeRoom, createRoom, joinRoom, randomPassword, signupAndLogin, uniqueName } from './lib/lobby.js';

const LOBBY = envUrl('LOBBY_URL', ['http', 'https']);
const VUS = envInt('VUS', 20, 1, 100_000);
const DURATION = envString('DURATION', '2m');
const RAMP = envString('RAMP', '30s');

export const options: Options = {
  scenarios: {
    lobby_flow: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: RAMP, target: VUS },
        { duration: DURATION, target: VUS },
        { duration: '10s', target: 0 },
      ],
      gracefulRampDown: '10s',
    },
  },
  thresholds: {
    // Fewer than 1% of requests fail, and every step answers quickly at the 95th percentile; sign-up
    // and login hash passwords (scrypt/argon2), so they get a wider budget than room calls.
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:signup}': ['p(95)<1500'],
    'http_req_duration{name:login}': ['p(95)<1500'],
    'http_req_duration{name:create_room}': ['p(95)<300'],
    'http_req_duration{name:join_room}': ['p(95)<300'],
    'http_req_duration{name:close_room}': ['p(95)<300'],
    checks: ['rate>0.99'],
  },
};

export default function (): void {
  const creator = signupAndLogin(LOBBY, { name: uniqueName('k6c'), password: randomPassword() });
  if (!creator) return;
  const room = createRoom(LOBBY, creator, 2);
  if (!room) return;
  const player = signupAndLogin(LOBBY, { name: uniqueName('k6p'), password: randomPassword() });
  if (player) joinRoom(LOBBY, player, room.code);
  closeRoom(LOBBY, creator, room);
}
