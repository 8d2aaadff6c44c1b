import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createBucket, deleteObjects, getBucketLocation, headBucket, listBuckets, listObjects } from './bucket-handlers.ts';
import type { S3Context } from './context.ts';
import { addCorsHeaders, answerPreflight } from './cors.ts';
import { errorElement, toS3Error } from './error-answer.ts';
import { XML_DECLARATION } from './xml.ts';
import { completeMultipartUpload } from './complete-multipart.ts';
import { listMultipartUploads } from './list-uploads.ts';
import { abortMultipartUpload, createMultipartUpload, listParts, uploadPart } from './multipart-handlers.ts';
import { openMultipartFiles } from './multipart.ts';
import { copyObject, deleteObject, getObject, putObject } from './object-handlers.ts';
import { openObjectFiles } from './object-files.ts';
import { clientAddress, hasQuery, parseS3Target, queryValue } from './request-url.ts';
import type { S3Target } from './request-url.ts';
import { S3Error } from './s3-error.ts';
import { verifySigV4 } from './sigv4-verify.ts';
import type { EmbeddedS3Options } from './types.ts';

/** Sub-resources S3 has and this endpoint does not: answered 501 rather than mistaken for plain object calls. */
const UNSUPPORTED_SUBRESOURCES = [
  'accelerate',
  'acl',
  'analytics',
  'attributes',
  'cors',
  'encryption',
  'intelligent-tiering',
  'inventory',
  'legal-hold',
  'lifecycle',
  'logging',
  'metrics',
  'notification',
  'object-lock',
  'ownershipControls',
  'policy',
  'policyStatus',
  'publicAccessBlock',
  'renameObject',
  'replication',
  'requestPayment',
  'restore',
  'retention',
  'select',
  'tagging',
  'torrent',
  'versioning',
  'versions',
  'website',
];
const METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'OPTIONS'] as const;
/** Temp files older than this are leftovers of a crash; newer ones may belong to requests in flight. */
const STALE_TEMP_MS = 24 * 60 * 60 * 1000;

function methodNotAllowed(): S3Error {
  return new S3Error('MethodNotAllowed', 'The specified method is not allowed against this resource.');
}

function resourceOf(target: S3Target): string {
  return `/${target.bucket}${target.key === '' ? '' : `/${target.key}`}`;
}

async function bucketOperation(ctx: S3Context): Promise<FastifyReply> {
  const { query } = ctx.target;
  switch (ctx.request.method) {
    case 'HEAD':
      return headBucket(ctx);
    case 'PUT':
      return createBucket(ctx);
    case 'POST':
      if (hasQuery(query, 'delete')) return deleteObjects(ctx);
      throw methodNotAllowed();
    case 'GET':
      if (hasQuery(query, 'uploads')) return listMultipartUploads(ctx);
      if (hasQuery(query, 'location')) return getBucketLocation(ctx);
      if (queryValue(query, 'list-type') === '2') return listObjects(ctx, 2);
      return listObjects(ctx, 1);
    default:
      throw new S3Error('NotImplemented', 'Deleting the bucket is not supported by this endpoint.');
  }
}

async function objectOperation(ctx: S3Context): Promise<FastifyReply> {
  const { query } = ctx.target;
  const uploadId = hasQuery(query, 'uploadId');
  switch (ctx.request.method) {
    case 'PUT':
      if (uploadId || hasQuery(query, 'partNumber')) return uploadPart(ctx);
      if (ctx.request.headers['x-amz-copy-source'] !== undefined) return copyObject(ctx);
      return putObject(ctx);
    case 'POST':
      if (hasQuery(query, 'uploads')) return createMultipartUpload(ctx);
      if (uploadId) return completeMultipartUpload(ctx);
      throw methodNotAllowed();
    case 'GET':
      return uploadId ? listParts(ctx) : getObject(ctx, false);
    case 'HEAD':
      return getObject(ctx, true);
    case 'DELETE':
      return uploadId ? abortMultipartUpload(ctx) : deleteObject(ctx);
    default:
      throw methodNotAllowed();
  }
}

