/**
 * The server as a handful of bundled files (issue 34 "Start-up"). Started from its sources, the
 * server loads about 1,100 modules (Kysely alone is 257 files); resolving, reading and linking
 * them was over half of a start on existing data. `npm start` bundles the server with Rolldown
 * (the bundler Vite already builds the web app with) when the bundle is missing or older than
 * any file it was made from, and starts the bundle.
 *
 * What stays the same as a start from the sources:
 * - every source file keeps its own `import.meta.url` and `import.meta.dirname` (they are
 *   written into the bundle as the file's own place), so a file found beside a source file
 *   (the migrations' folder, the PDF fonts, the PGlite thread's script) is found as before;
 * - packages that find files beside their own modules stay with Node (PGlite's WebAssembly, pg,
 *   pino's transport workers);
 * - a lazily imported module (the Stripe provider, the PDF of comments) stays a chunk loaded
 *   when first used, and the bundle a running server was started from is never deleted under
 *   it (the newest two are kept).
 *
 * The bundle is made in node_modules/.cache/cutdesk (beside Node's compile cache: like it, it
 * belongs to the checkout, not to a data directory), in a folder named by what it was made from; a manifest lists
 * every input file with its size and modification time, so an edit, `git pull` or `npm install`
 * is never missed. Where the bundle cannot be made (Rolldown is a development package, absent
 * after `npm install --omit=dev`), the server starts from its sources, as before.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');
/** The server's own entry: what starts when there is no bundle. */
export const SERVER_SOURCE_ENTRY = join(ROOT, 'server', 'main.ts');
/** Where `npm start` keeps the bundle. */
const SERVER_BUNDLE_CACHE = join(ROOT, 'node_modules', '.cache', 'cutdesk');
const MANIFEST = 'server-bundle.json';
const BUNDLE_PREFIX = 'server-bundle-';
/** Packages that read files relative to their own modules, left for Node to load. */
const EXTERNAL = [/^@electric-sql\/pglite(\/|$)/, /^pg(-[a-z-]+)?(\/|$)/, /^pino(-[a-z-]+)?(\/|$)/, /^thread-stream(\/|$)/];

/** One input file: its path, size and modification time when the bundle read it. */
type Stamp = [path: string, size: number, mtimeMs: number];
interface Manifest {
  root: string;
  dir: string;
  inputs: Stamp[];
}

/**
 * The file to start the server from: the bundle in `cacheDir`, made first when missing or stale,
 * or the server's sources when it cannot be made (said once on stderr).
 */
export async function serverEntry(cacheDir = SERVER_BUNDLE_CACHE): Promise<string> {
  const manifest = readManifest(cacheDir);
  if (manifest && bundleIsCurrent(cacheDir, manifest)) return join(cacheDir, manifest.dir, 'main.mjs');
  try {
    return await makeBundle(cacheDir, manifest?.dir);
  } catch (error) {
    console.warn(`Starting the server from its sources: its bundle could not be made (${error instanceof Error ? error.message : String(error)}).`);
    return SERVER_SOURCE_ENTRY;
  }
}

