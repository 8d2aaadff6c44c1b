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
 *   when first used, and a bundle is deleted only when no live server claims it (`in-use-<pid>`,
 *   written by scripts/start.ts) and it is over an hour old (a start between choosing it and
 *   claiming it).
 *
 * The bundle is made in node_modules/.cache/cutdesk (beside Node's compile cache: like it, it
 * belongs to the checkout, not to a data directory), in a folder named by what it was made
 * from. A manifest lists every input file with its size, modification and change times (a
 * restored file keeps its modification time, never its change time), plus the package manifests
 * and lock files that decide how names resolve, and every file the bundle wrote: an edit,
 * `git pull`, `npm install` or a damaged folder is never taken for current. Where the bundle
 * cannot be made (a read-only or full disk), the server starts from its sources, as before.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isAlive } from '../server/data-dir-lock.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** The server's own entry: what starts when there is no bundle. */
export const SERVER_SOURCE_ENTRY = join(ROOT, 'server', 'main.ts');
/** Where `npm start` keeps the bundle. */
const SERVER_BUNDLE_CACHE = join(ROOT, 'node_modules', '.cache', 'cutdesk');
const MANIFEST = 'server-bundle.json';
const BUNDLE_PREFIX = 'server-bundle-';
/** Packages that read files relative to their own modules, left for Node to load. */
const EXTERNAL = [/^@electric-sql\/pglite(\/|$)/, /^pg(-[a-z-]+)?(\/|$)/, /^pino(-[a-z-]+)?(\/|$)/, /^thread-stream(\/|$)/];

/** Besides the modules read: what decides how their names resolve. */
const RESOLUTION_INPUTS = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json'].map((path) => join(ROOT, path));
/** A bundle nobody claims is kept this long after it was made (a start may be about to claim it). */
const UNCLAIMED_GRACE_MS = 3_600_000;

/** One input file: its path, size, modification and change times when the bundle read it. */
type Stamp = [path: string, size: number, mtimeMs: number, ctimeMs: number];
interface Manifest {
  root: string;
  dir: string;
  inputs: Stamp[];
  /** The files the bundle wrote, relative to its folder. */
  files: string[];
}

/**
 * The file to start the server from: the bundle in `cacheDir`, made first when missing or stale,
 * or the server's sources when it cannot be made (said once on stderr).
 */
export async function serverEntry(cacheDir = SERVER_BUNDLE_CACHE): Promise<string> {
  try {
    const manifest = readManifest(cacheDir);
    if (manifest && bundleIsCurrent(cacheDir, manifest)) return join(cacheDir, manifest.dir, 'main.mjs');
    return await makeBundle(cacheDir);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    console.warn(`Starting the server from its sources: its bundle could not be made (${reason}).`);
    return SERVER_SOURCE_ENTRY;
  }
}

/**
 * Marks the bundle `entry` as used by this process, so that no later build deletes the chunks it
 * has yet to load; a bundle whose every claimant has exited can go.
 */
export function claimBundle(entry: string): void {
  if (entry === SERVER_SOURCE_ENTRY) return;
  try {
    writeFileSync(join(dirname(entry), `in-use-${process.pid}`), '');
  } catch {
    // A read-only cache: nothing will be deleted from it either.
  }
}

/** The manifest, or null when missing or not one (then the bundle is made again). */
function readManifest(cacheDir: string): Manifest | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(join(cacheDir, MANIFEST), 'utf8'));
  } catch {
    return null;
  }
  const manifest = value as Partial<Manifest> | null;
  const isStamp = (stamp: unknown) =>
    Array.isArray(stamp) && stamp.length === 4 && typeof stamp[0] === 'string' && stamp.slice(1).every((n) => typeof n === 'number');
  const valid =
    typeof manifest?.root === 'string' &&
    typeof manifest.dir === 'string' &&
    /^server-bundle-[0-9a-f]{16}$/.test(manifest.dir) &&
    Array.isArray(manifest.inputs) &&
    manifest.inputs.length > 0 &&
    manifest.inputs.every(isStamp) &&
    Array.isArray(manifest.files) &&
    manifest.files.includes('main.mjs') &&
    manifest.files.every((file) => typeof file === 'string');
  return valid ? (manifest as Manifest) : null;
}

/** Whether the bundle is whole, made for this checkout, from files all unchanged since. */
function bundleIsCurrent(cacheDir: string, manifest: Manifest): boolean {
  if (manifest.root !== ROOT || !bundleIsWhole(join(cacheDir, manifest.dir), manifest.files)) return false;
  return manifest.inputs.every(([path, ...was]) => {
    const now = stampOf(path);
    return now !== null && now.slice(1).every((value, i) => value === was[i]);
  });
}

function bundleIsWhole(dir: string, files: string[]): boolean {
  return files.every((file) => existsSync(join(dir, file)));
}

function stampOf(path: string): Stamp | null {
  try {
    const stat = statSync(path);
    return [path, stat.size, stat.mtimeMs, stat.ctimeMs];
  } catch {
    return null;
  }
}

