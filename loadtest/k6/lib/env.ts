// Settings come from `k6 run -e NAME=value` (or the environment); each is checked at init so that a
// typo fails the run before any VU starts rather than producing a meaningless result.

export function envString(name: string, fallback?: string): string {
  const raw = __ENV[name];
  if (raw !== undefined && raw.trim() !== '') return raw.trim();
  if (fallback !== undefined) return fallback;
  throw new Error(`set ${name} (k6 run -e ${name}=...)`);
}

export function envInt(name: string, fallback: number, min: number, max: number): number {
  const raw = __ENV[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new Error(`${name}: expected a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new Error(`${name}: expected ${min}..${max}, got ${n}`);
  return n;
}

/** `value` without trailing slashes, if it is a URL with one of `schemes`; throws naming `label` otherwise. */
export function checkUrl(label: string, value: string, schemes: readonly string[]): string {
  const scheme = /^([a-z]+):\/\/[^/]/.exec(value)?.[1];
  if (scheme === undefined || !schemes.includes(scheme)) {
    throw new Error(`${label}: expected a ${schemes.join(' or ')} URL, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

export function envUrl(name: string, schemes: readonly string[], fallback?: string): string {
  return checkUrl(name, envString(name, fallback), schemes);
}

/** `scheme://host[:port]` of a URL (k6 has no URL class without a remote module). */
export function originOf(url: string): string {
  const m = /^([a-z]+:\/\/[^/?#]+)/.exec(url);
  if (!m?.[1]) throw new Error(`not a URL: ${url}`);
  return m[1];
}
