/**
 * Zips in the media worker: the ZIP format is src/domain/zip-archive.ts (the server writes the
 * raw zip with it too); here each entry's bytes come from a fetch body, read in 1 MiB chunks, and
 * the archive leaves as chunks or a ReadableStream. Runs the same in the browser worker and in
 * Node (bench, tests).
 */
import {
  zipParts as archiveParts,
  type ZipDirectoryEntry,
  type ZipFileEntry as ArchiveFileEntry,
  type ZipPartsOptions as ArchivePartsOptions,
  type ZipPassthrough,
  type ZipProgress,
} from '../src/domain/zip-archive.ts';

export { crc32, safeEntryName, type KnownEntry, type ZipDirectoryEntry, type ZipPassthrough, type ZipProgress } from '../src/domain/zip-archive.ts';

/** An entry whose bytes are a web stream (a fetch body, a file). */
export interface ZipFileEntry extends Omit<ArchiveFileEntry, 'open'> {
  /** Opens the entry's bytes; called when the writer reaches the entry (links fetched late stay fresh). */
  open(): Promise<ReadableStream<Uint8Array>> | ReadableStream<Uint8Array>;
}

export type ZipEntry = ZipFileEntry | ZipDirectoryEntry;

/**
 * Size of the chunks an entry is read in (issue 14). A fetch body arrives in network-sized
 * pieces (often 16–64 KiB); every chunk costs a message and a task at each stream hop after the
 * writer (worker → download service worker → the browser's download, or a file write), so
 * entries are read in 1 MiB chunks: a few such chunks per hop is all the memory a zip holds.
 */
const CHUNK_BYTES = 1024 * 1024;

/**
 * An entry's bytes in chunks of up to CHUNK_BYTES. A byte stream (a fetch body) is read with a
 * BYOB reader straight into each chunk's buffer, so the bytes are copied once, by the stream,
 * as they would be by a default read; any other stream's chunks pass as they come (no copy).
 */
async function* entryChunks(stream: ReadableStream<Uint8Array>, heldChunks?: number): AsyncGenerator<Uint8Array> {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = stream.getReader({ mode: 'byob' });
    // A failed body fails its reads, which the zip reports; its reader's `closed` says it again.
    byob.closed.catch(() => undefined);
  } catch {
    // Not a byte stream.
  }
  // Left early (the archive failed or was cancelled): the rest of the body is not wanted.
  let finished = false;
  if (!byob) {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          finished = true;
          return;
        }
        if (value && value.length > 0) yield value;
      }
    } finally {
      reader.releaseLock();
      if (!finished) void stream.cancel().catch(() => undefined);
    }
  }
  // With `heldChunks` the chunks cycle through that many buffers and one more (see
  // ZipChunksOptions); otherwise each chunk is a new buffer that the reader keeps.
  const ring: ArrayBuffer[] = [];
  try {
    for (;;) {
      let buffer: ArrayBuffer = heldChunks !== undefined && ring.length > heldChunks ? ring.shift()! : new ArrayBuffer(CHUNK_BYTES);
      let filled = 0;
      let done = false;
      while (filled < CHUNK_BYTES) {
        const result = await byob.read(new Uint8Array(buffer, filled, CHUNK_BYTES - filled));
        if (result.value) buffer = result.value.buffer as ArrayBuffer;
        if (result.done) {
          done = true;
          break;
        }
        filled += result.value.byteLength;
      }
      if (done) finished = true;
      if (filled > 0) yield new Uint8Array(buffer, 0, filled);
      if (done) return;
      if (heldChunks !== undefined) ring.push(buffer);
    }
  } finally {
    byob.releaseLock();
    if (!finished) void stream.cancel().catch(() => undefined);
  }
}

export interface ZipChunksOptions {
  /**
   * The most chunks the reader still holds (not yet written and copied by its writer) when it
   * asks for the next: entry data then cycles through that many 1 MiB buffers and one more,
   * instead of a new buffer per chunk. Without it a zip leaves 1 MiB of garbage per MiB read,
   * which the worker's collector let grow by some 200 MiB before reclaiming it (issue 14).
   * 0: the reader is done with each chunk when it asks for the next.
   */
  heldChunks?: number;
}

export interface ZipPartsOptions extends ZipChunksOptions, ArchivePartsOptions {}

const isDirectory = (entry: ZipEntry): entry is ZipDirectoryEntry => (entry as ZipDirectoryEntry).directory === true;

/** The entries with their bytes read by `entryChunks`. */
async function* chunked(
  entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>,
  heldChunks: number | undefined,
): AsyncGenerator<ArchiveFileEntry | ZipDirectoryEntry> {
  for await (const entry of entries) {
    if (isDirectory(entry)) {
      yield entry;
      continue;
    }
    const { open, link } = entry;
    yield {
      name: entry.name,
      size: entry.size,
      crc32: entry.crc32,
      lastModified: entry.lastModified,
      open: async () => entryChunks(await open.call(entry), heldChunks),
      ...(link && { link: () => link.call(entry) }),
    };
  }
}

/**
 * The archive's bytes, chunk by chunk, as entries are read: each yielded chunk is either a
 * record of the archive or a chunk of an entry (see entryChunks).
 */
export function zipChunks(
  entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>,
  onProgress?: (progress: ZipProgress) => void,
  options: ZipChunksOptions = {},
): AsyncGenerator<Uint8Array> {
  // Without `passthrough` no part is a ZipPassthrough.
  return zipParts(entries, onProgress, options) as AsyncGenerator<Uint8Array>;
}

/**
 * `zipChunks`, and with `passthrough` an entry of known size and CRC-32 comes out as one
 * `ZipPassthrough` in place of its bytes: the reader puts them in (its progress counts them).
 */
export function zipParts(
  entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>,
  onProgress?: (progress: ZipProgress) => void,
  options: ZipPartsOptions = {},
): AsyncGenerator<Uint8Array | ZipPassthrough> {
  return archiveParts(chunked(entries, options.heldChunks), onProgress, options);
}

/** The archive as a ReadableStream that pulls entries only as fast as it is read (backpressure). */
export function zipStream(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>, onProgress?: (progress: ZipProgress) => void): ReadableStream<Uint8Array> {
  const chunks = zipChunks(entries, onProgress);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await chunks.next();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel(reason) {
        await chunks.throw(reason instanceof Error ? reason : new Error(String(reason))).catch(() => undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
