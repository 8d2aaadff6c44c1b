import { describe, expect, it } from 'vitest';
import { FILE_MESSAGES, assetContentDecision, contentDecision, demuxerFor, isAcceptedImage } from '../../src/domain/file-signature.ts';
import { isPassiveType, presentationFor, servedDisposition, servedType, typeForKey } from '../../src/domain/served-content.ts';
import { protocolWhitelist, redactUrls } from '../../server/media/ffmpeg.ts';

/** The pure rules of issue 9: what a signature makes acceptable, and how objects are served. */

describe('what a sniffed signature is accepted as', () => {
  it('maps video containers to the one demuxer ffmpeg is forced to, and nothing else', () => {
    expect(demuxerFor({ ext: 'mp4', mime: 'video/mp4' })).toBe('mov');
    expect(demuxerFor({ ext: 'mov', mime: 'video/quicktime' })).toBe('mov');
    expect(demuxerFor({ ext: '3gp', mime: 'video/3gpp' })).toBe('mov');
    expect(demuxerFor({ ext: 'webm', mime: 'video/webm' })).toBe('matroska');
    expect(demuxerFor({ ext: 'mkv', mime: 'video/matroska' })).toBe('matroska');
    expect(demuxerFor({ ext: 'mts', mime: 'video/mp2t' })).toBe('mpegts');
    expect(demuxerFor({ ext: 'mxf', mime: 'application/mxf' })).toBe('mxf');
    expect(demuxerFor({ ext: 'asf', mime: 'video/x-ms-asf' })).toBe('asf');
    // Audio-only ASF, images, and no signature at all (playlists, lists, pages) are not clips.
    expect(demuxerFor({ ext: 'asf', mime: 'audio/x-ms-asf' })).toBeNull();
    expect(demuxerFor({ ext: 'm4a', mime: 'audio/x-m4a' })).toBeNull();
    expect(demuxerFor({ ext: 'png', mime: 'image/png' })).toBeNull();
    expect(demuxerFor({ ext: 'gif', mime: 'image/gif' })).toBeNull();
    expect(demuxerFor(null)).toBeNull();
  });

  it('takes raster images only: never SVG or markup', () => {
    expect(isAcceptedImage({ ext: 'png', mime: 'image/png' })).toBe(true);
    expect(isAcceptedImage({ ext: 'heic', mime: 'image/heic' })).toBe(true);
    expect(isAcceptedImage({ ext: 'svg', mime: 'image/svg+xml' })).toBe(false);
    expect(isAcceptedImage({ ext: 'mp4', mime: 'video/mp4' })).toBe(false);
    expect(isAcceptedImage(null)).toBe(false);
  });

  it('answers C§5 by asset type with a message, the final video as a clip', () => {
    expect(contentDecision('video', { ext: 'mp4', mime: 'video/mp4' }, 10)).toEqual({ accepted: true, mime: 'video/mp4' });
    expect(contentDecision('video', null, 10)).toEqual({ accepted: false, message: FILE_MESSAGES.notVideo });
    expect(contentDecision('image', null, 10)).toEqual({ accepted: false, message: FILE_MESSAGES.notImage });
    expect(contentDecision('image', { ext: 'png', mime: 'image/png' }, 0)).toEqual({ accepted: false, message: FILE_MESSAGES.empty });
    expect(assetContentDecision('ASSET', { ext: 'mp4', mime: 'video/mp4' }, 10).accepted).toBe(false);
    expect(assetContentDecision('BROLL_CLIP', { ext: 'mp4', mime: 'video/mp4' }, 10).accepted).toBe(true);
    expect(assetContentDecision('DELIVERABLE', { ext: 'png', mime: 'image/png' }, 10).accepted).toBe(false);
  });
});

