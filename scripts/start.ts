// `npm start`: a local Felt cluster of separate processes (lobby, 2 gateways, 3 workers, persister)
// against the machine's Postgres and, unless REDIS_URL names another, a password-protected
// redis-server of its own (scripts/local-redis.ts). Run after `npm run build` (the npm script does both).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bankrollFlows, createPrisma, fundHouseBankroll, migrate } from '@felt/db';
import pg from 'pg';
import { ensureDevCertificates } from './dev-certs.js';
import { LocalRedis, redisAddress, redisAnswers } from './local-redis.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/felt';
/** The Redis REDIS_URL names; unset, the cluster gets a redis-server of its own (`startPrivateRedis`). */
const GIVEN_REDIS_URL = process.env.REDIS_URL;
const feltDir = join(root, '.felt');
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;

const COLORS = [36, 35, 33, 32, 34, 91, 92, 93, 94];
const useColor = process.stdout.isTTY;
const say = (line: string): void =>
  void process.stdout.write(`${useColor ? '\x1b[1m' : ''}[start]${useColor ? '\x1b[0m' : ''} ${line}\n`);

function which(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function tryRun(cmd: string): void {
  spawnSync('sh', ['-c', cmd], { stdio: 'ignore', timeout: 20_000 });
}

async function postgresAnswers(url: string): Promise<boolean> {
  const u = new URL(url);
  u.pathname = '/postgres';
  const client = new pg.Client({ connectionString: u.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

const REDIS_INSTALL_HINT =
  '  (not installed: apt-get update && apt-get install -y redis-server; on macOS: brew install redis)';

/**
 * Makes sure Postgres answers, and the Redis of REDIS_URL when it is set (without it, that
 * redis-server is installed); starts local installs when it can, else says how.
 */
async function ensureServices(): Promise<void> {
  let pgUp = await postgresAnswers(DATABASE_URL);
  if (!pgUp && isRoot && which('pg_ctlcluster') && existsSync('/etc/postgresql')) {
    say('Postgres is down; starting the local cluster');
    tryRun('pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start');
    for (let i = 0; i < 15 && !pgUp; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      pgUp = await postgresAnswers(DATABASE_URL);
    }
  }
  const redisUrl = GIVEN_REDIS_URL;
  let redisUp = redisUrl === undefined ? which('redis-server') : await redisAnswers(redisUrl);
  if (redisUrl !== undefined && !redisUp && isRoot && which('redis-server')) {
    say('Redis is down; starting a local server');
    tryRun(
      'mkdir -p /var/lib/redis /var/log/redis && redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log',
    );
    for (let i = 0; i < 15 && !redisUp; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      redisUp = await redisAnswers(redisUrl);
    }
  }
  if (pgUp && redisUp) return;
  const lines: string[] = [];
  if (!pgUp) {
    lines.push(
      `Postgres does not answer at ${new URL(DATABASE_URL).host}. Start it with one of:`,
      '  pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start      # local install',
      '  docker compose up -d postgres                                                 # this repo’s docker-compose.yml',
      '  (not installed: apt-get update && apt-get install -y postgresql)',
    );
  }
  if (!redisUp && redisUrl === undefined) {
    lines.push(
      'redis-server is not installed: without REDIS_URL, npm start runs one of its own (password-protected, on a free port from 6380). Install it, or set REDIS_URL:',
      REDIS_INSTALL_HINT,
      '  docker compose up -d redis && REDIS_URL=redis://:felt-dev-password@127.0.0.1:6379 npm start   # this repo’s docker-compose.yml',
    );
  } else if (!redisUp && redisUrl !== undefined) {
    lines.push(
      `Redis does not answer at ${redisAddress(redisUrl)} (REDIS_URL). Start it, or unset REDIS_URL and npm start runs a redis-server of its own. To start it:`,
      '  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log',
      '  docker compose up -d redis        # this repo’s docker-compose.yml; its password: REDIS_URL=redis://:felt-dev-password@127.0.0.1:6379',
      REDIS_INSTALL_HINT,
    );
  }
  process.stderr.write(lines.join('\n') + '\n');
  process.exit(1);
}

async function ensureDatabase(): Promise<void> {
  const target = new URL(DATABASE_URL);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(DATABASE_URL);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      say(`creating database ${name}`);
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    }
  } finally {
    await client.end();
  }
  say('applying migrations');
  await migrate(DATABASE_URL);
  await fundLocalBankroll();
}

/**
 * A local cluster's operator is whoever runs it: bots buy in from the house bankroll, so it is kept
 * at FELT_LOCAL_BANKROLL chips (1,000,000 by default; 0 leaves it alone) with one funding
 * transaction, as `npm run bankroll -- --add N` would do on a real deployment.
 */
async function fundLocalBankroll(): Promise<void> {
  const target = BigInt(process.env.FELT_LOCAL_BANKROLL ?? '1000000');
  if (target <= 0n) return;
  const prisma = createPrisma(DATABASE_URL, { maxConnections: 1 });
  try {
    const { report } = await bankrollFlows(prisma);
    if (report.balance >= target) return;
    const add = target - report.balance;
    await fundHouseBankroll(prisma, add, `local-start:${Date.now()}`, 'npm start');
    say(`funded the house bankroll with ${add} chips for the bots (npm run bankroll shows it)`);
  } finally {
    await prisma.$disconnect();
  }
}

/** A secret that survives restarts, so logins do too; kept in .felt/ (git-ignored). */
function sessionSecret(): string {
  const fromEnv = process.env.FELT_SESSION_SECRET;
  if (fromEnv) return fromEnv;
  const file = join(root, '.felt', 'session-secret');
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    if (saved.length >= 32) return saved;
  }
  const secret = randomBytes(32).toString('base64url');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  say('generated a session secret in .felt/session-secret');
  return secret;
}

interface ProcSpec {
  readonly name: string;
  readonly dir: string;
  readonly env: Record<string, string>;
}

interface Proc {
  readonly spec: ProcSpec;
  readonly child: ChildProcess;
  ready: boolean;
  exited: boolean;
}

function launch(spec: ProcSpec, color: number, onReady: () => void, onExit: (code: number | null) => void): Proc {
  const dir = join(root, spec.dir);
  const main = join(dir, 'dist', 'main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build`);
  const preload = join(dir, 'dist', 'telemetry.js');
  const args = [...(existsSync(preload) ? ['--import', preload] : []), main];
  const child = spawn(process.execPath, args, {
    cwd: dir,
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc: Proc = { spec, child, ready: false, exited: false };
  const label = spec.name.padEnd(10);
  const tag = useColor ? `\x1b[${color}m${label}\x1b[0m` : label;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      process.stdout.write(`${tag} | ${line}\n`);
      if (!proc.ready && line.includes('"event":"ready"')) {
        proc.ready = true;
        onReady();
      }
    });
  }
  child.on('exit', (code) => {
    proc.exited = true;
    onExit(code);
  });
  return proc;
}

const procs: Proc[] = [];
let privateRedis: LocalRedis | undefined;
let stopping = false;

/** Stops the services (SIGTERM, then SIGKILL after STOP_GRACE_MS), then the private Redis, and exits. */
async function stopAll(code: number): Promise<never> {
  if (stopping) return new Promise<never>(() => undefined);
  stopping = true;
  say('stopping…');
  for (const p of procs) if (!p.exited) p.child.kill('SIGTERM');
  const deadline = Date.now() + STOP_GRACE_MS;
  while (procs.some((p) => !p.exited) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const p of procs) {
    if (!p.exited) {
      say(`${p.spec.name} did not stop in ${STOP_GRACE_MS / 1000}s; killing it`);
      p.child.kill('SIGKILL');
    }
  }
  while (procs.some((p) => !p.exited)) await new Promise((r) => setTimeout(r, 50));
  // Last, so the services' shutdown (checkpoints, lease releases, queued jobs) still reaches it.
  await privateRedis?.stop(STOP_GRACE_MS);
  say('stopped');
  process.exit(code);
}

/**
 * Without REDIS_URL: a redis-server of the cluster's own (scripts/local-redis.ts), on a free port
 * from 6380, password in .felt/redis-password. It is in a process group of its own, so Ctrl-C
 * reaches it only through `stopAll`, after the services.
 */
async function startPrivateRedis(): Promise<string> {
  const server = await LocalRedis.start(feltDir);
  privateRedis = server;
  server.onExit((code) => {
    if (!stopping) say(`redis-server exited with code ${code}; its log: .felt/redis/redis.log (Ctrl-C stops the rest)`);
  });
  say(`Redis 127.0.0.1:${server.port} of its own (password in .felt/redis-password, log in .felt/redis/)`);
  return server.url;
}

async function main(): Promise<void> {
  // Before the private Redis starts: a Ctrl-C at any point stops what has been started.
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  // The last resort for an exit that skipped stopAll (a crash): the private Redis does not outlive us.
  process.on('exit', () => privateRedis?.killNow());
  await ensureServices();
  const REDIS_URL = GIVEN_REDIS_URL ?? (await startPrivateRedis());
  await ensureDatabase();
  const secret = sessionSecret();
  // The gateways dial the workers with mutual TLS, as in production: a local CA and certificates
  // in .felt/grpc (git-ignored), made once and kept.
  const certs = ensureDevCertificates(join(root, '.felt', 'grpc'));
  const prefix = process.env.FELT_REDIS_PREFIX ?? 'felt:';
  const lobbyPort = Number(process.env.LOBBY_PORT ?? 8080);
  const gatewayPorts = [8081, 8082];
  const host = 'localhost';
  const common = {
    DATABASE_URL,
    REDIS_URL,
    FELT_REDIS_PREFIX: prefix,
    FELT_SESSION_SECRET: secret,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  };
  const specs: ProcSpec[] = [
    {
      name: 'lobby',
      dir: 'services/lobby',
      env: {
        ...common,
        LOBBY_HOST: '127.0.0.1',
        LOBBY_PORT: String(lobbyPort),
        LOBBY_OPS_PORT: process.env.LOBBY_OPS_PORT ?? '9090',
        FELT_GATEWAY_URLS: gatewayPorts.map((p) => `ws://${host}:${p}/ws`).join(','),
      },
    },
    ...[1, 2, 3].map((i) => ({
      name: `worker-${i}`,
      dir: 'services/table-worker',
      env: {
        ...common,
        ...certs.worker,
        WORKER_ID: `worker-${i}`,
        WORKER_GRPC_HOST: '127.0.0.1',
        WORKER_GRPC_PORT: String(50050 + i),
        WORKER_ADVERTISE_ADDR: `127.0.0.1:${50050 + i}`,
        WORKER_HTTP_PORT: String(9100 + i),
      },
    })),
    ...gatewayPorts.map((port, i) => ({
      name: `gateway-${i + 1}`,
      dir: 'services/gateway',
      env: {
        ...common,
        ...certs.gateway,
        GATEWAY_ID: `gateway-${i + 1}`,
        GATEWAY_HOST: '127.0.0.1',
        GATEWAY_PORT: String(port),
        GATEWAY_ALLOWED_ORIGINS: `http://localhost:${lobbyPort},http://127.0.0.1:${lobbyPort}`,
      },
    })),
    { name: 'persister', dir: 'services/persister', env: { ...common, PERSISTER_HTTP_PORT: '9092' } },
  ];

  let allReady = false;
  // A Ctrl-C during the migrations: stopAll is under way, nothing more is started.
  if (stopping) return;

  let readyCount = 0;
  const whenReady = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      const late = procs.filter((p) => !p.ready).map((p) => p.spec.name);
      reject(new Error(`not ready after ${READY_TIMEOUT_MS / 1000}s: ${late.join(', ')}`));
    }, READY_TIMEOUT_MS);
    specs.forEach((spec, i) => {
      procs.push(
        launch(
          spec,
          COLORS[i % COLORS.length]!,
          () => {
            readyCount++;
            if (readyCount === specs.length) {
              clearTimeout(timer);
              resolve();
            }
          },
          (code) => {
            if (stopping) return;
            if (!allReady) {
              clearTimeout(timer);
              reject(new Error(`${spec.name} exited with code ${code} before it was ready`));
            } else {
              say(`${spec.name} exited with code ${code}; the rest of the cluster keeps running (Ctrl-C stops it)`);
            }
          },
        ),
      );
    });
  });

  try {
    await whenReady;
  } catch (err) {
    process.stderr.write(`[start] ${(err as Error).message}\n`);
    await stopAll(1);
  }
  allReady = true;
  say('');
  say(`Felt is running: open http://${host}:${lobbyPort}/`);
  say(`gateways: ${gatewayPorts.map((p) => `ws://${host}:${p}/ws`).join(', ')}   (Ctrl-C stops everything)`);
  say(
    privateRedis
      ? `Redis 127.0.0.1:${privateRedis.port} (password in .felt/redis-password; npm run audit finds it)`
      : `Redis ${redisAddress(REDIS_URL)} (REDIS_URL)`,
  );
}

main().catch(async (err: unknown) => {
  process.stderr.write(`[start] ${(err as Error).stack ?? String(err)}\n`);
  await stopAll(1);
});
