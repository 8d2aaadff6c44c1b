import { useEffect } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { notMobileReturnPath } from '@/domain/route-guard.ts';
import { useIsMobile } from '@/ui/use-window-width.ts';
import { Clapboard } from '@/ui/brand.tsx';

/**
 * Notice for windows of 768 px or less. Once the window is wide again it goes back by itself to
 * the page the notice replaced (`?from=`), where a half-filled form is still there: a window
 * narrowed for a moment (snapped, dev tools docked) must not leave the user on this notice.
 * Opened without `from`, "Continue" leads to the start.
 */
export function NotMobilePage() {
  const isMobile = useIsMobile();
  const search = useSearch();
  const back = notMobileReturnPath(search);
  const [, navigate] = useLocation();
  const cameFromPage = new URLSearchParams(search).has('from');
  useEffect(() => {
    if (!isMobile && cameFromPage) navigate(back, { replace: true });
  }, [isMobile, cameFromPage, back, navigate]);
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
