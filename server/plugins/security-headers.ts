import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { EMBEDDED_S3_PREFIX } from '../storage/setup.ts';
import { storeListenerPort, storeOriginFor } from '../storage/store-listener.ts';

/** The origin (scheme://host[:port]) of an http(s) address, or null. */
function originOf(address: string | null): string | null {
  if (!address) return null;
  try {
    return new URL(address).origin;
  } catch {
    return null;
  }
}

/**
 * Where the browser talks to object storage when it is not this server's own /s3: the public
 * endpoint, else the external one. Uploads (connect-src), previews, thumbnails and HLS
 * segments (img-src, media-src) come from there.
 */
export function storageOrigins(config: Pick<Config, 'storage'>): string[] {
  const { storage } = config;
  const origin = originOf(storage.publicEndpoint) ?? (storage.mode === 'external' ? originOf(storage.endpoint) : null);
  if (!origin) return [];
  // Virtual-hosted buckets are addressed as bucket.host: allow that name too.
  if (!storage.forcePathStyle) {
    const url = new URL(origin);
    return [origin, `${url.protocol}//${storage.bucket}.${url.host}`];
  }
  return [origin];
}

/**
 * The app's Content-Security-Policy: only this origin's scripts run (the built PWA has no inline
 * script), nothing may frame the app, and the page may reach only this server and the object
 * store. So a slip that lets text into the page cannot run code that reads the session token.
 */
/**
 * reCAPTCHA v3, when configured: Google's script, its frame and its calls (Google's own CSP
 * advice, narrowed to the /recaptcha/ paths). Without a site key nothing of Google's may load.
 */
function recaptchaSources(config: Pick<Config, 'recaptchaSiteKey'>): { script: string[]; frame: string[]; connect: string[] } {
  if (!config.recaptchaSiteKey) return { script: [], frame: [], connect: [] };
  return {
    script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
    frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
    connect: ['https://www.google.com/recaptcha/'],
  };
}

/**
 * Stripe.js, when Stripe takes the payments: its script, the card field's frames and its API
 * (Stripe's CSP guide). Card numbers are typed into Stripe's frame and never reach our page or
 * server; with the embedded gateway nothing of Stripe's may load.
 */
function stripeSources(config: Pick<Config, 'billing'>): { script: string[]; frame: string[]; connect: string[] } {
  if (config.billing.provider !== 'stripe') return { script: [], frame: [], connect: [] };
  return { script: ['https://js.stripe.com'], frame: ['https://js.stripe.com', 'https://hooks.stripe.com'], connect: ['https://api.stripe.com'] };
}

export function contentSecurityPolicy(config: Pick<Config, 'storage' | 'publicUrl' | 'recaptchaSiteKey' | 'billing'>): Record<string, string[]> {
  const storage = storageOrigins(config);
  const recaptcha = recaptchaSources(config);
  const stripe = stripeSources(config);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...recaptcha.script, ...stripe.script],
    // React sets style attributes and jsPDF/html2canvas add style elements; styles cannot read the token.
    'style-src': ["'self'", "'unsafe-inline'"],
    // data: for small inline images and fonts, blob: for previews made in the page.
    'img-src': ["'self'", 'data:', 'blob:', ...storage],
    'font-src': ["'self'", 'data:'],
    // hls.js feeds the video element through MediaSource (blob:); previews play from storage.
    'media-src': ["'self'", 'blob:', ...storage],
    // Uploads and downloads go straight to the object store.
    'connect-src': ["'self'", ...storage, ...recaptcha.connect, ...stripe.connect],
    // The upload and media workers, the service workers; hls.js may start a worker from a blob.
    'worker-src': ["'self'", 'blob:'],
    // The streamed-download service worker answers a hidden same-origin frame.
    'frame-src': ["'self'", ...recaptcha.frame, ...stripe.frame],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'manifest-src': ["'self'"],
  };
}

/** Headers Fastify itself sets; everything else a probe answer carries comes from helmet. */
const OWN_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * The headers @fastify/helmet sends with `options`, computed once. @fastify/helmet rebuilds
 * helmet's middleware on every request (about 20 µs: half the throughput of a trivial route,
 * bench/edges.ts); with no CSP nonces nothing in them depends on the request, so the plugin
 * answers one probe request at start and its headers are replayed on every answer.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get('/', async () => '');
  const answer = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (!OWN_HEADERS.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}

/** Paths of the embedded object store: `/s3`, `/s3/…`, `/s3?…`. */
const STORE_PATH = new RegExp(`^${EMBEDDED_S3_PREFIX}(?:[/?]|$)`);

/**
 * Security headers on every answer of the app (pages, assets, API, 404s), as @fastify/helmet
 * makes them. The embedded object store at /s3 keeps its own headers: it answers S3 clients and
 * the browser's cross-origin uploads, and a Cross-Origin-Resource-Policy or this CSP there
 * would break presigned GETs used by <video>/<img> from another origin.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const https = config.publicUrl.startsWith('https:');
  const headers = await helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      // Over plain http (local use) there is nothing to upgrade to.
      directives: { ...contentSecurityPolicy(config), ...(https ? { 'upgrade-insecure-requests': [] } : {}) },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // HSTS only when the service is served over https (it is ignored over http anyway).
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    // Not require-corp: presigned media from another origin carries no CORP header.
    crossOriginEmbedderPolicy: false,
  });
  // Issue 14: browsers upload to the embedded store's own port (server/storage/store-listener.ts)
  // at the host they reached the app by, so connect-src names that origin: one header set per
  // host, made once (a bounded cache: the Host header is the client's to choose).
  const withStore = new Map<string, Record<string, string>>();
  const headersFor = (store: string): Record<string, string> => {
    let answer = withStore.get(store);
    if (!answer) {
      if (withStore.size >= 32) withStore.clear();
      const csp = headers['content-security-policy'];
      answer = csp ? { ...headers, 'content-security-policy': csp.replace("connect-src 'self'", `connect-src 'self' ${store}`) } : headers;
      withStore.set(store, answer);
    }
    return answer;
  };
  app.addHook('onRequest', async (request, reply) => {
    if (STORE_PATH.test(request.url)) return;
    const store = storeListenerPort(app) === null ? null : storeOriginFor(app, request);
    reply.headers(store ? headersFor(store) : headers);
  });
}
