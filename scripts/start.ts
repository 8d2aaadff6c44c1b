import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Newest modification time under the paths that make up the web app. */
function newestSource(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

// Build the PWA only when it is missing or older than its sources. It is built beside the
// served folder and swapped in, so a server already running never sees a half-built app.
const webDir = resolve(process.env.WEB_DIR ?? 'dist');
const built = join(webDir, 'index.html');
const sources = ['src', 'workers', 'public', 'index.html', 'vite.config.ts', 'package.json'];
if (!existsSync(built) || statSync(built).mtimeMs < newestSource(sources)) {
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
await import('../server/main.ts');
