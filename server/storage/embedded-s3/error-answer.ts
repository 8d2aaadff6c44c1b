import type { FastifyBaseLogger } from 'fastify';
import { isDiskFull } from '../disk-full.ts';
import { S3Error } from './s3-error.ts';
import { textElement, xmlRoot } from './xml.ts';

/** The <Error> element S3 answers with (no namespace); also sent inside a 200 by slow operations. */
export function errorElement(error: S3Error, resource: string, requestId: string): string {
  const details = Object.entries(error.details).map(([name, value]) => textElement(name, value));
  return xmlRoot(
    'Error',
    [
      textElement('Code', error.code),
      textElement('Message', error.message),
      ...details,
      textElement('Resource', resource),
      textElement('RequestId', requestId),
    ],
    false,
  );
}

function isClientGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNABORTED' || (error as Error | undefined)?.message === 'aborted';
}

/**
 * Any failure as an S3 error. Fastify's own 4xx (e.g. an unparsable Content-Type) become
 * InvalidRequest; a full disk is InsufficientStorage (507, issue 32), logged for the operator;
 * anything unexpected is logged and becomes InternalError.
 */
export function toS3Error(error: unknown, log: FastifyBaseLogger): S3Error {
  if (error instanceof S3Error) return error;
  const statusCode = (error as { statusCode?: unknown } | undefined)?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return new S3Error('InvalidRequest', (error as Error).message);
  }
  if (isClientGone(error)) {
    log.info({ err: error }, 'embedded S3: client went away during the request');
    return new S3Error('IncompleteBody');
  }
  if (isDiskFull(error)) {
    log.error({ err: error }, "embedded S3: the disk is full, a write was refused (507): free space on the disk of the store's files");
    return new S3Error('InsufficientStorage');
  }
  log.error({ err: error }, 'embedded S3: request failed');
  return new S3Error('InternalError');
}
