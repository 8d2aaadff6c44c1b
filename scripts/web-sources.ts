import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the built web app is made from: a build older than any of these is rebuilt. */
const WEB_SOURCES = ['src', 'workers', 'public', 'index.html', 'vite.config.ts', 'scripts/prerender-plugin.ts', 'package.json'];

/** Whether the web app built in `webDir` is there and newer than every file it is made from (paths from the repository root). */
export function webBuildIsCurrent(webDir: string, root = '.'): boolean {
  const built = join(webDir, 'index.html');
  return existsSync(built) && statSync(built).mtimeMs >= newestSource(WEB_SOURCES.map((path) => join(root, path)));
}

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
