import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { S3Context } from './context.ts';
import { errorElement, toS3Error } from './error-answer.ts';
import { XML_DECLARATION } from './xml.ts';

const KEEP_ALIVE_MS = 5_000;
/**
 * Work done within this is answered as any request is, a failure with its own status (a full
 * disk: 507, issue 32) instead of an <Error> inside a 200. Completing by hard links takes
 * milliseconds, so only a copy of many gigabytes (a file system without links) takes the slow road.
 */
const PLAIN_ANSWER_WITHIN_MS = 1_000;

/**
 * S3's answer for work that can take minutes (assembling a multi-GB multipart object):
 * 200 and the XML declaration at once, a space every few seconds so no proxy or client
 * times out, then the result element — or an <Error> element, which SDKs detect inside a
 * 200 and retry. Everything that can be checked up front must fail before this is called.
 * Work that ends within PLAIN_ANSWER_WITHIN_MS is answered plainly, its failure with its status.
 */
export async function answerWhenDone(ctx: S3Context, work: () => Promise<string>, resource: string): Promise<FastifyReply> {
  const running = work().then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  let timer: NodeJS.Timeout | undefined;
  const early = await Promise.race([running, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), PLAIN_ANSWER_WITHIN_MS)))]);
  clearTimeout(timer);
  if (early && 'error' in early) throw early.error;
  if (early) return ctx.reply.code(200).type('application/xml').send(`${XML_DECLARATION}${early.result}`);

  const body = new PassThrough();
  body.write(XML_DECLARATION);
  const keepAlive = setInterval(() => body.write(' '), KEEP_ALIVE_MS);
  const requestId = String(ctx.reply.getHeader('x-amz-request-id') ?? '');
  void running
    .then((outcome) => body.end('error' in outcome ? errorElement(toS3Error(outcome.error, ctx.request.log), resource, requestId) : outcome.result))
    .finally(() => clearInterval(keepAlive));
  return ctx.reply.code(200).type('application/xml').send(body);
}
