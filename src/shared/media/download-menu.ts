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
  return [
    { label: 'Download HD', onSelect: download(project.hdUrl), disabled: !project.hdUrl, hint: 'The HD video is not ready yet' },
    { label: 'Download low-res', onSelect: download(project.lowResUrl), disabled: !project.lowResUrl, hint: 'The low-res video is not ready yet' },
  ];
}
