import type { ReactNode } from 'react';
import { Logo } from '@/ui/brand.tsx';

/** Brand panel on the left, the form on the right. */
export function AuthLayout({ children, footer }: { children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="auth">
      <aside className="auth-brand">
        <Logo inverse />
        <div>
          <h2>Professional videos, without the production headache.</h2>
          <p>Send your brief and raw footage. Our editors deliver a finished video in 48 business hours, and you approve every version.</p>
          <ul className="auth-points">
            <li>Upload multi-gigabyte clips straight from your browser</li>
            <li>Review, request changes and approve in one place</li>
            <li>Every finished video in your content library</li>
          </ul>
        </div>
        <small>{footer ?? '© Cutdesk'}</small>
      </aside>
      <main className="auth-main">
        {/* No entrance animation: the sign-in form is the app's first screen, and a 0.35 s fade
            from transparent kept it off screen that long after it was rendered (issue 34). */}
        <div className="auth-card">{children}</div>
      </main>
    </div>
  );
}
