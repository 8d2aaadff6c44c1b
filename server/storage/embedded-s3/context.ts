import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFiles } from './multipart.ts';
import type { ObjectFiles } from './object-files.ts';
import type { S3Target } from './request-url.ts';
import { queryValue } from './request-url.ts';
import { S3Error } from './s3-error.ts';
import type { Authenticated } from './sigv4-verify.ts';
import type { EmbeddedS3Options } from './types.ts';

/** Everything an operation handler needs about the request it answers. */
export interface S3Context {
  options: EmbeddedS3Options;
  objects: ObjectFiles;
  uploads: MultipartFiles;
  request: FastifyRequest;
  reply: FastifyReply;
  target: S3Target;
  auth: Authenticated;
  /** The unread request body, undefined when the request has none. */
  body: Readable | undefined;
}

/** S3's largest single PUT, part and copy source. */
export const MAX_OBJECT_PUT_BYTES = 5 * 1024 ** 3;
/** S3's smallest part except the last. */
export const MIN_PART_BYTES = 5 * 1024 ** 2;
export const MAX_PART_NUMBER = 10_000;
/** Generous cap for the XML documents clients send (10,000 parts, 1,000 keys). */
export const MAX_XML_BODY_BYTES = 10 * 1024 ** 2;

export const OWNER_ID = 'cutdesk';
/** Owner and Initiator elements: one owner, this server. */
export const OWNER_XML = `<ID>${OWNER_ID}</ID><DisplayName>${OWNER_ID}</DisplayName>`;

export function requestHeader(ctx: S3Context, name: string): string | undefined {
  const value = ctx.request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** A principal limited to a prefix may touch only keys below it. */
export function assertKeyAllowed(ctx: S3Context, key: string): void {
  const prefix = ctx.auth.principal.allowedPrefix;
  if (prefix !== undefined && !key.startsWith(prefix)) throw new S3Error('AccessDenied');
}

export function isKeyAllowed(ctx: S3Context, key: string): boolean {
  const prefix = ctx.auth.principal.allowedPrefix;
  return prefix === undefined || key.startsWith(prefix);
}

/** Bucket-wide operations (create, list without a prefix inside the allowed one) need an unrestricted principal. */
export function assertUnrestricted(ctx: S3Context): void {
  if (ctx.auth.principal.allowedPrefix !== undefined) throw new S3Error('AccessDenied');
}

export function sendXml(ctx: S3Context, document: string, status = 200): FastifyReply {
  return ctx.reply.code(status).type('application/xml').send(document);
}

/** A non-negative integer query parameter; S3 caps list sizes at 1000 rather than failing. */
export function integerParam(ctx: S3Context, name: string, fallback: number, max?: number): number {
  const text = queryValue(ctx.target.query, name);
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text))
    throw new S3Error('InvalidArgument', `Provided ${name} not an integer or within integer range`, { ArgumentName: name, ArgumentValue: text });
  const value = Number(text);
  return max === undefined ? value : Math.min(value, max);
}
