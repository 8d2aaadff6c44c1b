import { LinkStruct, type Link, type LinkBody } from '@/domain/contract/media.ts';
import { api } from '@/lib/api-client.ts';

/** A§7 POST projects/{id}/links: a short-lived GET link to an original or its `_proxy.mp4`. */
export function requestDownloadLink(projectId: number, body: LinkBody): Promise<Link> {
  return api('POST', `/projects/${projectId}/links`, { body: { operationName: 'download', ...body }, struct: LinkStruct });
}
