import { describe, expect, it } from 'vitest';
import { MAX_FOLDER_DEPTH, MAX_FOLDER_LENGTH, cardFileKind, cleanFolder, folderDropSummary, folderOf, sortCardFiles } from '../../src/domain/camera-card.ts';

describe('a dropped folder, sorted as the upload zone takes it (issue 35)', () => {
  it('queues the clips a zone takes and skips what cameras and systems write beside them', () => {
    const video = (name: string, type = '') => cardFileKind('video', { name, type });
    expect(video('C0001.MP4', 'video/mp4')).toBe('clip');
    expect(video('00012.MTS')).toBe('clip');
    expect(video('GX010042.MP4')).toBe('clip');
    for (const camera of [
      'C0001M01.XML',
      'C0001.THM',
      'GL010042.LRV',
      'DJI_0001.SRT',
      'DJI_0001.LRF',
      'INDEX.BIM',
      '00000.CPI',
      'MEDIAPRO.XML',
      '.DS_Store',
      'Thumbs.db',
      '._C0001.MP4',
    ])
      expect(video(camera), camera).toBe('camera');
    expect(video('shot-list.pdf', 'application/pdf')).toBe('other');
    // A clip deleted or hidden on the card (the bins of macOS and Windows, hidden folders) is no footage.
    for (const path of ['CARD/.Trashes/501/C0003.MP4', '$RECYCLE.BIN/S-1-5/$RAB12.mp4', 'CARD/.hidden/x.mp4', '__MACOSX/CARD/C0001.MP4'])
      expect(cardFileKind('video', { name: path.split('/').pop()!, type: 'video/mp4' }, path), path).toBe('camera');
    expect(cardFileKind('video', { name: 'C0001.MP4', type: 'video/mp4' }, 'CARD/DCIM/100MSDCF/C0001.MP4')).toBe('clip');
    // The image zone takes the stills of a card, and counts its clips as other files.
    expect(cardFileKind('image', { name: 'DSC00001.JPG', type: 'image/jpeg' })).toBe('clip');
    expect(cardFileKind('image', { name: 'C0001.MP4', type: 'video/mp4' })).toBe('other');
  });

  it('sorts a card into the clips to queue and the counts of what was skipped', () => {
    const entry = (relativePath: string, type = '') => ({ file: { name: relativePath.split('/').pop()!, type }, relativePath });
    const card = [
      entry('CARD/DCIM/C0001.MP4', 'video/mp4'),
      entry('CARD/DCIM/C0001.THM'),
      entry('CARD/.Trashes/C0009.MP4', 'video/mp4'),
      entry('CARD/notes.pdf', 'application/pdf'),
    ];
    const sorted = sortCardFiles('video', card);
    expect(sorted.clips).toEqual([card[0]]);
    expect({ camera: sorted.camera, other: sorted.other }).toEqual({ camera: 2, other: 1 });
  });

  it('says what it did in one line', () => {
    expect(folderDropSummary({ queued: 132, camera: 41, other: 0 }, 'video')).toBe('132 clips queued, 41 camera files skipped');
    expect(folderDropSummary({ queued: 1, camera: 1, other: 1 }, 'video')).toBe('1 clip queued, 1 camera file skipped, 1 other file skipped');
    expect(folderDropSummary({ queued: 0, camera: 0, other: 3 }, 'image')).toBe('0 images queued, 3 other files skipped');
  });

  it('keeps the folder a file sat in, cleaned level by level, never a way out of it', () => {
    expect(folderOf('CARD/DCIM/100MSDCF/C0001.MP4')).toBe('CARD/DCIM/100MSDCF');
    expect(folderOf('C0001.MP4')).toBeNull();
    expect(folderOf('a\\b\\clip.mp4')).toBe('a/b');
    expect(cleanFolder('../../etc/./passwd//')).toBe('etc/passwd');
    expect(cleanFolder('CARD/<script>/x')).toBe('CARD/script/x');
    expect(cleanFolder('\u202e/..')).toBeNull();
    expect(cleanFolder('Tournage été/Jour 1')).toBe('Tournage été/Jour 1');
    // A level named with a leading dot keeps its name, not read as an extension ("file.hidden").
    expect(cleanFolder('.hidden/x')).toBe('hidden/x');
    expect(cleanFolder('file/File./x')).toBe('file/File/x');
    const deep = Array.from({ length: 40 }, (_, i) => `level${i}`).join('/');
    expect(cleanFolder(deep)!.split('/')).toHaveLength(MAX_FOLDER_DEPTH);
    const long = Array.from({ length: 12 }, () => 'x'.repeat(150)).join('/');
    expect(cleanFolder(long)!.length).toBeLessThanOrEqual(MAX_FOLDER_LENGTH);
    // Cleaning twice changes nothing (the server cleans what the page cleaned).
    for (const folder of ['CARD/DCIM', '../a/ b /c.', 'é\u0301/x']) expect(cleanFolder(cleanFolder(folder) ?? '')).toBe(cleanFolder(folder));
  });
});
