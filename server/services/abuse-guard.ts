import type { FastifyRequest } from 'fastify';
import { MESSAGES } from '../../src/domain/messages.ts';
import { HttpError, forbidden } from '../http-error.ts';

/** Counts one attempt per IP and (when given) per e-mail for `action`; 429 past the limits. */
export function limitAttempts(request: FastifyRequest, action: string, email?: string): void {
  const { limiter, config } = request.server.ctx;
  const ipOk = limiter.hit(`${action}:ip:${request.ip}`, config.rateLimit.perIp);
  const emailOk = email === undefined || limiter.hit(`${action}:email:${email.trim().toLowerCase()}`, config.rateLimit.perEmail);
  if (!ipOk || !emailOk) throw new HttpError(429, MESSAGES.tooManyRequests);
}

/** A bot-check token, when the client sent one, must score above 0. */
export async function requireHuman(request: FastifyRequest, token: string | undefined): Promise<void> {
  if (token === undefined) return;
  const score = await request.server.ctx.botCheck.score(token);
  if (!(score > 0)) throw forbidden(MESSAGES.botCheckFailed);
}
