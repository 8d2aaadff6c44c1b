import { describe, expect, it } from 'vitest';
import { manifestCsv, manifestFileName, verificationOf } from '../../src/domain/asset-checksum.ts';

describe("an asset's bytes, as staff are told of them (issue 35)", () => {
  it('is verified only when the stored CRC-32 equals the one the device sent', () => {
    expect(verificationOf({ crc32: 7, sentCrc32: 7 })).toBe('verified');
    expect(verificationOf({ crc32: 7, sentCrc32: 8 })).toBe('mismatch');
    expect(verificationOf({ crc32: null, sentCrc32: 8 })).toBe('checking');
    expect(verificationOf({ crc32: 7, sentCrc32: null })).toBe('unknown');
    expect(verificationOf({ crc32: 0, sentCrc32: 0 })).toBe('verified');
  });

  it('writes the manifest as spreadsheets open it: quoted cells, no formula from a file name', () => {
    const csv = manifestCsv([
      { path: 'interviews/=HYPERLINK("x").mp4', size: 10, crc32: 0xab, sentCrc32: 0xab },
      { path: 'assets/a, "b".png', size: 0, crc32: null, sentCrc32: null },
    ]);
    expect(csv).toBe(
      '\uFEFFPath,Size,CRC-32,Status\r\n' +
        '"interviews/=HYPERLINK(""x"").mp4","10","000000ab","Verified"\r\n' +
        '"assets/a, ""b"".png","0","","Not verified"\r\n',
    );
    // A path never starts with a formula sign (it starts with its type's folder), and a cell that did would get an apostrophe.
    expect(manifestCsv([{ path: '=1+1', size: 1, crc32: 1, sentCrc32: 1 }])).toContain(`"'=1+1"`);
    expect(manifestFileName(12)).toBe('project-12_raw_assets_manifest.csv');
  });
});
