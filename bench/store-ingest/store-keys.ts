/** The bucket and the one key pair of the store bench/store-ingest starts (bench/store-ingest/server.ts). */
export const BUCKET = 'bench';
export const KEYS = { accessKeyId: 'AKIABENCHINGEST', secretAccessKey: 'bench-ingest-secret' };
