import { LinkStruct, type Link, type LinkBody } from '@/domain/contract/media.ts';
import { api } from '@/lib/api-client.ts';

/** A§7 POST projects/{id}/links: a short-lived GET link to an original or its `_proxy.mp4`. */
export function requestDownloadLink(projectId: number, body: LinkBody): Promise<Link> {
  return api('POST', `/projects/${projectId}/links`, { body: { operationName: 'download', ...body }, struct: LinkStruct });
}

/** Starts the browser's own download of `url` (it carries Content-Disposition: attachment). */
export function startDownload(url: string, name?: string): void {
  const a = document.createElement('a');
  a.href = url;
  if (name) a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

/** The staff asset menu's "Download full" / "Download reduced": a fresh link, then the download. */
export async function downloadAsset(projectId: number, assetId: number, variant: 'original' | 'proxy'): Promise<void> {
  const link = await requestDownloadLink(projectId, { assetId, variant });
  startDownload(link.link, link.name);
}

/** The final video's original (staff) or its `_proxy.mp4`, by the spec's name form. */
export async function downloadFinalVideoFile(projectId: number, name: string): Promise<void> {
  const link = await requestDownloadLink(projectId, { name, uploadType: 'deliverable' });
  startDownload(link.link, link.name);
}
