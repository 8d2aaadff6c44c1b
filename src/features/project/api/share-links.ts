import { ShareLinkListStruct, ShareLinkStruct, type CreateShareLinkBody } from '@/domain/contract/share-links.ts';
import { api } from '@/lib/api-client.ts';

export async function listShareLinks(projectId: number) {
  return (await api('GET', `/projects/${projectId}/share-links`, { struct: ShareLinkListStruct })).links;
}

export function createShareLink(projectId: number, body: CreateShareLinkBody) {
  return api('POST', `/projects/${projectId}/share-links`, { body, struct: ShareLinkStruct });
}

export async function revokeShareLink(projectId: number, linkId: number): Promise<void> {
  await api('DELETE', `/projects/${projectId}/share-links/${linkId}`);
}
