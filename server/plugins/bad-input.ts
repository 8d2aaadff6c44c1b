import type { FastifyInstance } from 'fastify';
import { FIELD_MESSAGES, jsonTextProblem } from '../../src/domain/validation.ts';
import { badRequest } from '../http-error.ts';

/**
 * Refuses, with a 400, the input PostgreSQL or the stack would otherwise turn into a 500, in
 * one place for every API route (register inside the API's scope):
 * - JSON bodies: a custom application/json parser checks the text (nesting depth, NUL in any
 *   string; src/domain/validation.ts) without recursion, then parses it with Fastify's own
 *   parser (which keeps its __proto__/constructor poisoning protection);
 * - paths and query strings: a NUL (%00) in any of them, before routing decodes it into a
 *   param or a query value.
 */
export function registerBadInputGuards(api: FastifyInstance): void {
  const parseJson = api.getDefaultJsonParser('error', 'error');
  api.removeContentTypeParser('application/json');
  api.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const problem = jsonTextProblem(body as string);
    if (problem) return done(badRequest(problem), undefined);
    return parseJson(request, body as string, done);
  });
  api.addHook('onRequest', async (request) => {
    if (/%00/i.test(request.url)) throw badRequest(FIELD_MESSAGES.textNul);
  });
}
