import { join } from 'node:path';
import { MOVED_MARKER } from './marker.ts';
import type { MoveReport } from './move.ts';
import type { ObjectsReport } from './object-move.ts';

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

/** The verification report `npm run move-data` prints: every table, the objects, every mismatch named. */
export function reportLines(report: MoveReport, dataDir: string): string[] {
  const lines = ['table                          source    target'];
  for (const t of report.tables)
    lines.push(`${t.name.padEnd(28)} ${String(t.source).padStart(8)}  ${String(t.target).padStart(8)}${t.source === t.target ? '' : '   MISMATCH'}`);
  const behind = report.sequences.filter((s) => s.target < s.source);
  if (!behind.length) lines.push(`sequences: ${report.sequences.length}, each continuing at or after the source's next value`);
  for (const s of behind) lines.push(`  MISMATCH sequence ${s.name}: next value ${s.target} in the target, ${s.source} in the source`);
  const objects = report.objects;
  if (objects) {
    lines.push(
      `objects: source ${objects.source.count} (${mib(objects.source.bytes)}), target ${objects.verified.count} (${mib(objects.verified.bytes)}) each checked by SHA-256; ${objects.skipped} were there already`,
    );
    if (objects.abortedEarlier.length)
      lines.push(
        `  aborted ${objects.abortedEarlier.length} unfinished multipart upload${objects.abortedEarlier.length > 1 ? 's' : ''} an earlier run left in ${objects.target.bucket}: ${objects.abortedEarlier.join(', ')}`,
      );
    for (const key of objects.mismatches) lines.push(`  MISMATCH object ${key}`);
  } else {
    lines.push(
      `objects: not moved; they stay in ${join(dataDir, 's3')}: start the server with this DATA_DIR and without S3_ENDPOINT, and it keeps serving them.`,
    );
  }
  if (report.ok) {
    lines.push(
      `Moved. Start the server with DATABASE_URL=<the target>${objects ? ` ${storeSettings(objects.target)}` : ''} (and JWT_SECRET from ${join(dataDir, 'jwt-secret')} when on another machine).`,
    );
    if (objects) lines.push(storeAdvice(objects.target));
    lines.push(`${join(dataDir, MOVED_MARKER)} now stops a server from starting on the embedded copy (--force or CUTDESK_FORCE=1 to override).`);
  }
  return lines;
}

/**
 * The S3 settings a server on the moved objects needs (it refuses to start without them,
 * server/config.ts): how browsers get upload credentials depends on the store (issue 32: the
 * advice named S3_UPLOAD_ROLE_ARN even for a store without STS).
 */
function storeSettings(target: ObjectsReport['target']): string {
  const where = `S3_ENDPOINT=${target.endpoint ?? `https://s3.${target.region}.amazonaws.com`} S3_BUCKET=${target.bucket} S3_REGION=${target.region}`;
  if (target.kind === 'cutdesk') return `${where} S3_UPLOAD_CREDENTIALS=database S3_ACCESS_KEY_ID=… S3_SECRET_ACCESS_KEY=…`;
  if (target.kind === 's3') return `${where} S3_UPLOAD_ROLE_ARN=…`;
  return `${where} and either S3_UPLOAD_ROLE_ARN=… or S3_UPLOAD_CREDENTIALS=database (see below)`;
}

function storeAdvice(target: ObjectsReport['target']): string {
  const cutdesk =
    'S3_UPLOAD_CREDENTIALS=database with that store\'s own key pair as S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY (from its DATA_DIR/s3-credentials.json): it has no STS and checks browsers\' upload credentials in the database, so its own server must run on the same DATABASE_URL (docs/operations.md, "Several instances")';
  const sts =
    'S3_UPLOAD_ROLE_ARN: the role browsers upload with, through STS AssumeRole, beside the server\'s own S3 identity (S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY, or the AWS default chain) (docs/operations.md, "Object storage and uploads")';
  if (target.kind === 'cutdesk') return `The objects are in another Cutdesk's embedded store: ${cutdesk}.`;
  if (target.kind === 's3') return `The objects are in an S3 service: ${sts}.`;
  return `The kind of store could not be told from its answers. An S3 service with STS: ${sts}. Another Cutdesk's embedded store: ${cutdesk}.`;
}
