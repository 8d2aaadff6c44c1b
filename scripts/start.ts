import { existsSync, renameSync, rmSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { webBuildIsCurrent } from './web-sources.ts';

// Issue 14: Node keeps what it compiled (the server's TypeScript with its types stripped, and
// the bytecode of every module) for the next start: the server's ~1,300 modules load in about
// 60 % of the time. Beside the database image, in node_modules/.cache/cutdesk; NODE_COMPILE_CACHE
// still chooses another place. The cache checks each file's content: an edit is never missed.
enableCompileCache(resolve(import.meta.dirname, '..', 'node_modules', '.cache', 'cutdesk', 'node-compile-cache'));

// Settings that cannot start, and a data directory `npm run move-data` moved, are refused before
// the web app is built (up to half a minute), not after; server/main.ts checks again itself.
{
  const { ConfigError, loadConfig } = await import('../server/config.ts');
  const { movedStartRefusalFor, startForced } = await import('../server/ops/move-data/marker.ts');
  try {
    const config = loadConfig();
    const moved = movedStartRefusalFor(config);
    if (moved && !startForced(process.argv, process.env)) {
      console.error(moved);
      process.exit(1);
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

// Build the PWA only when it is missing or older than its sources. It is built beside the
// served folder and swapped in, so a server already running never sees a half-built app.
const webDir = resolve(process.env.WEB_DIR ?? 'dist');
if (!webBuildIsCurrent(webDir)) {
  console.log('Building the web app…');
  const { build } = await import('vite');
  const staging = `${webDir}.building-${process.pid}`;
  await build({ logLevel: 'warn', build: { outDir: staging, emptyOutDir: true } });
  const { compressBuild } = await import('./compress-build.ts');
  await compressBuild(staging);
  const retired = `${webDir}.old-${process.pid}`;
  if (existsSync(webDir)) renameSync(webDir, retired);
  renameSync(staging, webDir);
  rmSync(retired, { recursive: true, force: true });
}
// Issue 34: the server starts from its bundle (scripts/server-bundle.ts), made here when missing
// or stale: its ~1,100 modules took over half of a start on existing data to load.
{
  const { claimBundle, serverEntry } = await import('./server-bundle.ts');
  const entry = await serverEntry();
  claimBundle(entry);
  await import(pathToFileURL(entry).href);
}
