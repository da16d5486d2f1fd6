/** The home page's one inline style; the Content-Security-Policy allows it by its hash. */
export const HOME_PAGE_STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 42rem; margin: 3rem auto; padding: 0 1rem; color: #1d2b22; }
  h1 { color: #0b6e3b; }
  code { background: #eef3ef; padding: 0 .25rem; border-radius: 3px; }
`;

/**
 * The lobby's front page when it serves no web client (FELT_WEB_DIST unset, or no build there): what
 * Felt is, and where its API is described. Static, so it needs no escaping.
 */
export function homePage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Felt</title>
<style>${HOME_PAGE_STYLE}</style>
</head>
<body>
<h1>Felt</h1>
<p>Felt is a server-authoritative poker table cluster. Players sit at many concurrent tables from a
browser or any WebSocket client; the server deals, keeps every rule and every chip, and proves each
deck was fixed before the first card.</p>
<p>This is the lobby: accounts, rooms, seats and buy-ins over HTTP. Live play happens over WebSocket
on the gateways listed at <a href="/api/config"><code>/api/config</code></a>.</p>
<ul>
  <li><a href="/openapi.json">OpenAPI description of the lobby API</a> (<code>/openapi.json</code>)</li>
  <li>Sign up with <code>POST /api/auth/signup</code>, create a room with <code>POST /api/rooms</code>,
  join one by its six-digit code with <code>POST /api/rooms/join</code>.</li>
</ul>
</body>
</html>
`;
}
