import * as operations from '@/domain/contract/media.ts';
import { call } from '@/lib/api-client.ts';

/**
 * Issue 35: the raw zip's manifest (CSV) as text. Read through the API client, which carries
 * the session's Authorization header; a plain link could not.
 */
export async function fetchAssetManifest(projectId: number): Promise<string> {
  const body: unknown = await call(operations.downloadAssetManifest, { params: { id: projectId } });
  return typeof body === 'string' ? body : body instanceof Blob ? body.text() : String(body);
}