describe('how objects are served from our origin', () => {
  it('never passes an active type, whatever its spelling', () => {
    for (const active of [
      'text/html',
      'TEXT/HTML; charset=utf-8',
      'application/xhtml+xml',
      'image/svg+xml',
      'text/xml',
      'application/xml',
      'application/javascript',
      'text/javascript',
      'text/css',
      'application/pdf',
      'multipart/x-mixed-replace',
      'text/xsl',
      'nonsense',
      '',
      'text/html,video/mp4',
    ]) {
      expect(isPassiveType(active), active).toBe(false);
      expect(servedType(active), active).toBe('application/octet-stream');
    }
    for (const passive of [
      'video/mp4',
      'image/jpeg',
      'application/octet-stream',
      'binary/octet-stream',
      'text/plain',
      'application/x-test',
      'application/vnd.apple.mpegurl',
    ]) {
      expect(servedType(passive), passive).toBe(passive);
    }
  });

  it('shows in place only what the player and pages need; the rest is an attachment keeping an asked-for name', () => {
    expect(servedDisposition('video/mp4', undefined)).toBeUndefined();
    expect(servedDisposition('video/mp4', 'inline')).toBe('inline');
    expect(servedDisposition('image/jpeg', 'attachment; filename="a.jpg"')).toBe('attachment; filename="a.jpg"');
    expect(servedDisposition('application/octet-stream', 'inline')).toBe('attachment');
    expect(servedDisposition('video/quicktime', undefined)).toBe('attachment');
    expect(servedDisposition('application/octet-stream', 'attachment; filename="x.html"')).toBe('attachment; filename="x.html"');
  });

  it('presigned GETs name a passive type by the key, inline only for player media', () => {
    expect(typeForKey('projects/1/raw/assets/logo.PNG')).toBe('image/png');
    expect(typeForKey('projects/1/raw/assets/page.html')).toBe('application/octet-stream');
    expect(typeForKey('projects/1/raw/assets/noext')).toBe('application/octet-stream');
    expect(presentationFor('projects/1/media/final/cut_proxy.mp4')).toEqual({ contentType: 'video/mp4', inline: true, fileName: 'cut_proxy.mp4' });
    expect(presentationFor('projects/1/media/final/hls/v0/seg_0001.ts')).toMatchObject({ contentType: 'video/mp2t', inline: true });
    expect(presentationFor('projects/1/raw/b_roll/take.mov')).toEqual({ contentType: 'video/quicktime', inline: false, fileName: 'take.mov' });
    expect(presentationFor('projects/1/media/final/cut_hd.mp4', 'Film_HD.mp4')).toEqual({ contentType: 'video/mp4', inline: false, fileName: 'Film_HD.mp4' });
  });
});

describe('ffmpeg inputs', () => {
  it('opens only the protocols reading the source takes', () => {
    expect(protocolWhitelist('https://bucket.s3.amazonaws.com/a.mp4?X-Amz-Signature=x')).toBe('https,tls,tcp');
    expect(protocolWhitelist('http://127.0.0.1:8080/s3/b/a.mp4')).toBe('http,tcp');
    expect(protocolWhitelist('/tmp/local.mp4')).toBe('file');
  });

  it('cuts the query (a credential) from URLs in messages', () => {
    const message = 'http://127.0.0.1:8080/s3/media/a.mp4?X-Amz-Algorithm=AWS4&X-Amz-Credential=AKIA%2F&X-Amz-Signature=abc: Invalid data found';
    expect(redactUrls(message)).toBe('http://127.0.0.1:8080/s3/media/a.mp4?…: Invalid data found');
    expect(redactUrls('no url here')).toBe('no url here');
    // The stderr window may cut a URL before its query: the signing parameters still go.
    expect(redactUrls('p%2Fa.mp4&X-Amz-Credential=AKIA%2F20261123&X-Amz-Signature=0a1b2c: Invalid data')).toBe(
      'p%2Fa.mp4&X-Amz-Credential=…&X-Amz-Signature=…: Invalid data',
    );
  });
});
