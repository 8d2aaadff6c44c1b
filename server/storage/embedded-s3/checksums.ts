import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * S3 "additional checksums" (x-amz-checksum-*). The SDK sends CRC32 by default on every
 * upload; CRC32, SHA1 and SHA256 are verified with Node's own implementations. CRC32C and
 * CRC64NVME have none in Node, so they are stored and echoed as the client sent them.
 */

export const CHECKSUM_ALGORITHMS = ['CRC32', 'CRC32C', 'CRC64NVME', 'SHA1', 'SHA256'] as const;
export type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];

export interface StoredChecksum {
  algorithm: ChecksumAlgorithm;
  /** Base64, as in the x-amz-checksum-* header; composite values end in `-<parts>`. */
  value: string;
  type: 'FULL_OBJECT' | 'COMPOSITE';
}

export function checksumHeaderName(algorithm: ChecksumAlgorithm): string {
  return `x-amz-checksum-${algorithm.toLowerCase()}`;
}

/** The XML element name S3 uses for a checksum (ChecksumCRC32, ...). */
export function checksumElementName(algorithm: ChecksumAlgorithm): string {
  return `Checksum${algorithm}`;
}

export function parseChecksumAlgorithm(value: string | undefined): ChecksumAlgorithm | undefined {
  const upper = value?.toUpperCase();
  return CHECKSUM_ALGORITHMS.find((algorithm) => algorithm === upper);
}

export interface ChecksumHasher {
  update(data: Buffer): void;
  digestBase64(): string;
}

class Crc32Hasher implements ChecksumHasher {
  private value = 0;
  update(data: Buffer): void {
    this.value = crc32(data, this.value);
  }
  digestBase64(): string {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(this.value >>> 0);
    return bytes.toString('base64');
  }
}

class NodeHashHasher implements ChecksumHasher {
  private readonly hash: Hash;
  constructor(algorithm: 'sha1' | 'sha256') {
    this.hash = createHash(algorithm);
  }
  update(data: Buffer): void {
    this.hash.update(data);
  }
  digestBase64(): string {
    return this.hash.digest('base64');
  }
}

/** A hasher for the algorithm, or null when this server cannot compute it. */
export function createChecksumHasher(algorithm: ChecksumAlgorithm): ChecksumHasher | null {
  switch (algorithm) {
    case 'CRC32':
      return new Crc32Hasher();
    case 'SHA1':
      return new NodeHashHasher('sha1');
    case 'SHA256':
      return new NodeHashHasher('sha256');
    default:
      return null;
  }
}

/** S3's composite multipart checksum: the checksum of the concatenated binary part checksums, then `-N`. */
export function compositeChecksum(algorithm: ChecksumAlgorithm, partValues: string[]): string | null {
  const hasher = createChecksumHasher(algorithm);
  if (!hasher) return null;
  for (const value of partValues) hasher.update(Buffer.from(value, 'base64'));
  return `${hasher.digestBase64()}-${partValues.length}`;
}
