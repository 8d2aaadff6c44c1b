export { default as Uppy } from '@uppy/core';
export { default as AwsS3 } from '@uppy/aws-s3';
export { default as Dashboard } from '@uppy/dashboard';
