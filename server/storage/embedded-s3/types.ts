import type { FastifyRequest } from 'fastify';
import type { ObjectFiles } from './object-files.ts';

/** Who may call the embedded endpoint with a given access key id. */
export interface S3Principal {
  secretAccessKey: string;
  /** When set, every request must carry it as x-amz-security-token (temporary credentials). */
  sessionToken?: string;
  /** When set, every key touched must start with this */
  allowedPrefix?: string;
  /** After this instant every request answers 403 ExpiredToken. */
  expiresAt?: Date;
  /**
   * Browser upload credentials: PutObject and the multipart calls only (no reads, lists,
   * deletes or copies), and never replacing an object that exists.
   */
  uploadOnly?: boolean;
}

export interface CredentialResolver {
  /** The principal for an access key id, or null when the id is unknown (403 InvalidAccessKeyId). */
  lookup(accessKeyId: string): Promise<S3Principal | null>;
}

export interface EmbeddedS3Options {
  /** Directory that holds the bucket's objects, uploads in progress and temp files. */
  root: string;
  /** The one bucket this endpoint serves; other names answer NoSuchBucket. */
  bucket: string;
  /** Region clients must sign for (the credential scope's region). */
  region: string;
  credentials: CredentialResolver;
  /**
   * Which page origins get CORS answers besides the request's own (issue 36: never any origin).
   * Without it only same-origin pages are answered.
   */
  allowOrigin?: (origin: string, request: FastifyRequest) => boolean;
  /**
   * Hands over the store's objects once open, for this server's own whole-object reads
   * (server/storage/setup.ts): the same instance, so its readers keep a replaced object's bytes.
   */
  onObjects?: (objects: ObjectFiles) => void;
}
