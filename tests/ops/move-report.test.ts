import { describe, expect, it } from 'vitest';
import { reportLines } from '../../server/ops/move-data/report.ts';

/**
 * Issue 15: `npm run move-data` ends with a verification report: rows per table (source and
 * target), objects and bytes, and every mismatch named, so an operator knows what to look at.
 */
describe('the move-data report', () => {
  const tables = [
    { name: 'organizations', source: 4, target: 4 },
    { name: 'projects', source: 11, target: 10 },
  ];

  it('names every table, sequence and object that did not verify, and does not say "Moved"', () => {
    const lines = reportLines(
      {
        tables,
        sequences: [
          { name: 'projects_id_seq', source: 12, target: 12 },
          { name: 'invoice_numbers', source: 8, target: 1 },
        ],
        objects: { source: { count: 3, bytes: 3 * 1048576 }, verified: { count: 2, bytes: 2 * 1048576 }, skipped: 0, mismatches: ['projects/1/final/café ☕.mp4'] },
        ok: false,
      },
      '/srv/cutdesk/data',
    );
    expect(lines).toContain('organizations                       4         4');
    expect(lines).toContain('projects                           11        10   MISMATCH');
    expect(lines).toContain('  MISMATCH sequence invoice_numbers: next value 1 in the target, 8 in the source');
    expect(lines).toContain('objects: source 3 (3.0 MiB), target 2 (2.0 MiB) each checked by SHA-256; 0 were there already');
    expect(lines).toContain('  MISMATCH object projects/1/final/café ☕.mp4');
    expect(lines.join('\n')).not.toContain('Moved.');
  });

  it('names every setting a server on the moved objects needs (it refuses to start without S3_UPLOAD_ROLE_ARN)', () => {
    const lines = reportLines({ tables: [tables[0]!], sequences: [], objects: { source: { count: 1, bytes: 6 }, verified: { count: 1, bytes: 6 }, skipped: 0, mismatches: [] }, ok: true }, '/srv/cutdesk/data');
    const start = lines.find((line) => line.startsWith('Moved.'));
    expect(start).toContain('DATABASE_URL=<the target> S3_ENDPOINT=… S3_BUCKET=… S3_UPLOAD_ROLE_ARN=…');
    expect(start).toContain('JWT_SECRET from /srv/cutdesk/data/jwt-secret');
  });

  it('says where the objects stayed when they were not moved, and how to start once all verified', () => {
    const lines = reportLines({ tables: [tables[0]!], sequences: [{ name: 'projects_id_seq', source: 12, target: 12 }], objects: null, ok: true }, '/srv/cutdesk/data');
    expect(lines.join('\n')).not.toContain('MISMATCH');
    expect(lines).toContain('sequences: 1, each continuing at or after the source\'s next value');
    expect(lines.some((line) => line.startsWith('objects: not moved; they stay in /srv/cutdesk/data/s3'))).toBe(true);
    expect(lines.some((line) => line.startsWith('Moved. Start the server with DATABASE_URL=<the target> (and JWT_SECRET from /srv/cutdesk/data/jwt-secret'))).toBe(true);
    expect(lines.some((line) => line.includes('MOVED.json now stops a server from starting on the embedded copy'))).toBe(true);
  });
});
