import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { S3Error } from './s3-error.ts';

/**
 * Decodes the aws-chunked body framing the SDK v3 uses for streaming uploads
 * (`x-amz-content-sha256: STREAMING-UNSIGNED-PAYLOAD-TRAILER`):
 *
 *   <hex size>[;ext]\r\n<bytes>\r\n ... 0\r\n<name>:<value>\r\n ... \r\n
 *
 * Only the payload bytes come out; trailing headers (the checksum) are collected in
 * `trailers`. The SDK omits the final empty line when it sends no trailer, so the end of
 * the stream right after the last chunk is accepted too.
 */

const MAX_LINE_BYTES = 4096;
const CRLF = Buffer.from('\r\n');

type State = 'size' | 'data' | 'data-end' | 'trailer' | 'done';

export class AwsChunkedDecoder extends Transform {
  /** Trailing headers, lower-case names, available once the stream has finished. */
  readonly trailers = new Map<string, string>();
  private state: State = 'size';
  private line = Buffer.alloc(0);
  private remaining = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.consume(chunk);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    const cleanEnd = this.state === 'done' || (this.state === 'trailer' && this.line.length === 0);
    callback(cleanEnd ? undefined : new S3Error('IncompleteBody', 'The request body ended before its aws-chunked framing was complete.'));
  }

  private consume(input: Buffer): void {
    let chunk = input;
    while (chunk.length > 0) {
      if (this.state === 'data') {
        const take = Math.min(this.remaining, chunk.length);
        this.push(chunk.subarray(0, take));
        this.remaining -= take;
        chunk = chunk.subarray(take);
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      if (this.state === 'done') {
        if (chunk.toString('latin1').trim() !== '') throw malformed('data after the final chunk');
        return;
      }
      const newline = chunk.indexOf(0x0a);
      const piece = newline === -1 ? chunk : chunk.subarray(0, newline + 1);
      this.line = Buffer.concat([this.line, piece]);
      if (this.line.length > MAX_LINE_BYTES) throw malformed('chunk header line too long');
      chunk = chunk.subarray(piece.length);
      if (newline === -1) return;
      const text = this.line.subarray(0, this.line.length - (this.line.subarray(-2).equals(CRLF) ? 2 : 1)).toString('latin1');
      this.line = Buffer.alloc(0);
      this.onLine(text);
    }
  }

  private onLine(text: string): void {
    switch (this.state) {
      case 'size': {
        const sizeText = text.split(';')[0]?.trim() ?? '';
        if (!/^[0-9a-fA-F]{1,12}$/.test(sizeText)) throw malformed(`invalid chunk size "${sizeText}"`);
        this.remaining = parseInt(sizeText, 16);
        this.state = this.remaining === 0 ? 'trailer' : 'data';
        return;
      }
      case 'data-end':
        if (text !== '') throw malformed('chunk data longer than its declared size');
        this.state = 'size';
        return;
      case 'trailer': {
        if (text === '') {
          this.state = 'done';
          return;
        }
        const colon = text.indexOf(':');
        if (colon <= 0) throw malformed('invalid trailing header');
        this.trailers.set(text.slice(0, colon).trim().toLowerCase(), text.slice(colon + 1).trim());
        return;
      }
      default:
        throw malformed('unexpected framing');
    }
  }
}

function malformed(detail: string): S3Error {
  return new S3Error('InvalidRequest', `Malformed aws-chunked request body: ${detail}.`);
}
