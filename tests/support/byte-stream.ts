/**
 * A byte stream of `data` as a fetch body is one: 64 KiB pieces, readable with a BYOB reader.
 * `limit` ends it early (a cut download); `failAt` errors it once that many bytes were given.
 */
export function byteStream(data: Uint8Array, options: { limit?: number; failAt?: number } = {}): ReadableStream<Uint8Array> {
  const end = options.limit ?? data.length;
  let offset = 0;
  return new ReadableStream({
    type: 'bytes',
    pull(controller) {
      if (options.failAt !== undefined && offset >= options.failAt) return controller.error(new Error('The download failed (HTTP 500).'));
      if (offset >= end) {
        controller.close();
        controller.byobRequest?.respond(0);
        return;
      }
      const n = Math.min(64 * 1024, end - offset);
      controller.enqueue(new Uint8Array(data.subarray(offset, offset + n)));
      offset += n;
    },
  }) as ReadableStream<Uint8Array>;
}
