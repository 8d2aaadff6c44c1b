import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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

// Build the PWA only when it is missing or older than its sources.
const built = join(process.env.WEB_DIR ?? 'dist', 'index.html');
const sources = ['src', 'workers', 'public', 'index.html', 'vite.config.ts', 'package.json'];
if (!existsSync(built) || statSync(built).mtimeMs < newestSource(sources)) {
  console.log('Building the web app…');
  const { build } = await import('vite');
  await build({ logLevel: 'warn' });
}
await import('../server/main.ts');
