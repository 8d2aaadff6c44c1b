import { createHmac } from 'node:crypto';

/**
 * The credential of `GET /api/v1/ops/backup`: derived from the server's secret, so whoever can
 * read the data directory (where `npm run backup` runs) can ask the running server for a backup,
 * and nobody else. It is never stored or logged.
 */
export function backupToken(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('cutdesk backup v1').digest('base64url');
}
