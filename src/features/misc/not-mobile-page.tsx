import { Link, useSearch } from 'wouter';
import { notMobileReturnPath } from '@/domain/route-guard.ts';
import { useIsMobile } from '@/ui/use-window-width.ts';
import { Clapboard } from '@/ui/brand.tsx';

/**
 * Notice for windows of 768 px or less. Once the window is wide again, "Continue" goes back to
 * the page the notice replaced (`?from=`), where a half-filled form is still there.
 */
export function NotMobilePage() {
  const isMobile = useIsMobile();
  const back = notMobileReturnPath(useSearch());
  return (
    <div className="notice-page">
      <div className="notice fade-in">
        <div className="clapboard-wrap">
          <Clapboard size={96} />
        </div>
        <h1>Cutdesk works on a desktop</h1>
        <p>
          Reviewing edits and uploading <strong>gigabytes of footage</strong> needs a bigger screen. Please open Cutdesk on a computer, or make this window
          wider than <strong>768 pixels</strong>.
        </p>
        {!isMobile && (
          <Link href={back} replace className="btn btn-success">
            Continue to Cutdesk
          </Link>
        )}
      </div>
    </div>
  );
}
