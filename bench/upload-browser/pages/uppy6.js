/**
 * Uppy 6 with @uppy/aws-s3 (signing in the page with temporary credentials, one part at a time
 * per file) and, when configured, Golden Retriever to resume after a reload.
 */
import { AwsS3, GoldenRetriever, Uppy } from 'uppy6-bench';
import { config, onFile, report } from './common.js';

const uppy = new Uppy({ id: 'bench', autoProceed: false });
// Golden Retriever restores its state from IndexedDB after `use`; the bench waits for it after a reload.
uppy.on('restored', () => /** @type {any} */ (window.benchRestored = true));
if (config.goldenRetriever) uppy.use(GoldenRetriever);
uppy.use(AwsS3, {
  s3Endpoint: `${config.endpoint}/${config.bucket}`,
  region: config.region,
  getCredentials: () => ({ credentials: config.credentials, region: config.region }),
  shouldUseMultipart: true,
  getChunkSize: () => config.partSize,
  limit: config.limit,
  generateObjectKey: () => config.key,
});
uppy.on('complete', (result) => {
  if (result.failed?.length) report({ type: 'error', message: String(result.failed[0].error) });
  else if (result.successful?.length) report({ type: 'done' });
});

onFile((file) => {
  uppy.addFile({ name: file.name, type: file.type, data: file, source: 'bench' });
  // After a reload Golden Retriever has the upload (its id and parts) but not the file: the
  // same file picked again continues it, as its "resume" button does.
  if (uppy.getState().recoveredState) {
    uppy.emit('restore-confirmed');
    return undefined;
  }
  return uppy.upload();
});
