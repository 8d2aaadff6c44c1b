import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { prerenderPages } from './scripts/prerender-plugin.ts';

/**
 * jsPDF loads html2canvas, canvg (with its core-js polyfills) and DOMPurify with dynamic
 * imports, for `html()` and SVG, which Cutdesk never calls: about 385 KB the build would emit and
 * the service worker precache. Here those imports resolve to a module that throws, so none of
 * them is bundled. Applied to the page and to the worker bundles (the media worker holds jsPDF).
 */
const JSPDF_UNUSED = new Set(['html2canvas', 'canvg', 'dompurify']);
const STUB = '\0jspdf-unused:';
function jspdfWithoutOptionalChunks(): Plugin {
  return {
    name: 'cutdesk:jspdf-without-optional-chunks',
    enforce: 'pre',
    resolveId(id) {
      return JSPDF_UNUSED.has(id) ? `${STUB}${id}` : null;
    },
    load(id) {
      if (!id.startsWith(STUB)) return null;
      return `throw new Error(${JSON.stringify(`${id.slice(STUB.length)} is left out of the Cutdesk build (jsPDF html()/SVG are not used).`)});`;
    },
  };
}

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  worker: { format: 'es', plugins: () => [jspdfWithoutOptionalChunks()] },
  // The manifest (dist/.vite/manifest.json) tells which chunk holds which page: the e2e test of
  // lazy chunks and bench/first-load read it.
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    manifest: true,
    // What every page needs at start (React, the router, the session, the sign-in pages) is one
    // chunk instead of a dozen small shared ones; the portals and heavy screens stay lazy chunks.
    rolldownOptions: {
      // Rolldown warns when plugin callbacks outlast the build: the service worker's generation
      // and the sign-in pages' prerender (issue 34) always do, and the suite times the build anyway.
      checks: { pluginTimings: false },
      output: {
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'], test: (id) => !id.endsWith('/src/app/main.tsx') && !id.includes('index.html') }] },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
  plugins: [
    jspdfWithoutOptionalChunks(),
    react(),
    prerenderPages(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        id: '/',
        name: 'Cutdesk',
        short_name: 'Cutdesk',
        description: 'Order, upload, review and approve produced videos.',
        theme_color: '#464A4F',
        background_color: '#f4f6f8',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        screenshots: [
          { src: '/screenshots/projects-wide.png', sizes: '1440x900', type: 'image/png', form_factor: 'wide', label: 'Your video projects in Cutdesk' },
        ],
      },
      workbox: {
        // The app shell: what every page and offline start need (the manifest's icons are added
        // by the plugin). Issue 14: what only some screens use — the video player's hls.js, the
        // media worker with jsPDF and its fonts, jsPDF's left-out stubs — is not fetched on the
        // first visit; it is cached when first used (the runtime rule below), so it works
        // offline from then on.
        globPatterns: ['**/*.{js,css,html,svg,woff2}'],
        // The install dialog's screenshot is fetched by the browser when it shows the dialog.
        // The prerendered sign-in pages are for a first visit: the installed app starts from index.html.
        globIgnores: [
          'prerendered/**',
          'sw-routes.js',
          'upload-worker-sw.js',
          'screenshots/**',
          'assets/hls-*.js',
          'assets/media.worker-*.js',
          'assets/_jspdf-unused_*.js',
        ],
        runtimeCaching: [
          {
            // Hashed build files never change, so the first copy fetched is kept.
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: 'cutdesk-assets-on-use', expiration: { maxEntries: 80, maxAgeSeconds: 60 * 60 * 24 * 90 } },
          },
        ],
        // Requests the service worker never answers go straight to the network (static routes).
        importScripts: ['sw-routes.js'],
        navigateFallback: '/index.html',
        // The API and the object store are never served from the cache.
        navigateFallbackDenylist: [/^\/api\//, /^\/s3\//],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
    }),
  ],
});
