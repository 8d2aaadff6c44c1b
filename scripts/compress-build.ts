import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * Issue 14 "First load": the built app is sent compressed. Every text file (and font) of the build gets a
 * brotli (`.br`) and a gzip (`.gz`) sibling at the highest levels, made once here instead of on
 * every request; the server's static handler (@fastify/static `preCompressed`) picks the one the
 * browser accepts and says `Vary: Accept-Encoding`. It runs after the whole build (the service
 * worker included), so nothing the PWA plugin writes last is missed; the precache lists only the
 * plain files (its patterns end in .js/.css/.html), the browser decodes what it fetches.
 */

/** Text, and the fonts jsPDF embeds (uncompressed TrueType tables). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|ttf)$/;
/** Below this a compressed copy saves less than the extra header costs. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Writes `.br` and `.gz` beside every text file of `dir` worth compressing; answers how many files. */
export async function compressBuild(dir: string): Promise<number> {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.test(file));
  let compressed = 0;
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < MIN_BYTES) return;
      const bytes = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
        gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      // A copy that is not smaller would only cost a file read.
      if (br.length < bytes.length) await writeFile(`${file}.br`, br);
      if (gz.length < bytes.length) await writeFile(`${file}.gz`, gz);
      compressed += 1;
    }),
  );
  return compressed;
}

if (import.meta.main) {
  const dir = resolve(process.argv[2] ?? 'dist');
  console.log(`compressed ${await compressBuild(dir)} files of ${dir}`);
}
