/**
 * The ZIP format, written as a stream (issue 6): entries are stored without recompression (the
 * clips are already compressed video), each entry's bytes pass through once — CRC-32 computed
 * on the way unless it is known (the server computes it once per asset, issue 14), sizes and CRC
 * written after the data in a data descriptor — so memory stays at a few chunks whatever the
 * total size. Zip64 is used for entries of 4 GiB or more, for offsets past 4 GiB and for more
 * than 65,535 entries (APPNOTE 6.3.10, 4.3.9, 4.4.3.2, 4.5.3). Names are UTF-8 (general purpose
 * bit 11). Pure: the media worker writes zips with it in the browser (workers/zip.ts reads its
 * entries from fetch bodies), the server streams a project's raw zip with it (issue 34).
 */

import { crc32 } from './crc32.ts';

export { crc32 };

export interface ZipFileEntry {
  /** Path inside the archive, `/`-separated (e.g. `interviews/talk.mov`). */
  name: string;
  /** Declared size when known: the entry must then be exactly this long. */
  size?: number;
  /**
   * The bytes' CRC-32 when known beforehand (with `size`; the server computes it once per asset):
   * the writer then takes it instead of computing it over every byte, and may pass the entry to
   * the archive's reader to fetch (`ZipPartsOptions.passthrough`).
   */
  crc32?: number;
  lastModified?: Date;
  /** Opens the entry's bytes; called when the writer reaches the entry (links fetched late stay fresh). */
  open(): Promise<AsyncIterable<Uint8Array>> | AsyncIterable<Uint8Array>;
  /** A fresh address of the same bytes, for a reader that fetches a passed-through entry itself. */
  link?(): Promise<string>;
}

/** An entry of known size and CRC-32 with an address, as the writer passes it on (see `zipParts`). */
export type KnownEntry = ZipFileEntry & { size: number; crc32: number; link(): Promise<string> };

/**
 * An entry's bytes the archive's reader puts in itself, at this point of the archive, exactly
 * `entry.size` of them (issue 14: the download service worker fetches them, so they never pass
 * through the worker that writes the archive).
 */
export interface ZipPassthrough {
  passthrough: KnownEntry;
}

export interface ZipDirectoryEntry {
  /** Ends with `/`. */
  name: string;
  directory: true;
  lastModified?: Date;
}

export type ZipEntry = ZipFileEntry | ZipDirectoryEntry;

export interface ZipProgress {
  /** Entries finished. */
  entries: number;
  /** Bytes of entry data read so far. */
  bytes: number;
  /** Bytes of the archive written so far. */
  written: number;
  /** Name of the entry being written. */
  current: string | null;
}

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const VERSION_ZIP64 = 45;
const VERSION_DEFAULT = 20;
/** Made by: Unix (3), so permissions in the external attributes mean what they say. */
const MADE_BY = (3 << 8) | VERSION_ZIP64;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const FILE_MODE = 0o100644;
const DIR_MODE = 0o040755;

// ——— Little-endian records ———

class Bytes {
  private readonly view: DataView;
  readonly array: Uint8Array;
  private offset = 0;
  constructor(size: number) {
    this.array = new Uint8Array(size);
    this.view = new DataView(this.array.buffer);
  }
  u16(value: number): this {
    this.view.setUint16(this.offset, value, true);
    this.offset += 2;
    return this;
  }
  u32(value: number): this {
    this.view.setUint32(this.offset, value >>> 0, true);
    this.offset += 4;
    return this;
  }
  u64(value: number): this {
    this.view.setBigUint64(this.offset, BigInt(value), true);
    this.offset += 8;
    return this;
  }
  bytes(data: Uint8Array): this {
    this.array.set(data, this.offset);
    this.offset += data.length;
    return this;
  }
}

function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

interface Written {
  name: Uint8Array;
  directory: boolean;
  crc: number;
  size: number;
  offset: number;
  time: number;
  date: number;
  /** The local header carries a Zip64 extra (and the descriptor 8-byte sizes). */
  zip64Local: boolean;
}

const encoder = new TextEncoder();

