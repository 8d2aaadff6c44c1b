import { Link } from 'wouter';
import { useIsMobile } from '@/ui/use-window-width.ts';
import { Clapboard } from '@/ui/brand.tsx';

export function NotMobilePage() {
  const isMobile = useIsMobile();
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
          <Link href="/" className="btn btn-success">
            Continue to Cutdesk
          </Link>
        )}
      </div>
    </div>
  );
}
