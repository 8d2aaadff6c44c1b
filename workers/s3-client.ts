import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { crc32FromBase64, crc32ToBase64 } from '@/domain/crc32.ts';
import type { Transport, TransportResponse } from './transport.ts';

/**
 * The few S3 calls a browser upload needs, signed with the SDK's own SigV4 signer and sent
 * through a Transport (XHR in the browser for progress, fetch in Node). Bodies are sent as
 * UNSIGNED-PAYLOAD: a part is never read into memory to be hashed. Issue 35: each body may carry
 * its CRC-32 (x-amz-checksum-crc32, signed like every header), which the store checks before it
 * keeps a byte, and a multipart upload its whole object's (FULL_OBJECT), checked at completion.
 */

export interface S3Session {
  endpoint: string;
  bucket: string;
  region: string;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  /** Milliseconds (server clock) after which the credentials stop working. */
  expiresAt: number;
  /** Server clock minus this machine's, so signatures stay in S3's 15-minute window. */
  clockOffsetMs: number;
}

export interface ListedPart {
  partNumber: number;
  etag: string;
  size: number;
  /** The part's CRC-32 as the store checked it (uploads created with CRC32 checksums). */
  crc32?: number;
}

/** An S3 error answer: HTTP status and S3 code (status 0 and no code when nothing answered). */
export class S3RequestError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, code: string | undefined, message: string) {
    super(message);
    this.name = 'S3RequestError';
    this.status = status;
    this.code = code;
  }
}

export interface SendOptions {
  signal?: AbortSignal;
  onUploadProgress?: (loaded: number) => void;
}

/** A body sent with its CRC-32: the store refuses it (BadDigest) unless every byte arrived as read. */
export interface ChecksumOption {
  crc32?: number;
}

const checksumHeaders = (crc32: number | undefined): Record<string, string> => (crc32 === undefined ? {} : { 'x-amz-checksum-crc32': crc32ToBase64(crc32) });

const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

/** AWS's URI encoding of one key segment (what the SDK puts in paths). */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

function xmlText(xml: string, name: string): string | undefined {
  const raw = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml)?.[1];
  return raw === undefined ? undefined : unescapeXml(raw);
}

function unescapeXml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function stripQuotes(etag: string): string {
  return etag.replace(/^"|"$/g, '');
}