function localHeader(entry: Written): Uint8Array {
  const extra = entry.zip64Local ? 20 : 0;
  const out = new Bytes(30 + entry.name.length + extra)
    .u32(0x04034b50)
    .u16(entry.zip64Local ? VERSION_ZIP64 : VERSION_DEFAULT)
    .u16((entry.directory ? 0 : FLAG_DESCRIPTOR) | FLAG_UTF8)
    .u16(0) // stored
    .u16(entry.time)
    .u16(entry.date)
    .u32(0) // CRC in the data descriptor
    .u32(entry.zip64Local ? MAX32 : 0)
    .u32(entry.zip64Local ? MAX32 : 0)
    .u16(entry.name.length)
    .u16(extra)
    .bytes(entry.name);
  if (entry.zip64Local) out.u16(0x0001).u16(16).u64(0).u64(0);
  return out.array;
}

function dataDescriptor(entry: Written): Uint8Array {
  if (entry.zip64Local) return new Bytes(24).u32(0x08074b50).u32(entry.crc).u64(entry.size).u64(entry.size).array;
  return new Bytes(16).u32(0x08074b50).u32(entry.crc).u32(entry.size).u32(entry.size).array;
}

function centralHeader(entry: Written): Uint8Array {
  const bigSize = entry.size >= MAX32;
  const bigOffset = entry.offset >= MAX32;
  const fields = (bigSize ? 2 : 0) + (bigOffset ? 1 : 0);
  const extra = fields > 0 ? 4 + fields * 8 : 0;
  const mode = entry.directory ? DIR_MODE : FILE_MODE;
  const out = new Bytes(46 + entry.name.length + extra)
    .u32(0x02014b50)
    .u16(MADE_BY)
    .u16(entry.zip64Local || fields > 0 ? VERSION_ZIP64 : VERSION_DEFAULT)
    .u16((entry.directory ? 0 : FLAG_DESCRIPTOR) | FLAG_UTF8)
    .u16(0)
    .u16(entry.time)
    .u16(entry.date)
    .u32(entry.crc)
    .u32(bigSize ? MAX32 : entry.size)
    .u32(bigSize ? MAX32 : entry.size)
    .u16(entry.name.length)
    .u16(extra)
    .u16(0) // comment
    .u16(0) // disk
    .u16(0) // internal attributes
    .u32(((mode << 16) | (entry.directory ? 0x10 : 0)) >>> 0)
    .u32(bigOffset ? MAX32 : entry.offset)
    .bytes(entry.name);
  if (fields > 0) {
    out.u16(0x0001).u16(fields * 8);
    if (bigSize) out.u64(entry.size).u64(entry.size);
    if (bigOffset) out.u64(entry.offset);
  }
  return out.array;
}

