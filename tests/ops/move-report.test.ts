import { describe, expect, it } from 'vitest';
import { interruptedLines, MoveInterruptedError, resumeCommand } from '../../server/ops/move-data/interrupted.ts';
import type { ObjectsReport } from '../../server/ops/move-data/object-move.ts';
import { reportLines } from '../../server/ops/move-data/report.ts';

/**
 * Issue 15: `npm run move-data` ends with a verification report: rows per table (source and
 * target), objects and bytes, and every mismatch named, so an operator knows what to look at.
 */
describe('the move-data report', () => {
  const aws: ObjectsReport['target'] = { endpoint: 'https://s3.eu-central-1.amazonaws.com', bucket: 'studio-media', region: 'eu-central-1', kind: 's3' };
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
        objects: {
          source: { count: 3, bytes: 3 * 1048576 },
          verified: { count: 2, bytes: 2 * 1048576 },
          skipped: 0,
          mismatches: ['projects/1/final/café ☕.mp4'],
          abortedEarlier: ['projects/1/raw/b_roll/clip one.mp4'],
          target: aws,
        },
        ok: false,
      },
      '/srv/cutdesk/data',
    );
    expect(lines).toContain('organizations                       4         4');
    expect(lines).toContain('projects                           11        10   MISMATCH');
    expect(lines).toContain('  MISMATCH sequence invoice_numbers: next value 1 in the target, 8 in the source');
    expect(lines).toContain('objects: source 3 (3.0 MiB), target 2 (2.0 MiB) each checked by SHA-256; 0 were there already');
    expect(lines).toContain('  MISMATCH object projects/1/final/café ☕.mp4');
    expect(lines).toContain('  aborted 1 unfinished multipart upload an earlier run left in studio-media: projects/1/raw/b_roll/clip one.mp4');
    expect(lines.join('\n')).not.toContain('Moved.');
  });

  const moved = (target: typeof aws) =>
    reportLines(
      {
        tables: [tables[0]!],
        sequences: [],
        objects: { source: { count: 1, bytes: 6 }, verified: { count: 1, bytes: 6 }, skipped: 0, mismatches: [], abortedEarlier: [], target },
        ok: true,
      },
      '/srv/cutdesk/data',
    ).join('\n');

  it('names every setting a server on the moved objects needs: an S3 service with STS, S3_UPLOAD_ROLE_ARN (it refuses to start without it)', () => {
    const lines = moved(aws);
    expect(lines).toContain(
      'Moved. Start the server with DATABASE_URL=<the target> S3_ENDPOINT=https://s3.eu-central-1.amazonaws.com S3_BUCKET=studio-media S3_REGION=eu-central-1 S3_UPLOAD_ROLE_ARN=… (and JWT_SECRET from /srv/cutdesk/data/jwt-secret',
    );
    expect(lines).toContain('The objects are in an S3 service: S3_UPLOAD_ROLE_ARN: the role browsers upload with, through STS AssumeRole');
    expect(lines).not.toContain('S3_UPLOAD_CREDENTIALS');
  });

  it("another Cutdesk's embedded store (no STS): S3_UPLOAD_CREDENTIALS=database and that store's key pair, never S3_UPLOAD_ROLE_ARN", () => {
    const lines = moved({ endpoint: 'http://store.internal:8080/s3', bucket: 'cutdesk-media', region: 'us-east-1', kind: 'cutdesk' });
    expect(lines).toContain(
      'DATABASE_URL=<the target> S3_ENDPOINT=http://store.internal:8080/s3 S3_BUCKET=cutdesk-media S3_REGION=us-east-1 S3_UPLOAD_CREDENTIALS=database S3_ACCESS_KEY_ID=… S3_SECRET_ACCESS_KEY=…',
    );
    expect(lines).toContain('its own server must run on the same DATABASE_URL');
    expect(lines).not.toContain('S3_UPLOAD_ROLE_ARN');
    // A store that could not be told: both ways, each with what it takes.
    const unknown = moved({ ...aws, kind: 'unknown' });
    expect(unknown).toContain('either S3_UPLOAD_ROLE_ARN=… or S3_UPLOAD_CREDENTIALS=database');
  });

  it('when interrupted: what happened, what was aborted, and the command that finishes the move (the password hidden)', () => {
    const resume = resumeCommand(
      [
        '--to-database',
        'postgres://cutdesk:s3cret@db.internal/cutdesk',
        '--to-s3-endpoint',
        'https://s3.eu-central-1.amazonaws.com',
        '--to-s3-bucket',
        'studio media',
      ],
      '/srv/cutdesk/data',
      { MOVE_S3_ACCESS_KEY_ID: 'AKIA…' },
    );
    expect(resume).toEqual([
      "  npm run move-data -- --to-database 'postgres://cutdesk:***@db.internal/cutdesk' --to-s3-endpoint https://s3.eu-central-1.amazonaws.com --to-s3-bucket 'studio media' --data-dir /srv/cutdesk/data",
      '  (*** is the database password you gave; with MOVE_S3_ACCESS_KEY_ID and MOVE_S3_SECRET_ACCESS_KEY set as they are now)',
    ]);
    const lines = interruptedLines(
      new MoveInterruptedError('copying the objects: 1 of 3 are in studio-media', ['projects/1/raw/b_roll/clip one.mp4'], 'studio-media'),
      'SIGINT',
      resume,
    );
    expect(lines[0]).toBe('Interrupted by Ctrl-C (SIGINT). The move stopped while copying the objects: 1 of 3 are in studio-media.');
    expect(lines[1]).toBe('Aborted the unfinished multipart upload of projects/1/raw/b_roll/clip one.mp4 in studio-media: no half-sent object is left there.');
    expect(lines.slice(-3)).toEqual(['To finish the move, run the same command again:', ...resume]);
    // Its own --data-dir is kept as given, and a database URL without a password is shown as it is.
    expect(resumeCommand(['--to-database', 'postgres://cutdesk@db/cutdesk', '--data-dir', './data'], '/abs/data', {})).toEqual([
      '  npm run move-data -- --to-database postgres://cutdesk@db/cutdesk --data-dir ./data',
    ]);
  });

  it('says where the objects stayed when they were not moved, and how to start once all verified', () => {
    const lines = reportLines(
      { tables: [tables[0]!], sequences: [{ name: 'projects_id_seq', source: 12, target: 12 }], objects: null, ok: true },
      '/srv/cutdesk/data',
    );
    expect(lines.join('\n')).not.toContain('MISMATCH');
    expect(lines).toContain("sequences: 1, each continuing at or after the source's next value");
    expect(lines.some((line) => line.startsWith('objects: not moved; they stay in /srv/cutdesk/data/s3'))).toBe(true);
    expect(
      lines.some((line) => line.startsWith('Moved. Start the server with DATABASE_URL=<the target> (and JWT_SECRET from /srv/cutdesk/data/jwt-secret')),
    ).toBe(true);
    expect(lines.some((line) => line.includes('MOVED.json now stops a server from starting on the embedded copy'))).toBe(true);
  });
});
