import { Icon } from '@/ui/icons.tsx';
import { useInstallPrompt } from './install-prompt.ts';

/**
 * "Install Cutdesk" in the user area of both shells; shown only while the browser offers to
 * install (never once installed). Compact (icon and "Install") so the top bar keeps its room.
 */
export function InstallAppButton() {
  const { canInstall, install } = useInstallPrompt();
  if (!canInstall) return null;
  return (
    <button
      type="button"
      className="btn btn-ghost install-app"
      aria-label="Install Cutdesk"
      title="Install Cutdesk as an app on this computer"
      onClick={() => void install().catch((error: unknown) => console.error('install failed', error))}
    >
      <Icon name="download" size={16} />
      Install
    </button>
  );
}
