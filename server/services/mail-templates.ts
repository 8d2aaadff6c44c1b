import type { MailMessage } from './mailer.ts';
import { escapeHtml } from '../../src/domain/html-text.ts';

function layout(title: string, intro: string, action: string, link: string, outro: string): Pick<MailMessage, 'text' | 'html'> {
  return {
    text: `${title}\n\n${intro}\n\n${action}: ${link}\n\n${outro}\n\nCutdesk`,
    html: `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#464A4F">
<h2>${escapeHtml(title)}</h2><p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="background:#87C232;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:12px;color:#777">${escapeHtml(outro)}<br>${escapeHtml(link)}</p></body></html>`,
  };
}

export function recoveryMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Reset your Cutdesk password',
    links: [link],
    ...layout(
      'Reset your password',
      'Someone asked to reset the password of your Cutdesk account.',
      'Choose a new password',
      link,
      'The link works once and expires in one hour. If you did not ask for it, ignore this e-mail.',
    ),
  };
}

export function inviteMail(to: string, organizationName: string, link: string): MailMessage {
  return {
    to,
    subject: `You are invited to ${organizationName} on Cutdesk`,
    links: [link],
    ...layout(
      `Join ${organizationName} on Cutdesk`,
      `You have been added to ${organizationName}. Set a password to sign in.`,
      'Set your password',
      link,
      'The link works once and expires in seven days.',
    ),
  };
}

/** Invitation of a staff member (editor or admin): there is no organization to name. */
export function staffInviteMail(to: string, role: string, link: string): MailMessage {
  const as = role === 'EDITOR' ? 'an editor' : role === 'ADMIN' ? 'an admin' : 'a staff member';
  return {
    to,
    subject: 'You are invited to the Cutdesk team',
    links: [link],
    ...layout(
      'Join the Cutdesk team',
      `You have been added to the Cutdesk back-office as ${as}. Set a password to sign in.`,
      'Set your password',
      link,
      'The link works once and expires in seven days.',
    ),
  };
}

/** Label and value lines of a billing e-mail (receipt, failed renewal), text and HTML alike. */
function withDetails(mail: Pick<MailMessage, 'text' | 'html'>, rows: [string, string][]): Pick<MailMessage, 'text' | 'html'> {
  const text = rows.map(([label, value]) => `${label}: ${value}`).join('\n');
  const table = `<table style="border-collapse:collapse;margin:12px 0">${rows.map(([label, value]) => `<tr><td style="padding:2px 16px 2px 0;color:#777">${escapeHtml(label)}</td><td style="padding:2px 0">${escapeHtml(value)}</td></tr>`).join('')}</table>`;
  // Replacer functions: a `$` in a name or an amount is text, not a replacement pattern.
  return { text: mail.text.replace('\n\n', () => `\n\n${text}\n\n`), html: mail.html.replace('</h2>', () => `</h2>${table}`) };
}

/**
 * What a billing e-mail shows of a payment. The card is only ever its brand and last four
 * digits (we never have more); amounts are already formatted with their currency.
 */
export interface BillingMailDetails {
  organizationName: string;
  planName: string;
  invoiceNumber: string;
  /** "Nov 23, 2026 – Nov 22, 2027". */
  period: string;
  amount: string;
  /** "Visa •••• 4242", or null when no card was charged (a 100% coupon). */
  card: string | null;
  /** The Subscription tab: `${publicUrl}/user/admin-settings?tab=subscription`. */
  link: string;
}

/** The receipt of a successful charge: the first purchase or a yearly renewal. */
export function receiptMail(to: string, details: BillingMailDetails): MailMessage {
  const rows: [string, string][] = [
    ['Invoice', details.invoiceNumber],
    ['Plan', details.planName],
    ['Period', details.period],
    ['Amount paid', details.amount],
  ];
  if (details.card) rows.push(['Card', details.card]);
  return {
    to,
    subject: `Your Cutdesk receipt ${details.invoiceNumber}`,
    links: [details.link],
    ...withDetails(
      layout(
        `Thank you for your payment`,
        `We received the payment for ${details.organizationName}'s Cutdesk subscription.`,
        'View your subscription',
        details.link,
        'Invoices can be downloaded from the Subscription tab. Questions about billing? Contact Cutdesk support.',
      ),
      rows,
    ),
  };
}

/**
 * A yearly renewal charge failed. `nextAttempt` is the date of the next try (YYYY-MM-DD as the
 * customer reads it), or null after the last one: the subscription is inactive then.
 */
export function renewalFailedMail(to: string, details: BillingMailDetails & { reason: string; nextAttempt: string | null }): MailMessage {
  const rows: [string, string][] = [
    ['Plan', details.planName],
    ['Period', details.period],
    ['Amount due', details.amount],
    ['Reason', details.reason],
  ];
  if (details.card) rows.push(['Card', details.card]);
  const final = details.nextAttempt === null;
  return {
    to,
    subject: final ? 'Your Cutdesk subscription is now inactive' : 'Your Cutdesk renewal payment failed',
    links: [details.link],
    ...withDetails(
      final
        ? layout(
            'Your subscription is now inactive',
            `We could not renew ${details.organizationName}'s Cutdesk subscription: the last payment attempt failed. No new credits will be granted; credits already granted stay usable until they expire.`,
            'Subscribe again',
            details.link,
            'Buying a plan on the Subscription tab starts a new subscription at once.',
          )
        : layout(
            'Your renewal payment failed',
            `We could not charge the yearly renewal of ${details.organizationName}'s Cutdesk subscription. We will try again on ${details.nextAttempt}.`,
            'Check your subscription',
            details.link,
            'If your card has changed or is short of funds, please contact Cutdesk support before the next attempt so your subscription does not lapse.',
          ),
      rows,
    ),
  };
}

