/**
 * Imported by the generated service worker (vite.config.ts, workbox.importScripts). The service
 * worker answers only same-origin GETs: the precached app shell, built files under /assets/ and
 * navigations. Every other request of a page still woke it for a fetch event it let pass: every
 * API call, every upload to the store. Static routes (Chromium 123+) send those straight to the
 * network, without starting or waking the service worker (issue 14). Chromium applies them to a
 * page's requests, not to a worker's: the upload worker gets a scope of its own instead
 * (upload-worker-sw.js). Where the API is missing nothing changes.
 */
self.addEventListener('install', (event) => {
  if (typeof event.addRoutes !== 'function') return;
  const network = (condition) => ({ condition, source: 'network' });
  const rules = [
    ...['POST', 'PUT', 'PATCH', 'DELETE'].map((requestMethod) => network({ requestMethod })),
    network({ urlPattern: { pathname: '/api/*' } }),
    network({ urlPattern: { pathname: '/s3/*' } }),
  ];
  // Any other origin (the object store's port, a presigned download): `not` came after the rest
  // of the API, so a browser without it keeps the rules above.
  const here = new URL(self.registration.scope);
  const otherOrigins = network({ not: { urlPattern: { protocol: here.protocol.slice(0, -1), hostname: here.hostname, port: here.port } } });
  event.waitUntil(
    Promise.resolve()
      .then(() => event.addRoutes([...rules, otherOrigins]))
      .catch(() => event.addRoutes(rules))
      // Routes are an optimisation: an install must never fail for them.
      .catch(() => undefined),
  );
});
