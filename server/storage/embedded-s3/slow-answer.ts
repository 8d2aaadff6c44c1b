import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { S3Context } from './context.ts';
import { errorElement, toS3Error } from './error-answer.ts';
import { XML_DECLARATION } from './xml.ts';

const KEEP_ALIVE_MS = 5_000;

/**
 * S3's answer for work that can take minutes (assembling a multi-GB multipart object):
 * 200 and the XML declaration at once, a space every few seconds so no proxy or client
 * times out, then the result element — or an <Error> element, which SDKs detect inside a
 * 200 and retry. Everything that can be checked up front must fail before this is called.
 */
export function answerWhenDone(ctx: S3Context, work: () => Promise<string>, resource: string): FastifyReply {
  const body = new PassThrough();
  body.write(XML_DECLARATION);
  const keepAlive = setInterval(() => body.write(' '), KEEP_ALIVE_MS);
  const requestId = String(ctx.reply.getHeader('x-amz-request-id') ?? '');
  work()
    .then(
      (result) => body.end(result),
      (error: unknown) => body.end(errorElement(toS3Error(error, ctx.request.log), resource, requestId)),
    )
    .finally(() => clearInterval(keepAlive));
  return ctx.reply.code(200).type('application/xml').send(body);
}