/** What every review e-mail (issue 13) carries besides its content: the unsubscribe link. */
export interface ReviewMailFooter {
  unsubscribeLink: string;
}

function reviewMail(
  to: string,
  subject: string,
  body: { title: string; intro: string; action: string; link: string; outro: string; listText?: string; listHtml?: string },
  footer: ReviewMailFooter,
): MailMessage {
  const base = layout(body.title, body.intro, body.action, body.link, body.outro);
  const unsubscribeText = `Stop these e-mails: ${footer.unsubscribeLink}`;
  const unsubscribeHtml = `<p style="font-size:12px;color:#777"><a href="${escapeHtml(footer.unsubscribeLink)}">Stop these e-mails</a></p>`;
  return {
    to,
    subject,
    links: [body.link, footer.unsubscribeLink],
    headers: { 'List-Unsubscribe': `<${footer.unsubscribeLink}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    // Replacer functions: a `$` in user-written text is text, not a replacement pattern.
    text: base.text.replace('\n\n', () => `\n\n${body.listText ? `${body.listText}\n\n` : ''}`) + `\n\n${unsubscribeText}`,
    html: base.html.replace('</h2>', () => `</h2>${body.listHtml ?? ''}`).replace('</body>', () => `${unsubscribeHtml}</body>`),
  };
}

export function versionReadyMail(
  to: string,
  details: { projectName: string; version: string; daysLeft: number; link: string },
  footer: ReviewMailFooter,
): MailMessage {
  const days =
    details.daysLeft > 0
      ? `You have ${details.daysLeft} day${details.daysLeft === 1 ? '' : 's'} to review it; then the project is approved as it is.`
      : 'Take your time: this review has no time limit.';
  return reviewMail(
    to,
    `${details.projectName}: version ${details.version} is ready for review`,
    {
      title: `Version ${details.version} of ${details.projectName} is ready`,
      intro: `A new cut of ${details.projectName} is ready for your review. ${days}`,
      action: 'Review the video',
      link: details.link,
      outro: 'Comment on any frame; request changes or approve from the project page.',
    },
    footer,
  );
}

export function reviewReminderMail(
  to: string,
  details: { projectName: string; version: string; closesAt: string; link: string },
  footer: ReviewMailFooter,
): MailMessage {
  return reviewMail(
    to,
    `Reminder: the review of ${details.projectName} closes tomorrow`,
    {
      title: `The review of ${details.projectName} closes tomorrow`,
      intro: `Version ${details.version} of ${details.projectName} will be approved as it is on ${details.closesAt} unless you request changes.`,
      action: 'Review the video',
      link: details.link,
      outro: 'Nothing to change? You need not do anything.',
    },
    footer,
  );
}

export interface MailComment {
  timecode: string;
  author: string;
  text: string;
}

const commentLines = (comments: MailComment[]) => comments.map((c) => `${c.timecode}  ${c.author}: ${c.text}`).join('\n');
const commentRows = (comments: MailComment[]) =>
  `<table style="border-collapse:collapse;margin:12px 0">${comments.map((c) => `<tr><td style="padding:4px 12px 4px 0;font-family:monospace;vertical-align:top">${escapeHtml(c.timecode)}</td><td style="padding:4px 12px 4px 0;vertical-align:top;color:#777">${escapeHtml(c.author)}</td><td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(c.text)}</td></tr>`).join('')}</table>`;

export function changesRequestedMail(
  to: string,
  details: { projectName: string; organizationName: string; version: string; comments: MailComment[]; link: string },
  footer: ReviewMailFooter,
): MailMessage {
  const count = details.comments.length;
  return reviewMail(
    to,
    `Changes requested on ${details.projectName} (${details.organizationName})`,
    {
      title: `Changes requested on ${details.projectName}`,
      intro: `${details.organizationName} asked for changes on version ${details.version}: ${count} open comment${count === 1 ? '' : 's'}.`,
      action: 'Open the project',
      link: details.link,
      outro: 'The project is back in editing; its SLA timer runs again.',
      listText: commentLines(details.comments),
      listHtml: commentRows(details.comments),
    },
    footer,
  );
}

export interface DigestProject {
  projectName: string;
  link: string;
  comments: (MailComment & { version: string })[];
}

export function commentDigestMail(to: string, details: { projects: DigestProject[]; settingsLink: string }, footer: ReviewMailFooter): MailMessage {
  const total = details.projects.reduce((sum, p) => sum + p.comments.length, 0);
  const listText = details.projects
    .map((p) => `${p.projectName} (${p.link})\n${p.comments.map((c) => `  ${c.version} ${c.timecode}  ${c.author}: ${c.text}`).join('\n')}`)
    .join('\n\n');
  const listHtml = details.projects
    .map(
      (p) =>
        `<h3 style="margin:16px 0 4px"><a href="${escapeHtml(p.link)}">${escapeHtml(p.projectName)}</a></h3>${commentRows(p.comments.map((c) => ({ ...c, timecode: `${c.version} ${c.timecode}` })))}`,
    )
    .join('');
  return reviewMail(
    to,
    `${total} new comment${total === 1 ? '' : 's'} on your Cutdesk projects`,
    {
      title: 'New review comments',
      intro: `${total} new comment${total === 1 ? '' : 's'} since your last digest.`,
      action: 'Choose your review e-mails',
      link: details.settingsLink,
      outro: 'One digest a business day instead of one e-mail per comment.',
      listText,
      listHtml,
    },
    footer,
  );
}
