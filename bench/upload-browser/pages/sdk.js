/** @aws-sdk/lib-storage in the browser: the same 20 MiB parts, 6 at once, with the temporary credentials Cutdesk gives the page. */
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { config, onFile, report } from './common.js';

const client = new S3Client({
  endpoint: config.endpoint,
  region: config.region,
  forcePathStyle: true,
  credentials: config.credentials,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});

onFile(async (file) => {
  const upload = new Upload({
    client,
    params: { Bucket: config.bucket, Key: config.key, Body: file, ContentType: file.type },
    partSize: config.partSize,
    queueSize: config.limit,
  });
  await upload.done();
  report({ type: 'done' });
});
