import { describe, expect, it } from 'vitest';
import type { UploadItemView } from '../../workers/upload/types.ts';
import { sameUploadStates } from '../../src/shared/uploads/use-uploads.ts';

const item = (over: Partial<UploadItemView> = {}): UploadItemView => ({
  uid: 'u1',
  projectId: 7,
  type: 'INTERVIEW_CLIP',
  uploadType: 'asset',
  fileName: 'a.mp4',
  folder: null,
  name: 'a.mp4',
  key: 'k',
  size: 100,
  lastModified: 1,
  status: 'uploading',
  paused: false,
  loaded: 10,
  percent: 10,
  speed: 5,
  secondsLeft: 18,
  error: null,
  needs: null,
  refused: false,
  hasHandle: false,
  reused: false,
  held: false,
  assetId: null,
  ...over,
});

describe("sameUploadStates (what redraws the project page's sections)", () => {
  it('ignores progress: bytes, percent, speed and time left', () => {
    expect(sameUploadStates([item()], [item({ loaded: 60, percent: 60, speed: 9, secondsLeft: 4 })])).toBe(true);
  });

  it('sees every change of state, name or outcome', () => {
    const changes: Partial<UploadItemView>[] = [
      { status: 'done' },
      { paused: true },
      { error: 'Refused' },
      { refused: true },
      { needs: 'file' },
      { name: 'a (1).mp4' },
      { assetId: 3 },
      { uid: 'u2' },
    ];
    for (const change of changes) expect(sameUploadStates([item()], [item(change)]), JSON.stringify(change)).toBe(false);
  });

  it('sees an upload added, removed or moved', () => {
    const a = item();
    const b = item({ uid: 'u2' });
    expect(sameUploadStates([a], [a, b])).toBe(false);
    expect(sameUploadStates([a, b], [a])).toBe(false);
    expect(sameUploadStates([a, b], [b, a])).toBe(false);
    expect(sameUploadStates([], [])).toBe(true);
  });
});
