import type { FastifyInstance } from 'fastify';
import { AssetDeleteAllQueryStruct, AssetListQueryStruct, CheckNameQueryStruct, RegisterAssetBodyStruct } from '../../../src/domain/contract/uploads.ts';
import { notFound, parse } from '../../http-error.ts';
import { enqueueAssetMedia } from '../../media/pipeline.ts';
import { assetsRepo } from '../../repositories/assets.ts';
import { visibleProject } from '../../services/project-access.ts';
import { assetsForBrowser, checkName, deleteAssetRecords, registerAsset, requireAssetChange, requireDeleteAll } from '../../services/uploads.ts';
import { browserPresigner } from '../../storage/setup.ts';
import { idParam } from '../params.ts';

/** C§7 / A§7 asset calls. Another organization's project does not exist for a customer (404). */
export default async function assetRoutes(app: FastifyInstance) {
  app.get('/projects/:id/assets', async (request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    const { type } = parse(AssetListQueryStruct, request.query);
    return assetsForBrowser(browserPresigner(app, request), await assetsRepo(app.ctx.db).list(project.id, type));
  });

  app.get('/projects/:id/assets/check-name', async (request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    const { type, name } = parse(CheckNameQueryStruct, request.query);
    return checkName(app.ctx, auth, project, type, name);
  });

  app.post('/projects/:id/assets', async (request, reply) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    const body = parse(RegisterAssetBodyStruct, request.body);
    const { row, created } = await registerAsset(app.ctx, auth, project, body);
    if (created) app.metrics.uploadRegistered(row.type, row.size);
    // Proxy and thumbnail of a clip (an image is its own preview); a media failure never undoes the upload.
    await enqueueAssetMedia(app.ctx, row.id).catch((error: unknown) => request.log.error({ err: error, assetId: row.id }, 'asset media could not be queued'));
    const current = (await assetsRepo(app.ctx.db).find(project.id, row.id)) ?? row;
    reply.code(created ? 201 : 200);
    return (await assetsForBrowser(browserPresigner(app, request), [current]))[0];
  });

  app.delete('/projects/:id/assets/:assetId', async (request, reply) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    const asset = await assetsRepo(app.ctx.db).find(project.id, idParam(request.params, 'assetId'));
    if (!asset) throw notFound();
    requireAssetChange(auth, project);
    await deleteAssetRecords(app.ctx, project, [asset], request.log);
    reply.code(204);
  });

  // C§4 delete-all (the raw-file modal sends no type: every type).
  app.delete('/projects/:id/assets', async (request, reply) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    const { type } = parse(AssetDeleteAllQueryStruct, request.query);
    requireDeleteAll(auth, project);
    await deleteAssetRecords(app.ctx, project, await assetsRepo(app.ctx.db).list(project.id, type), request.log);
    reply.code(204);
  });
}
