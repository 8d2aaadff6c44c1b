import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/uploads.ts';
import { visibleProject } from '../../services/project-access.ts';
import { issueUploadCredentials } from '../../services/uploads.ts';
import { browserUploadEndpoint } from '../../storage/setup.ts';
import { route } from '../operation-route.ts';

export default async function uploadCredentialRoutes(app: FastifyInstance) {
  // ARCHITECTURE §4: short-lived credentials limited to the project's upload prefix.
  route(app, operations.requestUploadCredentials, async ({ body }, request) => {
    // The claims too: the credentials are bound to this session and end with it (issue 9).
    const { auth, session: claims } = request;
    const { projectId, uploadType = 'asset' } = body;
    const project = await visibleProject(app.ctx, auth, projectId);
    return issueUploadCredentials(app.ctx, browserUploadEndpoint(app, request), auth, claims, project, uploadType);
  });

  // Issue 32: a proxy in front refused an upload request as too large (nginx's default body limit
  // is 1 MB; parts are 20 MiB). The server never saw that request: the browser tells it, so the
  // operator's log says what to change. One line per refused upload; nothing is stored.
  route(app, operations.reportUploadRefusal, async ({ body }, request) => {
    const { projectId, status, bytes } = body;
    await visibleProject(app.ctx, request.auth, projectId);
    app.log.warn({ reqId: request.id, userId: request.auth.user.id, projectId, status, bytes, client: request.ip }, proxyRefusalMessage(bytes));
  });
}

/** The operator's log line for a proxy's 413 on an upload request of `bytes` bytes. */
function proxyRefusalMessage(bytes: number): string {
  return `a proxy in front of Cutdesk refused an upload request of ${bytes} bytes as too large (413), before it reached the server: raise the proxy's request body limit for /s3 and the store's port (nginx: client_max_body_size, 5g in deploy/nginx.conf; docs/operations.md, "Behind a reverse proxy")`;
}
