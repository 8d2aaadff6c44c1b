import { SUPPORT_EMAIL } from '@/ui/constants.ts';
import { Logo } from '@/ui/brand.tsx';

/** The contact page the menus open in a new tab. */
export function HelpPage() {
  return (
    <div className="notice-page">
      <div className="notice fade-in" style={{ maxWidth: 720 }}>
        <Logo />
        <h1>How can we help?</h1>
        <div className="prose">
          <h2>Contact support</h2>
          <p>
            Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. We answer within one business day, Monday to Friday, 9:00–18:00 New York time.
          </p>
          <h2>Turnaround</h2>
          <p>Once you send a project to editing, our editors deliver the first version within 48 business hours. Weekends do not count.</p>
          <h2>Uploads</h2>
          <p>Large uploads continue after a reload or a lost connection. Keep the tab open until the pending uploads list is empty.</p>
        </div>
      </div>
    </div>
  );
}