/** Bundles the server into a folder of `cacheDir` named by its inputs; returns its entry. */
async function makeBundle(cacheDir: string): Promise<string> {
  // Made first: a cache that cannot be written is known before the bundling's seconds.
  mkdirSync(cacheDir, { recursive: true });
  const staging = join(cacheDir, `${BUNDLE_PREFIX}making-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging);
  try {
    return await bundleInto(staging, cacheDir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Bundles the server into `staging`, then moves it to its folder in `cacheDir`. */
async function bundleInto(staging: string, cacheDir: string): Promise<string> {
  const { rolldown } = await import('rolldown');
  const inputs = new Map<string, Stamp>();
  const stamp = (path: string) => {
    const now = stampOf(path);
    if (now) inputs.set(path, now);
  };
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
          if (resolved) stamp(resolved.id);
          return resolved && { id: resolved.id, external: 'absolute' };
        },
        // Each module is stamped as it is read (a file edited during the build is then stale
        // at the next start, not taken for current), and keeps its own place on disk.
        async transform(code, id) {
          if (!isAbsolute(id)) return null;
          stamp(id);
          if (!code.includes('import.meta.')) return null;
          let placed = code
            .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(id).href))
            .replaceAll('import.meta.dirname', JSON.stringify(dirname(id)));
          for (const match of code.matchAll(/import\.meta\.resolve\((?:'([^']+)'|"([^"]+)")\)/g)) {
            const specifier = match[1] ?? match[2]!;
            const resolved = await this.resolve(specifier, id, { skipSelf: true });
            if (!resolved) throw new Error(`${specifier} (import.meta.resolve in ${id}) cannot be resolved`);
            stamp(resolved.id);
            placed = placed.replaceAll(match[0], JSON.stringify(pathToFileURL(resolved.id).href));
          }
          if (placed.includes('import.meta.resolve(')) throw new Error(`${id} resolves a name the bundle cannot know (import.meta.resolve)`);
          // Only words within a line change: the lines, which a stack trace names, stay the source's.
          return { code: placed, map: null };
        },
      },
    ],
  });
  let files: string[];
  try {
    // Source maps beside the chunks: with NODE_OPTIONS=--enable-source-maps a logged stack names
    // the source files and lines. Not on by default: Node then reads every map as it loads the
    // chunks, ≈ 0.1 s of each start (measured).
    const { output } = await build.write({ dir: staging, format: 'esm', entryFileNames: 'main.mjs', chunkFileNames: '[name]-[hash].mjs', sourcemap: true });
    files = output.map((file) => file.fileName).sort();
  } finally {
    await build.close();
  }
  // How it is bundled and how names resolve are inputs too: this file, the bundler's release,
  // the project's and the installed packages' manifests.
  for (const path of [import.meta.filename, join(dirname(fileURLToPath(import.meta.resolve('rolldown'))), '..', 'package.json'), ...RESOLUTION_INPUTS])
    stamp(path);
  const stamps = [...inputs.values()].sort(([a], [b]) => a.localeCompare(b));
  const dir = `${BUNDLE_PREFIX}${createHash('sha256')
    .update(JSON.stringify([ROOT, stamps]))
    .digest('hex')
    .slice(0, 16)}`;
  const target = join(cacheDir, dir);
  if (existsSync(target) && !bundleIsWhole(target, files)) rmSync(target, { recursive: true, force: true });
  try {
    renameSync(staging, target);
  } catch (error) {
    // Another start made the same bundle first: theirs, whole, is used.
    if (!bundleIsWhole(target, files)) throw error;
  }
  const manifest: Manifest = { root: ROOT, dir, inputs: stamps, files };
  const written = join(cacheDir, `${MANIFEST}.${process.pid}`);
  try {
    writeFileSync(written, JSON.stringify(manifest));
    renameSync(written, join(cacheDir, MANIFEST));
  } finally {
    rmSync(written, { force: true });
  }
  removeOldBundles(cacheDir, dir);
  return join(target, 'main.mjs');
}

/**
 * Deletes bundles other than `current` that no live server claims and that are over an hour
 * old, and what a start that died while making one left.
 */
function removeOldBundles(cacheDir: string, current: string): void {
  for (const entry of readdirSync(cacheDir)) {
    const path = join(cacheDir, entry);
    const maker = /^server-bundle-making-(\d+)$/.exec(entry) ?? /^server-bundle\.json\.(\d+)$/.exec(entry);
    if (maker) {
      if (!isAlive(Number(maker[1]))) rmSync(path, { recursive: true, force: true });
      continue;
    }
    if (!entry.startsWith(BUNDLE_PREFIX) || entry === current) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs < UNCLAIMED_GRACE_MS) continue;
      const claimed = readdirSync(path).some((file) => /^in-use-\d+$/.test(file) && isAlive(Number(file.slice('in-use-'.length))));
      if (!claimed) rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone meanwhile (another start cleared it).
    }
  }
}
