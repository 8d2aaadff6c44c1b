import { join } from 'node:path';
import { MOVED_MARKER } from './marker.ts';
import type { MoveReport } from './move.ts';

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

/** The verification report `npm run move-data` prints: every table, the objects, every mismatch named. */
export function reportLines(report: MoveReport, dataDir: string): string[] {
  const lines = ['table                          source    target'];
  for (const t of report.tables) lines.push(`${t.name.padEnd(28)} ${String(t.source).padStart(8)}  ${String(t.target).padStart(8)}${t.source === t.target ? '' : '   MISMATCH'}`);
  const behind = report.sequences.filter((s) => s.target < s.source);
  if (!behind.length) lines.push(`sequences: ${report.sequences.length}, each continuing at or after the source's next value`);
  for (const s of behind) lines.push(`  MISMATCH sequence ${s.name}: next value ${s.target} in the target, ${s.source} in the source`);
  const objects = report.objects;
  if (objects) {
    lines.push(`objects: source ${objects.source.count} (${mib(objects.source.bytes)}), target ${objects.verified.count} (${mib(objects.verified.bytes)}) each checked by SHA-256; ${objects.skipped} were there already`);
    for (const key of objects.mismatches) lines.push(`  MISMATCH object ${key}`);
  } else {
    lines.push(`objects: not moved; they stay in ${join(dataDir, 's3')}: start the server with this DATA_DIR and without S3_ENDPOINT, and it keeps serving them.`);
  }
  if (report.ok) {
    // The S3 settings a server needs besides the endpoint and bucket (it refuses to start without them).
    lines.push(`Moved. Start the server with DATABASE_URL=<the target>${objects ? ' S3_ENDPOINT=… S3_BUCKET=… S3_UPLOAD_ROLE_ARN=… (and the S3 key pair or role: docs/operations.md, "Moving to PostgreSQL and S3")' : ''} (and JWT_SECRET from ${join(dataDir, 'jwt-secret')} when on another machine).`);
    lines.push(`${join(dataDir, MOVED_MARKER)} now stops a server from starting on the embedded copy (--force or CUTDESK_FORCE=1 to override).`);
  }
  return lines;
}
