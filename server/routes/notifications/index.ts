import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/review-mail.ts';
import { pathTo } from '../../../src/domain/pages.ts';
import { reviewMailPreferences, unsubscribe, updateReviewMailPreferences } from '../../services/review-mail-preferences.ts';
import { route } from '../operation-route.ts';
import { escapeHtml } from '../../../src/domain/html-text.ts';

/** A plain page for the person who clicked the link in their mail client (no app, no session). */
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)} · Cutdesk</title></head>` +
  `<body style="font-family:Arial,sans-serif;color:#464A4F;max-width:520px;margin:80px auto;padding:0 24px"><h1 style="font-size:24px">${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p>` +
  `<p><a href="${pathTo('staffSignIn')}" style="color:#5b8f1c">Sign in to Cutdesk</a> to choose your review e-mails in Settings.</p></body></html>`;

/** Issue 13: the signed-in user's review e-mail settings, and the mails' unsubscribe link. */
export default async function notificationRoutes(app: FastifyInstance) {
  route(app, operations.getReviewMail, async (_, request) => reviewMailPreferences(app.ctx.db, request.auth.user.id));

  route(app, operations.updateReviewMail, async ({ body }, request) => updateReviewMailPreferences(app.ctx.db, request.auth.user.id, body));

  route(app, operations.unsubscribeFromLink, async ({ query }, _, reply) => {
    try {
      const what = await unsubscribe(app.ctx.db, app.ctx.config.jwtSecret, query.token);
      return reply.type('text/html; charset=utf-8').send(page('You are unsubscribed', `You will no longer get ${what} from Cutdesk.`));
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 404) throw error;
      return reply.code(404).type('text/html; charset=utf-8').send(page('Link not valid', 'This unsubscribe link is not valid. Nothing was changed.'));
    }
  });

  route(app, operations.unsubscribeOneClick, async ({ query }) => {
    await unsubscribe(app.ctx.db, app.ctx.config.jwtSecret, query.token);
  });
}
