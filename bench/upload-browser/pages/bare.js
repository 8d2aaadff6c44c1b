/**
 * The least a page can do: the same multipart upload with no library and nothing kept — every
 * part's URL presigned by the backend at the start, 20 MiB parts, six `fetch` PUTs at once, no
 * progress, no state saved, no retry. What any client can reach against this store in this
 * browser with the spec's part size and parallelism: the ceiling the others are measured against.
 */
import { config, onFile, post, report } from './common.js';

onFile(async (file) => {
  const count = Math.ceil(file.size / config.partSize);
  const { uploadId, key, urls } = await post('/bare/create', { key: config.key, type: file.type, partCount: count });
  const etags = new Array(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const index = next++;
      const body = file.slice(index * config.partSize, Math.min(file.size, (index + 1) * config.partSize));
      const answer = await fetch(urls[index], { method: 'PUT', body });
      if (!answer.ok) throw new Error(`part ${index + 1}: ${answer.status}`);
      etags[index] = answer.headers.get('etag');
    }
  };
  await Promise.all(Array.from({ length: config.limit }, lane));
  await post('/uppy/complete', { uploadId, key, parts: etags.map((ETag, i) => ({ PartNumber: i + 1, ETag })) });
  report({ type: 'done' });
});
