/**
 * `node dist/migrate-cli.js`: applies the committed migrations to DATABASE_URL and exits. The
 * Kubernetes migrate Job runs it; services that start after it find nothing left to apply.
 */
import { migrate } from './migrate.js';

const DEFAULT_URL = 'postgresql://postgres@127.0.0.1:5432/felt';

function databaseUrl(): string {
  const raw = process.env.DATABASE_URL?.trim() || DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('DATABASE_URL: expected a URL like postgresql://postgres@127.0.0.1:5432/felt');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new Error('DATABASE_URL: expected a postgres:// or postgresql:// URL');
  }
  return raw;
}

try {
  const result = await migrate(databaseUrl());
  process.stdout.write(`${JSON.stringify({ service: 'migrate', event: 'migrated', ...result })}\n`);
} catch (err) {
  const e = err as { code?: string; message?: string };
  process.stderr.write(
    `${JSON.stringify({ service: 'migrate', event: 'migrate_failed', code: e.code, message: e.message ?? String(err) })}\n`,
  );
  process.exitCode = 1;
}