export function createS3Client(transport: Transport, session: () => Promise<S3Session>) {
  const signers = new WeakMap<S3Session, SignatureV4>();
  const signerFor = (s: S3Session) => {
    let signer = signers.get(s);
    if (!signer) {
      signer = new SignatureV4({
        credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey, sessionToken: s.sessionToken },
        region: s.region,
        service: 's3',
        sha256: Sha256,
        uriEscapePath: false,
        applyChecksum: false,
      });
      signers.set(s, signer);
    }
    return signer;
  };

  async function send(
    method: string,
    key: string,
    query: Record<string, string>,
    body: Blob | string | undefined,
    headers: Record<string, string>,
    options: SendOptions = {},
  ): Promise<TransportResponse> {
    const s = await session();
    const base = new URL(s.endpoint);
    const basePath = base.pathname.replace(/\/+$/, '');
    const encodedKey = key.split('/').map(encodeSegment).join('/');
    const host = s.forcePathStyle ? base.host : `${s.bucket}.${base.host}`;
    const path = s.forcePathStyle ? `${basePath}/${s.bucket}/${encodedKey}` : `${basePath}/${encodedKey}`;
    const request = new HttpRequest({
      method,
      protocol: base.protocol,
      hostname: host,
      path,
      query,
      headers: { host, 'x-amz-content-sha256': UNSIGNED_PAYLOAD, ...headers },
    });
    const signed = await signerFor(s).sign(request, { signingDate: new Date(Date.now() + s.clockOffsetMs) });
    const sendHeaders: Record<string, string> = {};
    // The browser sets Host and Content-Length itself (and refuses to be told).
    for (const [name, value] of Object.entries(signed.headers)) if (name !== 'host' && name !== 'content-length') sendHeaders[name] = String(value);
    const search = Object.entries(query)
      .map(([name, value]) => (value === '' ? encodeSegment(name) : `${encodeSegment(name)}=${encodeSegment(value)}`))
      .join('&');
    const url = `${base.protocol}//${host}${path}${search ? `?${search}` : ''}`;
    const response = await transport({
      method,
      url,
      headers: sendHeaders,
      ...(body !== undefined && { body }),
      ...(options.signal && { signal: options.signal }),
      ...(options.onUploadProgress && { onUploadProgress: options.onUploadProgress }),
    });
    // CompleteMultipartUpload may answer 200 with an error document.
    if (response.status >= 300 || /<Error>/.test(response.text)) {
      throw new S3RequestError(
        response.status >= 300 ? response.status : 500,
        xmlText(response.text, 'Code'),
        xmlText(response.text, 'Message') ?? `S3 ${method} answered ${response.status}`,
      );
    }
    return response;
  }

  const etagOf = (response: TransportResponse) => {
    const etag = response.header('etag');
    if (!etag) throw new S3RequestError(0, 'MissingETag', 'The storage answered without an ETag (is it exposed by CORS?)');
    return stripQuotes(etag);
  };

  return {
    /** Never replaces an object (If-None-Match: *): a retried PUT that already went through answers 412. */
    async putObject(key: string, body: Blob, contentType: string, options?: SendOptions & ChecksumOption): Promise<string> {
      const headers = { 'content-type': contentType, 'if-none-match': '*', ...checksumHeaders(options?.crc32) };
      return etagOf(await send('PUT', key, {}, body, headers, options));
    },
    /** With `checksums`, every part must carry its CRC-32 and the object gets its whole CRC-32 (FULL_OBJECT). */
    async createMultipartUpload(key: string, contentType: string, options?: SendOptions & { checksums?: boolean }): Promise<string> {
      const checksums: Record<string, string> = options?.checksums ? { 'x-amz-checksum-algorithm': 'CRC32', 'x-amz-checksum-type': 'FULL_OBJECT' } : {};
      const response = await send('POST', key, { uploads: '' }, undefined, { 'content-type': contentType, ...checksums }, options);
      const uploadId = xmlText(response.text, 'UploadId');
      if (!uploadId) throw new S3RequestError(500, 'MalformedResponse', 'CreateMultipartUpload answered without an UploadId');
      return uploadId;
    },
    async uploadPart(key: string, uploadId: string, partNumber: number, body: Blob, options?: SendOptions & ChecksumOption): Promise<string> {
      return etagOf(await send('PUT', key, { partNumber: String(partNumber), uploadId }, body, checksumHeaders(options?.crc32), options));
    },
    /** Every stored part, or null when the upload no longer exists (aborted or completed). */
    async listParts(key: string, uploadId: string, options?: SendOptions): Promise<ListedPart[] | null> {
      const parts: ListedPart[] = [];
      let marker = '0';
      for (;;) {
        let response: TransportResponse;
        try {
          response = await send('GET', key, { uploadId, 'part-number-marker': marker, 'max-parts': '1000' }, undefined, {}, options);
        } catch (error) {
          if (error instanceof S3RequestError && (error.code === 'NoSuchUpload' || error.status === 404)) return null;
          throw error;
        }
        for (const match of response.text.matchAll(/<Part>([\s\S]*?)<\/Part>/g)) {
          const part = match[1] ?? '';
          const crc32 = crc32FromBase64(xmlText(part, 'ChecksumCRC32') ?? '');
          parts.push({
            partNumber: Number(xmlText(part, 'PartNumber')),
            etag: stripQuotes(xmlText(part, 'ETag') ?? ''),
            size: Number(xmlText(part, 'Size')),
            ...(crc32 !== null && { crc32 }),
          });
        }
        if (xmlText(response.text, 'IsTruncated') !== 'true') return parts;
        const next = xmlText(response.text, 'NextPartNumberMarker');
        if (!next || next === marker) return parts;
        marker = next;
      }
    },
    /** With `crc32`, the whole object's CRC-32 (FULL_OBJECT): the store refuses to make an object of other bytes. */
    async completeMultipartUpload(
      key: string,
      uploadId: string,
      parts: { partNumber: number; etag: string; crc32?: number }[],
      options?: SendOptions & ChecksumOption,
    ): Promise<string> {
      const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
      const partXml = (p: (typeof parts)[number]) =>
        `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>"${escapeXml(p.etag)}"</ETag>${p.crc32 === undefined ? '' : `<ChecksumCRC32>${crc32ToBase64(p.crc32)}</ChecksumCRC32>`}</Part>`;
      const xml = `<CompleteMultipartUpload>${sorted.map(partXml).join('')}</CompleteMultipartUpload>`;
      const whole = options?.crc32 === undefined ? {} : { ...checksumHeaders(options.crc32), 'x-amz-checksum-type': 'FULL_OBJECT' };
      const response = await send('POST', key, { uploadId }, xml, { 'content-type': 'application/xml', 'if-none-match': '*', ...whole }, options);
      return stripQuotes(xmlText(response.text, 'ETag') ?? '');
    },
    /** Succeeds when the upload is already gone. */
    async abortMultipartUpload(key: string, uploadId: string, options?: SendOptions): Promise<void> {
      try {
        await send('DELETE', key, { uploadId }, undefined, {}, options);
      } catch (error) {
        if (!(error instanceof S3RequestError && (error.code === 'NoSuchUpload' || error.status === 404))) throw error;
      }
    },
  };
}

export type S3Client = ReturnType<typeof createS3Client>;
