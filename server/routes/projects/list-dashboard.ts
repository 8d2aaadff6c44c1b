import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/projects.ts';
import { toJsonSchema } from '../../../src/domain/contract/json-schema.ts';
import { PreparedJson } from '../../prepared-answer.ts';
import { boardPages } from '../../services/board-pages.ts';
import { route } from '../operation-route.ts';

/**
 * The 200 answer's JSON Schema, read off the contract struct: Fastify compiles it into a
 * serializer (fast-json-stringify), cheaper per request than JSON.stringify (issue 14). It writes
 * only the properties the schema names, so the struct is the whole answer: a field the service
 * adds must be added to DashboardRowStruct too (tests/server/dashboard.test.ts checks the answer
 * against the struct with `create`, and against JSON.stringify of the same page).
 */
const DASHBOARD_RESPONSE_SCHEMA = toJsonSchema(operations.DashboardPageStruct);

export default async function dashboardRoute(app: FastifyInstance) {
  // This instance's pages of the board, answered again while the board is unchanged (issue 14).
  const pages = boardPages<PreparedJson>();
  // A§7 GET projects?start&limit&active&archived&hidden, with server-side sorting that holds across pages;
  // `after` (issue 14) continues from the page before's `nextCursor` at the cost of a first page.
  // Kept serialized by the route's own serializer (so still exactly the schema's fields), and
  // compressed once per encoding. Sent as text, so the API's preSerialization hooks do not run:
  // a board row carries no media field (media links are signed per session and could not be
  // shared from memory; tests/server/board-pages.test.ts checks the row has none).
  route(
    app,
    operations.listDashboard,
    async ({ query }, request, reply) => {
      const { answer } = await pages.page(app.ctx.db, query, (page) => new PreparedJson(reply.serialize({ data: page }) as string), app.remembered);
      return answer.send(request, reply);
    },
    { schema: { response: { 200: DASHBOARD_RESPONSE_SCHEMA } }, keepParsedQueries: true },
  );
}
