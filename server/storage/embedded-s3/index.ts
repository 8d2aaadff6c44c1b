/**
 * Embedded S3-compatible object storage: the default object store of `npm start`, served by
 * the app's own Fastify server (register with `{ prefix: '/s3' }`), path-style, SigV4-checked,
 * objects as files under `root`.
 */
export { embeddedS3Plugin } from './routes.ts';
export type { CredentialResolver, S3Principal } from './types.ts';
