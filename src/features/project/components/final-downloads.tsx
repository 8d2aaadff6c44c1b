import type { Project } from '@/domain/contract/projects.ts';
import { downloadItems } from '@/shared/media/download-menu.ts';
import { Button } from '@/ui/button.tsx';

/**
 * An approved or archived project's downloads on its own page (the card menus have them too):
 * HD and low-res, each disabled with its reason written out while the file is not ready.
 */
export function FinalDownloads({ project }: { project: Project }) {
  const items = downloadItems(project);
  // Each reason once (with no video at all, HD and low-res share it).
  const reasons = [...new Set(items.filter((item) => item.disabled && item.hint).map((item) => item.hint!))];
  return (
    <section className="card final-downloads" aria-label="Download the final video">
      <h2>Final video</h2>
      <p className="muted">Download the approved version for your website, social media or presentations.</p>
      <div className="button-row">
        {items.map((item) => (
          <Button
            key={item.label}
            variant={item.label === 'Download HD' ? 'primary' : 'secondary'}
            disabled={item.disabled}
            title={item.disabled ? item.hint : undefined}
            onClick={item.onSelect}
          >
            {item.label}
          </Button>
        ))}
      </div>
      {reasons.length > 0 && (
        <ul className="download-reasons" data-testid="download-reasons">
          {reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