function endRecords(count: number, directoryOffset: number, directorySize: number): Uint8Array {
  const zip64 = count > MAX16 || directoryOffset >= MAX32 || directorySize >= MAX32;
  const parts: Uint8Array[] = [];
  if (zip64) {
    const recordOffset = directoryOffset + directorySize;
    parts.push(
      new Bytes(56).u32(0x06064b50).u64(44).u16(MADE_BY).u16(VERSION_ZIP64).u32(0).u32(0).u64(count).u64(count).u64(directorySize).u64(directoryOffset).array,
      new Bytes(20).u32(0x07064b50).u32(0).u64(recordOffset).u32(1).array,
    );
  }
  parts.push(
    new Bytes(22)
      .u32(0x06054b50)
      .u16(0)
      .u16(0)
      .u16(zip64 ? MAX16 : count)
      .u16(zip64 ? MAX16 : count)
      .u32(zip64 ? MAX32 : directorySize)
      .u32(zip64 ? MAX32 : directoryOffset)
      .u16(0).array,
  );
  return concat(parts);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function isDirectory(entry: ZipEntry): entry is ZipDirectoryEntry {
  return (entry as ZipDirectoryEntry).directory === true;
}

/** Zip entry paths: `/`-separated, no leading slash, no `..`. */
export function safeEntryName(name: string): string {
  const parts = name
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.' && part !== '..');
  return parts.join('/') + (name.endsWith('/') ? '/' : '');
}

export interface ZipPartsOptions {
  /** Entries of known size and CRC-32 come out as `ZipPassthrough`, not read. */
  passthrough?: boolean;
  /**
   * The CRC-32 the entries without one are read with: this module's (JavaScript) by default; the
   * server passes Node's native one (zlib.crc32, about 4× faster), so it can check every byte it sends.
   */
  crc32?: (data: Uint8Array, previous: number) => number;
}

const knownEntry = (entry: ZipFileEntry): entry is ZipFileEntry & { size: number; crc32: number } => entry.size !== undefined && entry.crc32 !== undefined;
const passable = (entry: ZipFileEntry): entry is KnownEntry => knownEntry(entry) && typeof entry.link === 'function';

/**
 * The archive's bytes, part by part, as entries are read: each part is a record of the archive
 * or a chunk of an entry as its `open()` gave it. With `passthrough` an entry of known size and
 * CRC-32 comes out as one `ZipPassthrough` in place of its bytes: the reader puts them in (its
 * progress counts them).
 */
export async function* zipParts(
  entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>,
  onProgress?: (progress: ZipProgress) => void,
  options: ZipPartsOptions = {},
): AsyncGenerator<Uint8Array | ZipPassthrough> {
  const written: Written[] = [];
  let offset = 0;
  let bytes = 0;
  const seen = new Set<string>();
  const report = (current: string | null) => onProgress?.({ entries: written.length, bytes, written: offset, current });

  for await (const entry of entries) {
    const directory = isDirectory(entry);
    let name = safeEntryName(entry.name);
    if (directory && !name.endsWith('/')) name += '/';
    if (!name || seen.has(name)) throw new Error(`The archive cannot hold "${entry.name}" twice or without a name.`);
    seen.add(name);
    const { time, date } = dosDateTime(entry.lastModified ?? new Date());
    const declared = directory ? 0 : (entry as ZipFileEntry).size;
    const record: Written = {
      name: encoder.encode(name),
      directory,
      crc: 0,
      size: 0,
      offset,
      time,
      date,
      zip64Local: !directory && (declared === undefined || declared >= MAX32),
    };
    const header = localHeader(record);
    offset += header.length;
    yield header;
    if (!directory) {
      const file = entry as ZipFileEntry;
      report(name);
      let crc = 0;
      let size = 0;
      if (options.passthrough && passable(file)) {
        yield { passthrough: file };
        crc = file.crc32;
        size = file.size;
        offset += size;
      } else {
        // A CRC-32 known beforehand is taken as it is: computing it is most of this loop's work.
        const known = knownEntry(file);
        const checksum = options.crc32 ?? crc32;
        for await (const value of await file.open()) {
          // Refused before a byte past the declared size goes out: a reader given the archive's
          // length would otherwise take a longer entry for a whole archive.
          if (declared !== undefined && size + value.length > declared)
            throw new Error(`"${name}" is longer than the ${declared} bytes it was listed with: the file changed.`);
          if (!known) crc = checksum(value, crc);
          size += value.length;
          bytes += value.length;
          offset += value.length;
          yield value;
          report(name);
        }
        if (declared !== undefined && size !== declared)
          throw new Error(`"${name}" was ${size} bytes long instead of ${declared}: the download was cut short.`);
        if (known) crc = file.crc32;
      }
      record.crc = crc;
      record.size = size;
      const descriptor = dataDescriptor(record);
      offset += descriptor.length;
      yield descriptor;
    }
    written.push(record);
    report(null);
  }

  const directoryOffset = offset;
  // The central directory goes out in batches, not as one buffer of every header.
  let batch: Uint8Array[] = [];
  let batchBytes = 0;
  for (const record of written) {
    const header = centralHeader(record);
    batch.push(header);
    batchBytes += header.length;
    offset += header.length;
    if (batchBytes >= 64 * 1024) {
      yield concat(batch);
      batch = [];
      batchBytes = 0;
    }
  }
  if (batch.length) yield concat(batch);
  const end = endRecords(written.length, directoryOffset, offset - directoryOffset);
  offset += end.length;
  yield end;
  report(null);
}

/**
 * The archive's length in bytes, before any entry is read: every entry's size must be known
 * (the CRC-32s need not be, they take the same room). A streamed download can then say its
 * size, and the browser shows progress and time left.
 */
export async function zipLength(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>): Promise<number> {
  let length = 0;
  const measured = async function* () {
    for await (const entry of entries) {
      if (isDirectory(entry)) yield entry;
      else {
        if (entry.size === undefined) throw new Error(`The size of "${entry.name}" is not known.`);
        yield { ...entry, crc32: entry.crc32 ?? 0, link: async () => '' };
      }
    }
  };
  for await (const part of zipParts(measured(), undefined, { passthrough: true })) length += part instanceof Uint8Array ? part.length : part.passthrough.size;
  return length;
}
