/**
 * The Content-Security-Policy headers the server sends with HTML: the web app's, whose images may
 * come from the map tile server (MAP_TILE_URL), and the API docs' (`/v1/docs`). A tile URL reaches
 * the header only through `tileOrigins`, after `tileTemplateProblem` found it a plain template at
 * start-up: a `;` in it would have added a directive, `user:pw@host` put a password in every
 * answer, and `{s}` became `https://*` (issue 30).
 */

/** The placeholders Leaflet fills in a tile URL (docs/operations.md "Maps"). */
const PLACEHOLDERS = new Set(['{s}', '{z}', '{x}', '{y}', '{r}']);
const REQUIRED = ['{z}', '{x}', '{y}'];
/** What `{s}` stands for: Leaflet's default subdomains, which the maps use. */
export const TILE_SUBDOMAINS = ['a', 'b', 'c'];
/** Characters that end a CSP source or directive, or quote one; a URL holds none of them. */
const FORBIDDEN = /[\s;,'"`<>\\^|]/;
/** A host name, or an IP address (IPv6 in brackets): never a wildcard. */
const HOST = /^([a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/;

/** The template with its placeholders filled, `{s}` by the given subdomain. */
const filled = (template: string, subdomain: string) =>
  template
    .replaceAll('{s}', subdomain)
    .replaceAll('{r}', '')
    .replace(/\{[xyz]\}/g, '0');

/** Why a MAP_TILE_URL is not a usable tile URL template, or null when it is one. */
export function tileTemplateProblem(template: string): string | null {
  if (FORBIDDEN.test(template)) return 'must hold no whitespace, ;, comma, quote, <, >, \\, ^ or |';
  const braces = template.match(/\{[^{}]*\}/g) ?? [];
  const unknown = braces.find((placeholder) => !PLACEHOLDERS.has(placeholder));
  if (unknown) return `holds ${unknown}: only {s}, {z}, {x}, {y} and {r} are placeholders`;
  if (/[{}]/.test(template.replace(/\{[^{}]*\}/g, ''))) return 'holds a brace outside a placeholder';
  if (!REQUIRED.every((placeholder) => template.includes(placeholder))) return 'must hold {z}, {x} and {y}';
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(template)?.[1] ?? '';
  if (authority.replaceAll('{s}', '').includes('{')) return 'may hold no placeholder but {s} in its host';
  let url: URL;
  try {
    url = new URL(filled(template, TILE_SUBDOMAINS[0]!));
  } catch {
    return 'must be an http(s) URL template such as https://tile.example/{z}/{x}/{y}.png';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with https:// or http://';
  if (url.username || url.password || /^[a-z]+:\/\/[^/]*@/i.test(template))
    return 'must hold no user name or password (they would be sent in every page header)';
  if (!HOST.test(url.hostname)) return `holds a host that is no host name or address (${url.hostname})`;
  return null;
}

/** The origins the tiles of a valid template come from: one per subdomain when its host holds `{s}`. */
export function tileOrigins(template: string): string[] {
  const subdomains = template.includes('{s}') ? TILE_SUBDOMAINS : [''];
  return [...new Set(subdomains.map((subdomain) => new URL(filled(template, subdomain)).origin))];
}

/**
 * The web app loads only its own scripts and styles (no inline ones, docs/decisions.md) and talks
 * only to this server; its images come from it, and the maps' tiles from the tile server; its
 * service worker and manifest are its own files.
 */
export function webCsp(tileUrl: string): string {
  return [
    "default-src 'self'",
    ['img-src', "'self'", 'data:', 'blob:', ...tileOrigins(tileUrl)].join(' '),
    "style-src 'self'",
    "script-src 'self'",
    "connect-src 'self'",
    // The service worker and the installed app's manifest (docs/push.md), both of this server.
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The one inline style of Swagger UI: the `<style>` of its own logo's SVG, allowed by its hash, so
 * nothing else inline passes (`http/security-headers.test.ts` checks the text still has that hash).
 */
export const SWAGGER_LOGO_STYLE = '.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}';
const SWAGGER_LOGO_STYLE_HASH = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/**
 * The API docs (Swagger UI at `/v1/docs`): its own scripts and styles, its logo as a data: image,
 * calls to this server only ("Try it out"), framed by nobody.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'self' ${SWAGGER_LOGO_STYLE_HASH}`,
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
