import type { MailMessage } from './mailer.ts';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function layout(title: string, intro: string, action: string, link: string, outro: string): Pick<MailMessage, 'text' | 'html'> {
  return {
    text: `${title}\n\n${intro}\n\n${action}: ${link}\n\n${outro}\n\nCutdesk`,
    html: `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#464A4F">
<h2>${escape(title)}</h2><p>${escape(intro)}</p>
<p><a href="${escape(link)}" style="background:#87C232;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escape(action)}</a></p>
<p style="font-size:12px;color:#777">${escape(outro)}<br>${escape(link)}</p></body></html>`,
  };
}

export function recoveryMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Reset your Cutdesk password',
    links: [link],
    ...layout('Reset your password', 'Someone asked to reset the password of your Cutdesk account.', 'Choose a new password', link,
      'The link works once and expires in one hour. If you did not ask for it, ignore this e-mail.'),
  };
}

export function inviteMail(to: string, organizationName: string, link: string): MailMessage {
  return {
    to,
    subject: `You are invited to ${organizationName} on Cutdesk`,
    links: [link],
    ...layout(`Join ${organizationName} on Cutdesk`, `You have been added to ${organizationName}. Set a password to sign in.`, 'Set your password', link,
      'The link works once and expires in seven days.'),
  };
}

/** Invitation of a staff member (editor or admin): there is no organization to name. */
export function staffInviteMail(to: string, role: string, link: string): MailMessage {
  const as = role === 'EDITOR' ? 'an editor' : role === 'ADMIN' ? 'an admin' : 'a staff member';
  return {
    to,
    subject: 'You are invited to the Cutdesk team',
    links: [link],
    ...layout('Join the Cutdesk team', `You have been added to the Cutdesk back-office as ${as}. Set a password to sign in.`, 'Set your password', link,
      'The link works once and expires in seven days.'),
  };
}
