import { describe, expect, it } from 'vitest';
import type { Asset } from '../../src/domain/contract/uploads.ts';
import { zipPlan } from '../../src/domain/zip-plan.ts';

const asset = (
  id: number,
  type: Asset['type']['name'],
  name: string,
  size: number,
  previewPath: string | null,
  path = `projects/1/raw/x/${name}`,
  crc32: number | null = null,
  folder: string | null = null,
): Asset => ({
  id,
  name,
  size,
  type: { name: type },
  path,
  previewPath,
  folder,
  createdAt: '2026-11-21T00:00:00Z',
  deletedAt: null,
  url: null,
  previewUrl: null,
  crc32,
  sentCrc32: null,
});

describe('zip plan (A§2 folders)', () => {
  const assets = [
    asset(1, 'INTERVIEW_CLIP', 'talk.mov', 100, 'projects/1/media/raw/interviews/talk_proxy.mp4'),
    asset(2, 'BROLL_CLIP', 'city.mp4', 200, null),
    asset(3, 'ASSET', 'logo.png', 30, 'projects/1/raw/x/logo.png'),
    asset(4, 'INTERVIEW_CLIP', 'talk.mov', 50, null, 'projects/9/raw/interviews/talk.mov'),
  ];

  it('raw: every original under its type folder, the three folders first, names kept unique', () => {
    const { plan, skipped, totalBytes } = zipPlan(assets, 'raw');
    expect(plan.map((e) => e.name)).toEqual([
      'assets/',
      'interviews/',
      'b_roll/',
      'interviews/talk.mov',
      'b_roll/city.mp4',
      'assets/logo.png',
      'interviews/1-talk.mov',
    ]);
    expect(plan.filter((e) => e.ref).map((e) => e.ref)).toEqual(['1:original', '2:original', '3:original', '4:original']);
    expect(skipped).toBe(0);
    expect(totalBytes).toBe(380);
  });

  it('names as registration cleans them: no separator, control character or empty name leaves its folder, and names that differ only in case stay apart', () => {
    const odd = [
      asset(1, 'ASSET', '../../evil.png', 1, null),
      asset(2, 'ASSET', '', 1, null),
      asset(3, 'BROLL_CLIP', 'Clip\u202e.mov', 1, null),
      asset(4, 'BROLL_CLIP', 'clip.mov', 1, null),
      asset(5, 'BROLL_CLIP', 'a\\b.mov', 1, null),
    ];
    expect(
      zipPlan(odd, 'raw')
        .plan.filter((e) => e.ref)
        .map((e) => e.name),
    ).toEqual(['assets/evil.png', 'assets/file', 'b_roll/Clip.mov', 'b_roll/1-clip.mov', 'b_roll/ab.mov']);
  });

  it('puts an asset from a dropped folder under its type folder then its own folder, names kept unique there (issue 35)', () => {
    const card = 'CARD/DCIM/100MSDCF';
    const foldered = [
      asset(1, 'INTERVIEW_CLIP', 'C0001.MP4', 10, null, undefined, null, card),
      asset(2, 'INTERVIEW_CLIP', 'C0001.MP4', 10, null, undefined, null, null),
      // Same folder and name, apart only in case: the second is renamed, in its folder.
      asset(3, 'INTERVIEW_CLIP', 'c0001.mp4', 10, null, undefined, null, 'card/dcim/100msdcf'),
      // The same card's clip of another type stays under that type.
      asset(4, 'BROLL_CLIP', 'C0002.MP4', 10, null, undefined, null, card),
      // A row written some other way is cleaned as registration does: nothing leaves its folder.
      asset(5, 'ASSET', 'logo.png', 10, null, undefined, null, '../../CARD/./x<y>'),
      asset(6, 'ASSET', 'plain.png', 10, null, undefined, null, '/../'),
      // A file named as a folder already in the archive, and a folder named as a file already there.
      asset(7, 'INTERVIEW_CLIP', 'CARD', 10, null, undefined, null, null),
      asset(8, 'ASSET', 'plain.png', 10, null, undefined, null, null),
      asset(9, 'ASSET', 'deep.png', 10, null, undefined, null, 'PLAIN.png/deeper'),
    ];
    const { plan } = zipPlan(foldered, 'raw');
    expect(plan.filter((e) => e.ref).map((e) => [e.name, e.ref])).toEqual([
      ['interviews/CARD/DCIM/100MSDCF/C0001.MP4', '1:original'],
      ['interviews/C0001.MP4', '2:original'],
      ['interviews/card/dcim/100msdcf/1-c0001.mp4', '3:original'],
      ['b_roll/CARD/DCIM/100MSDCF/C0002.MP4', '4:original'],
      ['assets/CARD/xy/logo.png', '5:original'],
      ['assets/plain.png', '6:original'],
      ['interviews/1-CARD', '7:original'],
      ['assets/1-plain.png', '8:original'],
      // Its folder would be a file's path: it goes under its type's folder alone.
      ['assets/deep.png', '9:original'],
    ]);
    const names = plan.map((e) => e.name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    // The proxy zip (the device's) names them the same way.
    expect(
      zipPlan([asset(1, 'INTERVIEW_CLIP', 'C0001.MP4', 10, 'projects/1/media/raw/interviews/C0001_proxy.mp4', undefined, null, card)], 'proxy')
        .plan.filter((e) => e.ref)
        .map((e) => e.name),
    ).toEqual(['interviews/CARD/DCIM/100MSDCF/C0001_proxy.mp4']);
  });

  it('proxy: clips as <name>_proxy.mp4, images as they are, assets without a proxy left out', () => {
    const { plan, skipped, totalBytes } = zipPlan(assets, 'proxy');
    expect(plan.filter((e) => e.ref).map((e) => [e.name, e.ref, e.size])).toEqual([
      ['interviews/talk_proxy.mp4', '1:proxy', undefined],
      ['assets/logo.png', '3:proxy', 30],
    ]);
    expect(skipped).toBe(2);
    expect(totalBytes).toBeNull();
  });

  it("carries the original's CRC-32 where the server has computed it, never a proxy's", () => {
    const known = [
      asset(1, 'INTERVIEW_CLIP', 'talk.mov', 100, 'projects/1/media/raw/interviews/talk_proxy.mp4', 'projects/1/raw/interviews/talk.mov', 0xdeadbeef),
      asset(2, 'BROLL_CLIP', 'city.mp4', 200, null),
      asset(3, 'ASSET', 'logo.png', 30, 'projects/1/raw/x/logo.png', 'projects/1/raw/x/logo.png', 7),
    ];
    expect(
      zipPlan(known, 'raw')
        .plan.filter((e) => e.ref)
        .map((e) => [e.name, e.crc32]),
    ).toEqual([
      ['interviews/talk.mov', 0xdeadbeef],
      ['b_roll/city.mp4', undefined],
      ['assets/logo.png', 7],
    ]);
    // The proxy is another file: its CRC is not the original's. An image is its own proxy.
    expect(
      zipPlan(known, 'proxy')
        .plan.filter((e) => e.ref)
        .map((e) => [e.name, e.crc32]),
    ).toEqual([
      ['interviews/talk_proxy.mp4', undefined],
      ['assets/logo.png', 7],
    ]);
  });
});
