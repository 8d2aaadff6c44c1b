import * as operations from '@/domain/contract/media.ts';
import type { ZipLink, ZipLinkBody } from '@/domain/contract/media.ts';
import { call } from '@/lib/api-client.ts';

/** Issue 34 POST projects/{id}/zip-links (staff): a link to the raw zip the server streams. */
export function requestZipLink(projectId: number, body: ZipLinkBody): Promise<ZipLink> {
  return call(operations.requestZipLink, { params: { id: projectId }, body });
}
