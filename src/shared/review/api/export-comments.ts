import type { ExportFormat } from '@/domain/contract/review.ts';
import { api } from '@/lib/api-client.ts';

/**
 * The version's markers as the file's text (CSV, EDL or FCPXML). Read through the API client,
 * which carries the session's Authorization header; a plain link could not.
 */
export async function exportComments(projectId: number, version: number, format: ExportFormat): Promise<string> {
  const body: unknown = await api('GET', `/projects/${projectId}/comments/export`, { query: { version, format } });
  return typeof body === 'string' ? body : JSON.stringify(body);
}
