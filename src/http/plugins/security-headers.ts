// Security headers on every response (helmet's): no MIME sniffing, no framing by other sites, a content security
// policy the API reference (/api/docs) and the web app work under, and HSTS when the service is served over TLS (its
// BASE_URL is https). They are the same for every answer, so helmet runs once, at start, and every request gets the
// headers it set (@fastify/helmet built helmet's middlewares again on every request: a third of an NFT read's time).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../../config.ts';

/** HSTS lifetime: 180 days, the common minimum for preload-grade policies. */
export const HSTS_MAX_AGE_S = 15_552_000;

type Directives = Record<string, string[]>;

/** The content security policy of every answer: scripts and styles only from the service's own files. */
function directivesOf(config: Pick<Config, 'baseUrl'>, chain: { local: boolean; rpcUrl: string }): Directives {
  // The local chain's RPC is another origin (anvil's port); the web app's development wallets talk to it directly.
  const connect = ["'self'", ...(chain.local ? [new URL(chain.rpcUrl).origin] : [])];
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    // Company logos are links to anywhere on the web; data: for small inline images (the docs' icons).
    'img-src': ["'self'", 'data:', 'https:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': connect,
    ...(config.baseUrl.startsWith('https://') ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

function helmetOptions(config: Pick<Config, 'baseUrl'>, chain: { local: boolean; rpcUrl: string }): HelmetOptions {
  const tls = config.baseUrl.startsWith('https://');
  return {
    contentSecurityPolicy: { useDefaults: false, directives: directivesOf(config, chain) },
    // Marketplaces and wallets show the card images and metadata from their own origins.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: tls ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: true } : false,
  };
}

/** The headers helmet sets with the service's options, by lower-case name: what every answer carries. */
export function securityHeaders(
  config: Pick<Config, 'baseUrl'>,
  chain: { local: boolean; rpcUrl: string },
): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: () => {},
  };
  let failed: unknown;
  helmet(helmetOptions(config, chain))({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  return headers;
}

/**
 * The policy of the API reference pages (@fastify/swagger-ui sets it on its own routes): the same, except that
 * Swagger UI's bundle injects a `<style>` element, so styles may be inline there. Scripts stay the service's own
 * files only; an inline style cannot run code, and the page holds no secret to exfiltrate.
 */
export function docsContentSecurityPolicy(
  config: Pick<Config, 'baseUrl'>,
  chain: { local: boolean; rpcUrl: string },
): string {
  const directives = directivesOf(config, chain);
  directives['style-src'] = ["'self'", "'unsafe-inline'"];
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');
}

/**
 * helmet's headers that act only on a document a browser renders (a page, its links, its windows and frames): they
 * change nothing on an API answer (JSON, an SVG or a stream, which opens no window and follows no link), which keeps
 * the rest. A browser reads `X-XSS-Protection`, `X-DNS-Prefetch-Control`, `Origin-Agent-Cluster`,
 * `Cross-Origin-Opener-Policy` and `Referrer-Policy` from an HTML document only; `X-Download-Options` is Internet
 * Explorer 8's and `X-Permitted-Cross-Domain-Policies` Flash's and Acrobat's, neither of which reads this API. Every
 * answer of the API costs a write and a parse per header: an NFT document carried 21 for its 622 bytes.
 */
export const DOCUMENT_ONLY_HEADERS: readonly string[] = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/**
 * The content security policy of the API's answers: nothing loads, runs or frames from them. Stricter than the pages'
 * policy and a fifth of its length: an API answer opened as a document (a card's SVG in a tab, JSON in a viewer) needs
 * no script, style sheet, font, image or connection (the card's SVG draws with presentation attributes and the
 * system's fonts). The pages' policy names the sources the web app and the reference load.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Whether a request path is the API's (its answers JSON, SVG or a stream), not a page: /api/docs is a page. */
export const isApiPath = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

/**
 * The two fixed sets of headers: `all` on the web app's pages and files and the API reference, `api` on the API's
 * answers (no document-only header, the API's own policy). `also`: the answers' other fixed headers (CORS).
 */
export function answerHeaderSets(
  config: Pick<Config, 'baseUrl'>,
  chain: { local: boolean; rpcUrl: string },
  also?: Readonly<Record<string, string>>,
): { all: Record<string, string>; api: Record<string, string> } {
  const all = { ...securityHeaders(config, chain), ...also };
  const api = {
    ...Object.fromEntries(Object.entries(all).filter(([name]) => !DOCUMENT_ONLY_HEADERS.includes(name))),
    'content-security-policy': API_CONTENT_SECURITY_POLICY,
  };
  return { all, api };
}

/**
 * Sets the headers on every answer, errors, 404s and 429s included: register it before the other plugins. Computed
 * once, with the answers' other fixed headers (`also`: the CORS ones), and set in one call from one callback hook, so
 * no promise per request: the whole set on the web app's pages and files and the API reference; on the API's answers
 * the set without the document-only headers (DOCUMENT_ONLY_HEADERS) and with the API's policy
 * (API_CONTENT_SECURITY_POLICY). Routes that need another policy set their own
 * later (the API reference's, docsContentSecurityPolicy).
 */
export default fp<{
  config: Pick<Config, 'baseUrl'>;
  chain: { local: boolean; rpcUrl: string };
  also?: Readonly<Record<string, string>>;
}>(
  async (app: FastifyInstance, { config, chain, also }) => {
    const { all, api } = answerHeaderSets(config, chain, also);
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(isApiPath(request.url) ? api : all);
      done();
    });
  },
  { name: 'security-headers' },
);
