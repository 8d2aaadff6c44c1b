import type { FastifyInstance } from 'fastify';
import { ReviewMailPreferencesBodyStruct, UnsubscribeQueryStruct, type ReviewMailPreferencesDto } from '../../../src/domain/contract/review-mail.ts';
import { pathTo } from '../../../src/domain/pages.ts';
import { parse } from '../../http-error.ts';
import { reviewMailPreferences, unsubscribe, updateReviewMailPreferences } from '../../services/review-mail-preferences.ts';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A plain page for the person who clicked the link in their mail client (no app, no session). */
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escape(title)} · Cutdesk</title></head>` +
  `<body style="font-family:Arial,sans-serif;color:#464A4F;max-width:520px;margin:80px auto;padding:0 24px"><h1 style="font-size:24px">${escape(title)}</h1><p>${escape(body)}</p>` +
  `<p><a href="${pathTo('staffSignIn')}" style="color:#5b8f1c">Sign in to Cutdesk</a> to choose your review e-mails in Settings.</p></body></html>`;

/** Issue 13: the signed-in user's review e-mail settings, and the mails' unsubscribe link. */
export default async function notificationRoutes(app: FastifyInstance) {
  app.get('/me/review-mail', async (request): Promise<ReviewMailPreferencesDto> => reviewMailPreferences(app.ctx.db, request.auth.user.id));

  app.patch('/me/review-mail', async (request): Promise<ReviewMailPreferencesDto> =>
    updateReviewMailPreferences(app.ctx.db, request.auth.user.id, parse(ReviewMailPreferencesBodyStruct, request.body)));

  // Opened from the mail: the signed token is the credential.
  app.get('/review-mail/unsubscribe', { config: { access: 'public' } }, async (request, reply) => {
    const { token } = parse(UnsubscribeQueryStruct, request.query);
    try {
      const what = await unsubscribe(app.ctx.db, app.ctx.config.jwtSecret, token);
      return reply.type('text/html; charset=utf-8').send(page('You are unsubscribed', `You will no longer get ${what} from Cutdesk.`));
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 404) throw error;
      return reply.code(404).type('text/html; charset=utf-8').send(page('Link not valid', 'This unsubscribe link is not valid. Nothing was changed.'));
    }
  });

  // RFC 8058 one-click unsubscribe (List-Unsubscribe-Post): mail clients POST to the same link.
  app.post('/review-mail/unsubscribe', { config: { access: 'public' } }, async (request, reply) => {
    const { token } = parse(UnsubscribeQueryStruct, request.query);
    await unsubscribe(app.ctx.db, app.ctx.config.jwtSecret, token);
    return reply.code(204).send();
  });
}
