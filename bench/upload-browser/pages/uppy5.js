/** Uppy 5 with @uppy/aws-s3: multipart, 20 MiB parts, 6 requests at once; a backend (the bench) creates, signs each part and completes. */
import { AwsS3, Uppy } from 'uppy5-bench';
import { config, onFile, post, report } from './common.js';

export const uppy = new Uppy({ autoProceed: false });
uppy.use(AwsS3, {
  shouldUseMultipart: true,
  limit: config.limit,
  getChunkSize: () => config.partSize,
  createMultipartUpload: (file) => post('/uppy/create', { key: config.key, type: file.type }),
  signPart: (_file, { uploadId, key, partNumber }) => post('/uppy/sign-part', { uploadId, key, partNumber }),
  listParts: (_file, { uploadId, key }) => post('/uppy/list-parts', { uploadId, key }),
  completeMultipartUpload: (_file, { uploadId, key, parts }) => post('/uppy/complete', { uploadId, key, parts }),
  abortMultipartUpload: (_file, { uploadId, key }) => post('/uppy/abort', { uploadId, key }),
});
uppy.on('complete', (result) => report(result.failed?.length ? { type: 'error', message: String(result.failed[0].error) } : { type: 'done' }));

onFile((file) => {
  uppy.addFile({ name: file.name, type: file.type, data: file, source: 'bench' });
  return uppy.upload();
});
