import type { Project } from '@/domain/contract/projects.ts';
import type { MenuItem } from '@/ui/menu.tsx';
import { startDownload } from './start-download.ts';

/**
 * Download HD / low-res items of a card menu: enabled once the media pipeline made the
 * renditions. The links are the app's media links, which hand the browser a short-lived
 * storage URL saved as an attachment: the download starts without leaving the page.
 */
export function downloadItems(project: Project): MenuItem[] {
  const download = (url: string | null) => () => url && startDownload(url);
  // Why an item is disabled: no final video delivered at all, or its rendition still being made.
  const delivered = Boolean(project.finalVideoPath || project.finalVideoPreview);
  const why = (rendition: string) =>
    delivered
      ? `The ${rendition} file is still being prepared: it is ready a few minutes after delivery.`
      : 'No final video has been delivered for this project yet.';
  return [
    { label: 'Download HD', onSelect: download(project.hdUrl), disabled: !project.hdUrl, hint: why('HD') },
    { label: 'Download low-res', onSelect: download(project.lowResUrl), disabled: !project.lowResUrl, hint: why('low-res') },
  ];
}
