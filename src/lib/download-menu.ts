import type { Project } from '@/domain/contract/projects.ts';
import type { MenuItem } from '@/ui/menu.tsx';

/** Download HD / low-res items of a card menu: enabled once the media pipeline filled the links. */
export function downloadItems(project: Project): MenuItem[] {
  const open = (url: string | null) => () => url && window.open(url, '_blank', 'noopener');
  return [
    { label: 'Download HD', onSelect: open(project.hdUrl), disabled: !project.hdUrl, hint: 'The HD video is not ready yet' },
    { label: 'Download low-res', onSelect: open(project.lowResUrl), disabled: !project.lowResUrl, hint: 'The low-res video is not ready yet' },
  ];
}