/** Upload credentials run uploads and nothing else: PutObject, CreateMultipartUpload, UploadPart, ListParts, Complete, Abort. */
function assertUploadOperation(ctx: S3Context): void {
  const { query, key } = ctx.target;
  const method = ctx.request.method;
  const uploadId = hasQuery(query, 'uploadId');
  const copy = ctx.request.headers['x-amz-copy-source'] !== undefined;
  const allowed =
    key !== '' &&
    ((method === 'PUT' && !copy) ||
      (method === 'POST' && (hasQuery(query, 'uploads') || uploadId)) ||
      (method === 'GET' && uploadId) ||
      (method === 'DELETE' && uploadId));
  if (!allowed) throw new S3Error('AccessDenied', 'Upload credentials may only upload.');
}

async function removeStaleTempFiles(tmpDir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(tmpDir)) {
    const path = join(tmpDir, name);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > STALE_TEMP_MS) await rm(path, { recursive: true, force: true });
  }
}

/**
 * The embedded S3-compatible endpoint, path-style under the prefix it is registered with:
 * `<prefix>/<bucket>/<key>`. Encapsulated: its body parser streams object bodies to disk
 * (no body limit, nothing buffered) and affects no other route of the app.
 */
export const embeddedS3Plugin: FastifyPluginAsync<EmbeddedS3Options> = async (fastify, options) => {
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(options.bucket)) throw new Error(`embedded S3: invalid bucket name "${options.bucket}"`);
  const bucketDir = join(options.root, options.bucket);
  const tmpDir = join(options.root, '.tmp');
  const objects = await openObjectFiles(join(bucketDir, 'objects'), tmpDir);
  const uploads = await openMultipartFiles(join(bucketDir, 'uploads'), tmpDir);
  await removeStaleTempFiles(tmpDir);
  options.onObjects?.(objects);
  const mountPrefix = fastify.prefix;

  fastify.removeAllContentTypeParsers();
  // Hand the body over unread: each operation streams it where it belongs.
  fastify.addContentTypeParser('*', (_request, payload, done) => {
    done(null, payload);
  });

  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-amz-request-id', randomBytes(8).toString('hex').toUpperCase());
    // Every answer of the store is served from the app's origin (issue 9): the browser never
    // guesses a type, and whatever it renders runs sandboxed (no script, an opaque origin
    // without the app's storage and its session token).
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', 'sandbox');
    addCorsHeaders(request, reply, options.allowOrigin);
  });

  fastify.setErrorHandler((error, request, reply) => {
    const s3Error = toS3Error(error, request.log);
    let resource: string;
    try {
      const address = clientAddress(request.raw, request.url, mountPrefix);
      resource = resourceOf(parseS3Target(address.url, address.mountPrefix));
    } catch {
      resource = request.url;
    }
    for (const [name, value] of Object.entries(s3Error.headers)) reply.header(name, value);
    reply.code(s3Error.status);
    if (request.method === 'HEAD') return reply.send();
    return reply.type('application/xml').send(`${XML_DECLARATION}${errorElement(s3Error, resource, String(reply.getHeader('x-amz-request-id') ?? ''))}`);
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const address = clientAddress(request.raw, request.url, mountPrefix);
    const target = parseS3Target(address.url, address.mountPrefix);
    if (request.method === 'OPTIONS') return answerPreflight(request, reply);
    const auth = await verifySigV4({ method: request.method, rawPath: target.rawPath, query: target.query, headers: request.headers }, options);
    const ctx: S3Context = { options, objects, uploads, request, reply, target, auth, body: request.body as Readable | undefined };
    if (auth.principal.uploadOnly) assertUploadOperation(ctx);
    if (target.bucket === '') {
      if (request.method !== 'GET') throw methodNotAllowed();
      return listBuckets(ctx, bucketDir);
    }
    if (target.bucket !== options.bucket) {
      if (request.method === 'PUT' && target.key === '') throw new S3Error('AccessDenied', `This endpoint serves the bucket "${options.bucket}" only.`);
      throw new S3Error('NoSuchBucket', undefined, { BucketName: target.bucket });
    }
    const unsupported = UNSUPPORTED_SUBRESOURCES.find((name) => hasQuery(target.query, name));
    if (unsupported) throw new S3Error('NotImplemented', `The ?${unsupported} sub-resource is not supported by this endpoint.`);
    return target.key === '' ? bucketOperation(ctx) : objectOperation(ctx);
  };

  fastify.route({ method: [...METHODS], url: '/', exposeHeadRoute: false, handler });
  fastify.route({ method: [...METHODS], url: '/*', exposeHeadRoute: false, handler });
};
