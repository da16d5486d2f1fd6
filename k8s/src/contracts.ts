/**
 * The environment variable names listed in the "Environment" section of docs/dev/contracts.md: every
 * backticked name in the first column of its tables (a cell may list several, e.g. `LOBBY_HOST`, `LOBBY_PORT`).
 */
export function contractEnvVars(markdown: string): Set<string> {
  const names = new Set<string>();
  let inSection = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (/^## /.test(line)) inSection = /^## Environment\b/.test(line);
    if (!inSection || !line.startsWith('|')) continue;
    const firstCell = line.split('|')[1] ?? '';
    for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1] ?? '');
  }
  names.delete('');
  return names;
}
