/**
 * The bare page's upload, sent from a shared worker instead of the page (`bare-worker`): the
 * same parts, presigned by the backend at the start, six at once, no state saved, no retry.
 * With `?xhr` the worker sends them as Cutdesk's worker does, XMLHttpRequest with an upload
 * progress listener (a fetch body reports no progress). What moving the upload off the page
 * costs the renderer by itself, before any client's own work.
 */
import { config, onFile, post, report } from './common.js';

const worker = new SharedWorker(new URL('./bare-upload.worker.js', import.meta.url), { type: 'module', name: 'bare-upload' });
worker.port.start();

onFile(async (file) => {
  const count = Math.ceil(file.size / config.partSize);
  const { uploadId, key, urls } = await post('/bare/create', { key: config.key, type: file.type, partCount: count });
  const etags = await new Promise((resolve, reject) => {
    worker.port.onmessage = (event) => (event.data.error ? reject(new Error(event.data.error)) : resolve(event.data.etags));
    worker.port.postMessage({ file, urls, partSize: config.partSize, limit: config.limit, xhr: config.xhr });
  });
  await post('/uppy/complete', { uploadId, key, parts: etags.map((ETag, i) => ({ PartNumber: i + 1, ETag })) });
  report({ type: 'done' });
});
