import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/uploads.ts';
import { notFound } from '../../http-error.ts';
import { enqueueAssetMedia } from '../../media/pipeline.ts';
import { assetsRepo } from '../../repositories/assets.ts';
import { visibleProject } from '../../services/project-access.ts';
import { assetsForBrowser, checkName, deleteAssetRecords, registerAsset, requireAssetChange, requireDeleteAll } from '../../services/uploads.ts';
import { lookupStoredCopy, reuseStoredCopy } from '../../services/stored-copies.ts';
import { browserPresigner } from '../../storage/setup.ts';
import { route } from '../operation-route.ts';

/** C§7 / A§7 asset calls. Another organization's project does not exist for a customer (404). */
export default async function assetRoutes(app: FastifyInstance) {
  route(app, operations.listAssets, async ({ params, query }, request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, params.id);
    return assetsForBrowser(browserPresigner(app, request), await assetsRepo(app.ctx.db).list(project.id, query.type));
  });

  route(app, operations.checkAssetName, async ({ params, query }, request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, params.id);
    return checkName(app.ctx, auth, project, query.type, query.name);
  });

  route(app, operations.registerAsset, async ({ params, body }, request, reply) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, params.id);
    const { row, created } = await registerAsset(app.ctx, auth, project, body);
    if (created) app.metrics.uploadRegistered(row.type, row.size);
    // Proxy and thumbnail of a clip (an image is its own preview); a media failure never undoes the upload.
    await enqueueAssetMedia(app.ctx, row.id).catch((error: unknown) => request.log.error({ err: error, assetId: row.id }, 'asset media could not be queued'));
    const current = (await assetsRepo(app.ctx.db).find(project.id, row.id)) ?? row;
    // Registered already (the same object sent again): the asset as it is, with 200.
    return reply.code(created ? 201 : 200).send((await assetsForBrowser(browserPresigner(app, request), [current]))[0]);
  });

  // Issue 35: a file the organization already holds becomes an asset of its stored copy, with no byte sent.
  route(app, operations.lookupStoredCopy, async ({ params, body }, request) => {
    const project = await visibleProject(app.ctx, request.auth, params.id);
    return lookupStoredCopy(app.ctx, request.auth, project, body);
  });

  route(app, operations.reuseStoredCopy, async ({ params, body }, request, reply) => {
    const project = await visibleProject(app.ctx, request.auth, params.id);
    const { row, created } = await reuseStoredCopy(app.ctx, request.auth, project, body);
    return reply.code(created ? 201 : 200).send((await assetsForBrowser(browserPresigner(app, request), [row]))[0]);
  });

  route(app, operations.deleteAsset, async ({ params }, request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, params.id);
    const asset = await assetsRepo(app.ctx.db).find(project.id, params.assetId);
    if (!asset) throw notFound();
    requireAssetChange(auth, project);
    await deleteAssetRecords(app.ctx, project, [asset], request.log);
  });

  // C§4 delete-all (the raw-file modal sends no type: every type).
  route(app, operations.deleteAllAssets, async ({ params, query }, request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, params.id);
    requireDeleteAll(auth, project);
    await deleteAssetRecords(app.ctx, project, await assetsRepo(app.ctx.db).list(project.id, query.type), request.log);
  });
}
