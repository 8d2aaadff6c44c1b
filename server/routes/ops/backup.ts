import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/service.ts';
import { embeddedPglite } from '../../db/connect.ts';
import { HttpError, notFound } from '../../http-error.ts';
import { isLoopback, sameSecret } from '../../metrics/access.ts';
import { stageBackup } from '../../ops/backup/archive.ts';
import { backupToken } from '../../ops/backup/backup-token.ts';
import { DiskFullError } from '../../storage/disk-full.ts';
import { route } from '../operation-route.ts';

export const BACKUP_MESSAGES = {
  external:
    'This server uses PostgreSQL: back it up with its own tools (pg_dump, point-in-time recovery) and an external object store with its own (bucket versioning, replication). See docs/operations.md, "Backups".',
  objectsElsewhere: (where: string) =>
    `The objects are not in this archive: they are in ${where}. Back them up with the bucket's versioning or replication (docs/operations.md, "Backups").`,
} as const;

/** Where the objects are when not in the embedded store (`endpoint/bucket`), else null. */
export function objectsElsewhere(storage: { mode: string; endpoint: string | null; bucket: string }): string | null {
  return storage.mode === 'embedded' ? null : `${storage.endpoint ?? ''}/${storage.bucket}`;
}

/**
 * `npm run backup` while the server runs (issue 15): the embedded database lives in this
 * process, so the archive is made here and streamed to the command. Only from this machine
 * (the socket's peer is loopback and nothing was forwarded) and with the token derived from the
 * server's secret (server/ops/backup/backup-token.ts); anyone else gets 404, as if it did not exist.
 */
export default async function backupRoute(app: FastifyInstance) {
  const { ctx } = app;
  // A routine backup stays out of the request log (its warnings and errors still show).
  route(
    app,
    operations.getBackup,
    async (_, request, reply) => {
      const forwarded =
        request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined || request.headers['x-real-ip'] !== undefined;
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!isLoopback(request.socket.remoteAddress) || forwarded || !bearer || !sameSecret(bearer, backupToken(ctx.config.jwtSecret))) throw notFound();
      const pglite = embeddedPglite(ctx.db);
      if (!pglite) throw new HttpError(409, BACKUP_MESSAGES.external);
      // Staged before the answer starts: a full disk is a 507 the command can say in words (issue 32).
      const staged = await stageBackup({ pglite, dataDir: ctx.config.dataDir, objectsElsewhere: objectsElsewhere(ctx.config.storage) }).catch(
        (error: unknown) => {
          if (!(error instanceof DiskFullError)) throw error;
          request.log.error({ err: error }, 'backup refused: the disk is full');
          throw new HttpError(507, error.message);
        },
      );
      const body = new PassThrough();
      staged.writeTo(body).catch((error: Error) => {
        request.log.error({ err: error }, 'backup failed');
        body.destroy(error);
      });
      return reply.header('Content-Type', 'application/x-tar').header('Cache-Control', 'no-store').send(body);
    },
    { logLevel: 'warn' },
  );
}