function readManifest(cacheDir: string): Manifest | null {
  try {
    return JSON.parse(readFileSync(join(cacheDir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

/** Whether the bundle is there, made for this checkout, from files all unchanged since. */
function bundleIsCurrent(cacheDir: string, manifest: Manifest): boolean {
  if (manifest.root !== ROOT || !existsSync(join(cacheDir, manifest.dir, 'main.mjs'))) return false;
  return manifest.inputs.every(([path, size, mtimeMs]) => {
    const now = stampOf(path);
    return now !== null && now[1] === size && now[2] === mtimeMs;
  });
}

function stampOf(path: string): Stamp | null {
  try {
    const stat = statSync(path);
    return [path, stat.size, stat.mtimeMs];
  } catch {
    return null;
  }
}

/** Bundles the server into a folder of `cacheDir` named by its inputs; returns its entry. */
async function makeBundle(cacheDir: string, previousDir: string | undefined): Promise<string> {
  const { rolldown } = await import('rolldown');
  const inputs = new Map<string, Stamp>();
  const build = await rolldown({
    input: SERVER_SOURCE_ENTRY,
    platform: 'node',
    logLevel: 'warn',
    plugins: [
      {
        name: 'cutdesk-source-places',
        // A package left to Node is imported by its resolved path, as the source file found it,
        // wherever the bundle is kept.
        async resolveId(source, importer) {
          if (!EXTERNAL.some((pattern) => pattern.test(source))) return null;
          const resolved = await this.resolve(source, importer, { skipSelf: true });
          return resolved && { id: resolved.id, external: 'absolute' };
        },
        // Each module is stamped as it is read (a file edited during the build is then stale
        // at the next start, not taken for current), and keeps its own place on disk.
        async transform(code, id) {
          if (!isAbsolute(id)) return null;
          const stamp = stampOf(id);
          if (stamp) inputs.set(id, stamp);
          if (!code.includes('import.meta.')) return null;
          let placed = code
            .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(id).href))
            .replaceAll('import.meta.dirname', JSON.stringify(dirname(id)));
          for (const match of code.matchAll(/import\.meta\.resolve\((?:'([^']+)'|"([^"]+)")\)/g)) {
            const specifier = match[1] ?? match[2]!;
            const resolved = await this.resolve(specifier, id, { skipSelf: true });
            if (!resolved) throw new Error(`${specifier} (import.meta.resolve in ${id}) cannot be resolved`);
            placed = placed.replaceAll(match[0], JSON.stringify(pathToFileURL(resolved.id).href));
          }
          if (placed.includes('import.meta.resolve(')) throw new Error(`${id} resolves a name the bundle cannot know (import.meta.resolve)`);
          // Only words within a line change: the lines, which a stack trace names, stay the source's.
          return { code: placed, map: null };
        },
      },
    ],
  });
  mkdirSync(cacheDir, { recursive: true });
  const staging = join(cacheDir, `${BUNDLE_PREFIX}making-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    // Source maps beside the chunks: with NODE_OPTIONS=--enable-source-maps a logged stack names
    // the source files and lines. Not on by default: Node then reads every map as it loads the
    // chunks, ≈ 0.1 s of each start (measured).
    await build.write({ dir: staging, format: 'esm', entryFileNames: 'main.mjs', chunkFileNames: '[name]-[hash].mjs', sourcemap: true });
  } finally {
    await build.close();
  }
  // How it is bundled is an input too: this file and the bundler's release.
  for (const path of [import.meta.filename, join(dirname(fileURLToPath(import.meta.resolve('rolldown'))), '..', 'package.json')]) {
    const stamp = stampOf(path);
    if (stamp) inputs.set(path, stamp);
  }
  const stamps = [...inputs.values()].sort(([a], [b]) => a.localeCompare(b));
  const dir = `${BUNDLE_PREFIX}${createHash('sha256')
    .update(JSON.stringify([ROOT, stamps]))
    .digest('hex')
    .slice(0, 16)}`;
  try {
    renameSync(staging, join(cacheDir, dir));
  } catch {
    // Another start made the same bundle first: theirs is used.
    rmSync(staging, { recursive: true, force: true });
  }
  const manifest: Manifest = { root: ROOT, dir, inputs: stamps };
  const written = join(cacheDir, `${MANIFEST}.${process.pid}`);
  writeFileSync(written, JSON.stringify(manifest));
  renameSync(written, join(cacheDir, MANIFEST));
  removeOldBundles(cacheDir, [dir, previousDir]);
  return join(cacheDir, dir, 'main.mjs');
}

/** Deletes bundles other than `keep` (the new one and the one a running server may use). */
function removeOldBundles(cacheDir: string, keep: (string | undefined)[]): void {
  for (const entry of readdirSync(cacheDir)) {
    if (!entry.startsWith(BUNDLE_PREFIX) || keep.includes(entry)) continue;
    const maker = /^server-bundle-making-(\d+)$/.exec(entry);
    if (maker && processIsAlive(Number(maker[1]))) continue;
    rmSync(join(cacheDir, entry), { recursive: true, force: true });
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// `node scripts/server-bundle.ts` (part of `npm run build`): the bundle made ahead of the first start.
if (import.meta.main) console.log(`The server starts from ${await serverEntry()}`);
