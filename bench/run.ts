/** `npm run bench [name…]`: runs the benchmarks (all by default) and prints their figures. */
import { benchApi } from './api.ts';
import { benchComplete } from './complete.ts';
import { benchDownloadCeiling } from './download-ceiling.ts';
import { benchFirstLoad } from './first-load.ts';
import { benchFirstPaint } from './first-paint.ts';
import { benchLighthouse } from './lighthouse.ts';
import { benchPgliteLoad } from './pglite-load.ts';
import { benchRendererFloor } from './renderer-floor.ts';
import { benchReview } from './review.ts';
import { benchServerMemory } from './server-memory.ts';
import { benchStartup } from './startup.ts';
import { benchStoreIngest } from './store-ingest.ts';
import { benchSwRoutes } from './sw-routes.ts';
import { benchUnusedJs } from './unused-js.ts';
import { benchUpload } from './upload.ts';
import { benchUploadBrowser } from './upload-browser.ts';
import { benchUploadFolder } from './upload-folder.ts';
import { benchZip } from './zip.ts';
import { benchZipBrowser } from './zip-browser.ts';

const BENCHES: Record<string, () => Promise<Record<string, unknown>>> = {
  api: benchApi,
  'pglite-load': benchPgliteLoad,
  zip: benchZip,
  'zip-browser': benchZipBrowser,
  'download-ceiling': benchDownloadCeiling,
  upload: benchUpload,
  'upload-browser': benchUploadBrowser,
  'upload-folder': benchUploadFolder,
  'renderer-floor': benchRendererFloor,
  'first-load': benchFirstLoad,
  'sw-routes': benchSwRoutes,
  complete: benchComplete,
  'store-ingest': benchStoreIngest,
  'first-paint': benchFirstPaint,
  'unused-js': benchUnusedJs,
  lighthouse: benchLighthouse,
  review: benchReview,
  startup: benchStartup,
  'server-memory': benchServerMemory,
};

const wanted = process.argv.slice(2).filter((name) => name in BENCHES);
for (const name of wanted.length ? wanted : Object.keys(BENCHES)) {
  console.log(`\n== bench/${name}`);
  const figures = await BENCHES[name]!();
  console.log(JSON.stringify(figures, null, 2));
}
