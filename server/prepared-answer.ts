import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * API answers of JSON at least this large leave compressed, when the client accepts it (issue 14,
 * "compressed JSON for large API answers"): below it the bytes saved do not pay for the work.
 */
export const COMPRESS_JSON_FROM_BYTES = 8 * 1024;

/** What both compressions are tuned for: fast enough per answer (brotli's 11 is for files built once). */
export const BROTLI_QUALITY = 4;

const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];

const compress: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => gzipSync(body),
};

/**
 * A JSON answer sent to many (a page of the staff board while it is unchanged): serialized once,
 * compressed at most once per encoding, on first demand.
 */
export class PreparedJson {
  readonly #encoded = new Map<Encoding, Buffer>();
  /** The text as UTF-8, encoded once: a string would be encoded again on every send (issue 34: 18 % of a kept page's CPU). */
  readonly #body: Buffer;

  constructor(text: string) {
    this.#body = Buffer.from(text, 'utf8');
  }

  #encodedAs(encoding: Encoding): Buffer {
    let body = this.#encoded.get(encoding);
    if (!body) this.#encoded.set(encoding, (body = compress[encoding](this.#body)));
    return body;
  }

  /**
   * Sends it as the client accepts it (as the API's compression hook would, `x-no-compression`
   * included); that hook leaves an encoded body alone.
   */
  send(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    reply.type('application/json; charset=utf-8');
    if (this.#body.length < COMPRESS_JSON_FROM_BYTES || request.headers['x-no-compression'] !== undefined) return reply.send(this.#body);
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
    const accepted = request.headers['accept-encoding'];
    const encoding = accepted ? negotiate(accepted, [...ENCODINGS]) : null;
    if (!encoding) return reply.send(this.#body);
    return reply.header('content-encoding', encoding).send(this.#encodedAs(encoding));
  }
}
