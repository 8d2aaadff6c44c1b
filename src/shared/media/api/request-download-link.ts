import * as operations from '@/domain/contract/media.ts';
import type { Link, LinkBody } from '@/domain/contract/media.ts';
import { call } from '@/lib/api-client.ts';

/** A§7 POST projects/{id}/links: a short-lived GET link to an original or its `_proxy.mp4`. */
export function requestDownloadLink(projectId: number, body: LinkBody): Promise<Link> {
  return call(operations.requestDownloadLink, { params: { id: projectId }, body: { operationName: 'download', ...body } });
}
