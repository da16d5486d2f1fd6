import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { ApiErrorCode } from './errors.js';
import { HOME_PAGE_STYLE } from './home-page.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface OriginPolicy {
  /** Origins whose pages may send state-changing requests, besides the lobby's own (FELT_ALLOWED_ORIGINS). */
  readonly allowedOrigins: readonly string[];
}

/**
 * CSRF protection for `/api`: a state-changing request (anything but GET, HEAD and OPTIONS) from a
 * browser must come from the lobby's own origin (its Origin's host is the Host it was sent to, or
 * the browser says `Sec-Fetch-Site: same-origin`) or from an allowed origin. Browsers send Origin on
 * every cross-site POST, PUT, PATCH and DELETE and set Sec-Fetch-* themselves, and pages cannot forge
 * either; a request with neither header is not from a browser (the SDK, bots, load tools), and a
 * web page cannot make one, so it goes on to the usual session check.
 */
export function originCheck(policy: OriginPolicy): MiddlewareHandler {
  const allowed = new Set(policy.allowedOrigins);
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    const fetchSite = c.req.header('sec-fetch-site');
    if (fetchSite === 'same-origin') return next();
    if (origin === undefined) {
      // No Origin from a browser that says the request is cross-site: refuse rather than guess.
      if (fetchSite === 'cross-site' || fetchSite === 'same-site') return refuse(c);
      return next();
    }
    if (allowed.has(origin) || isOwnOrigin(origin, c.req.header('host'))) return next();
    return refuse(c);
  };
}

function isOwnOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase();
  } catch {
    // "null" (sandboxed frames, file:// pages) and anything else that is not an origin.
    return false;
  }
}

function refuse(c: Parameters<MiddlewareHandler>[0]) {
  return c.json(
    {
      error: {
        code: ApiErrorCode.ORIGIN_NOT_ALLOWED,
        message: 'this request came from a page on another site; it was refused',
      },
    },
    403,
  );
}

/** `ws://127.0.0.1:8081/ws` → `ws://127.0.0.1:8081`: what connect-src lists. */
function sourceOf(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
}

export interface SecurityHeaderOptions {
  /** FELT_GATEWAY_URLS: the web client opens its WebSockets there. */
  readonly gatewayUrls: readonly string[];
  /** FELT_COOKIE_SECURE: served over HTTPS, so HSTS too. */
  readonly https: boolean;
}

/**
 * Headers on every response. The Content-Security-Policy fits the web client (packages/web): its
 * scripts, styles and fonts come from the lobby itself, its icon is a data: URL, it talks to the
 * lobby's /api and to the gateways' WebSockets, and no page may frame it. The plain home page's one
 * inline style is allowed by its hash.
 */
export function securityHeaders(options: SecurityHeaderOptions): MiddlewareHandler {
  const homeStyle = `'sha256-${createHash('sha256').update(HOME_PAGE_STYLE).digest('base64')}'`;
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", homeStyle],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", ...new Set(options.gatewayUrls.map(sourceOf))],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: 'DENY',
    xContentTypeOptions: true,
    referrerPolicy: 'no-referrer',
    strictTransportSecurity: options.https ? 'max-age=31536000; includeSubDomains' : false,
    // The reveal record opens in a new tab from the web client; nothing else needs cross-origin reads.
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin',
  });
}
