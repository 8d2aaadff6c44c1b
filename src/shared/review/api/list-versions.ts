import { VersionListStruct } from '@/domain/contract/review.ts';
import { api } from '@/lib/api-client.ts';

export async function listVersions(projectId: number) {
  return (await api('GET', `/projects/${projectId}/versions`, { struct: VersionListStruct })).versions;
}
