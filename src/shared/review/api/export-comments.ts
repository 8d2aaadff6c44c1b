import * as operations from '@/domain/contract/review.ts';
import type { ExportFormat } from '@/domain/contract/review.ts';
import { call } from '@/lib/api-client.ts';

/**
 * The version's comments as the file's content: the markers' text (CSV, EDL or FCPXML), or the
 * PDF's bytes (the client reads a binary answer as a Blob). Read through the API client, which
 * carries the session's Authorization header; a plain link could not.
 */
export async function exportComments(projectId: number, version: number, format: ExportFormat): Promise<string | Blob> {
  const body: unknown = await call(operations.exportComments, { params: { id: projectId }, query: { version, format } });
  if (typeof body === 'string' || body instanceof Blob) return body;
  return JSON.stringify(body);
}
