import * as operations from '@/domain/contract/share-links.ts';
import type { CreateShareLinkBody } from '@/domain/contract/share-links.ts';
import { call } from '@/lib/api-client.ts';

export async function listShareLinks(projectId: number) {
  return (await call(operations.listShareLinks, { params: { id: projectId } })).links;
}

export function createShareLink(projectId: number, body: CreateShareLinkBody) {
  return call(operations.createShareLink, { params: { id: projectId }, body });
}

export async function revokeShareLink(projectId: number, linkId: number): Promise<void> {
  await call(operations.revokeShareLink, { params: { id: projectId, linkId } });
}
