import { Readable } from 'node:stream';
import { READ_CHUNK_BYTES, type ObjectFiles } from './embedded-s3/object-files.ts';
import { unquote, type ObjectStore } from './object-store.ts';

/**
 * The embedded store as this server reads it: a whole object comes straight from the store's
 * files, not through a loopback HTTP request and the AWS SDK (issue 34: the raw zip streams
 * every stored original, and the loopback hop doubled the server's CPU per byte). The store's
 * own `ObjectFiles` instance, so a replaced or deleted multipart object keeps its bytes until
 * this read ends, as for a GET. Ranged reads, writes and presigning stay S3 calls.
 */
export function withLocalReads(store: ObjectStore, objects: ObjectFiles): ObjectStore {
  return {
    ...store,
    async getObjectStream(key, range) {
      if (range !== undefined) return store.getObjectStream(key, range);
      const opened = await objects.open(key);
      if (!opened) return null;
      const { meta, handle } = opened;
      let body: Readable;
      if (meta.size === 0) {
        await handle.close();
        body = Readable.from([]);
      } else body = handle.createReadStream({ start: 0, end: meta.size - 1, autoClose: true, highWaterMark: READ_CHUNK_BYTES });
      return { body, contentLength: meta.size, contentType: meta.contentType, etag: unquote(meta.etag) };
    },
  };
}
