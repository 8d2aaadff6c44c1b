import { useEffect } from 'react';
import { Link } from 'wouter';
import { AUTHOR_NAME, SUPPORT_EMAIL } from '@/ui/constants.ts';
import { Logo } from '@/ui/brand.tsx';
import { pathTo } from '@/domain/pages.ts';

const SECTIONS = [
  { id: 'contact', title: 'Contact support' },
  { id: 'projects', title: 'Creating and sending a project' },
  { id: 'uploads', title: 'Uploading footage' },
  { id: 'review', title: 'Reviewing and approving' },
  { id: 'downloads', title: 'Downloads and the content library' },
  { id: 'pricing', title: 'Plans, credits and storage' },
  { id: 'account', title: 'Your account and team' },
  { id: 'privacy', title: 'Privacy' },
] as const;

const mail = <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>;

/**
 * /help: help for customers and the privacy notice (the footer's Privacy link is /help#privacy),
 * with contents, and a way back into the app: the menus open it in a new tab, where "back" has
 * nowhere to go.
 */
export function HelpPage() {
  // The sections exist only once the page has rendered: scroll to the address's #section then.
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView();
  }, []);

  return (
    <div className="help-page">
      <header className="help-head">
        <Link href="/" aria-label="Cutdesk home">
          <Logo />
        </Link>
        <Link href="/" className="btn btn-secondary" data-testid="help-back">
          ← Back to Cutdesk
        </Link>
      </header>
      <div className="help-body">
        <nav className="help-toc" aria-label="Help contents">
          <strong>Contents</strong>
          <ul>
            {SECTIONS.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.title}</a>
              </li>
            ))}
          </ul>
        </nav>
        <main className="prose help-prose">
          <h1>How can we help?</h1>

          <h2 id="contact">Contact support</h2>
          <p>
            Write to {mail}. We answer within one business day, Monday to Friday, 9:00–18:00 New York time. Tell us the project's name and what you see; a
            screenshot helps.
          </p>

          <h2 id="projects">Creating and sending a project</h2>
          <p>
            Choose <strong>New project</strong> and give the video a name, its audience, its goal, its length and a brief. The project then waits in{' '}
            <strong>Assembly</strong> while you add footage; you can change the brief until you send it.
          </p>
          <p>
            <strong>Send to editing</strong> checks the brief and the uploads first, saves any brief edits you have not saved yet and then asks you to confirm.
            Sending uses one credit. Our editors deliver the first version within 48 business hours; the timer does not count on Saturdays and Sundays, and says
            so while it is paused.
          </p>

          <h2 id="uploads">Uploading footage</h2>
          <p>
            Drop files on the interview clips, B-roll clips or image assets zone of a project, or click the zone to choose them. Interviews and B-roll take
            video files, image assets take pictures. Large uploads continue after a reload or a lost connection: keep Cutdesk open until the uploads panel says
            they are complete. A clip whose upload did not finish must be resumed or removed before the project can be sent.
          </p>
          <p>Uploads are refused when your organization's storage is full; the zone then says “There is no more memory.”</p>

          <h2 id="review">Reviewing and approving</h2>
          <p>
            When a version is ready the project moves to <strong>Needs review</strong> and we e-mail you. Watch it on the project page, then choose{' '}
            <strong>Request changes</strong> (leave your comments on the review page and submit the revision) or <strong>Looks great</strong> to approve it. A
            project left in review is approved by itself when its review period ends; the days left show on the project.
          </p>

          <h2 id="downloads">Downloads and the content library</h2>
          <p>
            Approved and archived videos are in the <strong>Content Library</strong>. Download them in HD or low resolution from a project's menu, or from the
            project page. A download that is not available yet says why.
          </p>

          <h2 id="pricing">Plans, credits and storage</h2>
          <p>
            Plans run for 12 months with new credits every month; one credit sends one project to editing. The top bar shows the credits used and your storage.
            See every plan, its price and what it includes on <Link href={pathTo('pricing')}>the pricing page</Link>. If your organization has no credits left,
            the project page tells you before you send.
          </p>

          <h2 id="account">Your account and team</h2>
          <p>
            The owner of an organization adds and manages its users under <strong>Admin Settings</strong>. Forgot your password? Use “Forgot password?” on the
            sign-in page and follow the link we e-mail you.
          </p>

          <h2 id="privacy">Privacy</h2>
          <p>{AUTHOR_NAME} runs Cutdesk to produce your videos. This is what we keep, why, and who else sees it.</p>
          <ul>
            <li>
              <strong>Your account:</strong> your name, e-mail address, phone number and role, and your organization's name, plan and credits. We use them to
              sign you in, to run your projects and to write to you about them.
            </li>
            <li>
              <strong>Your projects:</strong> briefs, the footage and images you upload, and the videos we deliver. Only your organization and our staff working
              on your projects can see them; media links expire and end with your session.
            </li>
            <li>
              <strong>In your browser:</strong> Cutdesk keeps your session, your organization's figures for the top bar, a list of your projects and the queue
              of unfinished uploads on this computer, so the app starts quickly and uploads resume. Logging out removes the session.
            </li>
            <li>
              <strong>Payments:</strong> card payments are handled by our payment provider; we keep your plan, your subscription and your invoices.
            </li>
            <li>
              <strong>Bot check:</strong> sign-in and registration may ask a bot-check service to confirm you are a person.
            </li>
          </ul>
          <p>We do not sell your data or use it for advertising. To see, correct or delete what we keep about you or your organization, write to {mail}.</p>
        </main>
      </div>
    </div>
  );
}
