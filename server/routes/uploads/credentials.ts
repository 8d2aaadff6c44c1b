import type { FastifyInstance } from 'fastify';
import { UploadCredentialsBodyStruct } from '../../../src/domain/contract/uploads.ts';
import { parse } from '../../http-error.ts';
import { visibleProject } from '../../services/project-access.ts';
import { issueUploadCredentials } from '../../services/uploads.ts';
import { browserUploadEndpoint } from '../../storage/setup.ts';

export default async function uploadCredentialRoutes(app: FastifyInstance) {
  // ARCHITECTURE §4: short-lived credentials limited to the project's upload prefix.
  app.post('/uploads/credentials', async (request) => {
    // The claims too: the credentials are bound to this session and end with it (issue 9).
    const { auth, session: claims } = request;
    const { projectId, uploadType = 'asset' } = parse(UploadCredentialsBodyStruct, request.body);
    const project = await visibleProject(app.ctx, auth, projectId);
    return issueUploadCredentials(app.ctx, browserUploadEndpoint(app, request), auth, claims, project, uploadType);
  });
}
