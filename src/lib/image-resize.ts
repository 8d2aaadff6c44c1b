import { PICTURE_WIDTH } from '@/domain/user-management.ts';

/**
 * A§5: a profile picture is resized in the browser to 200 px wide and encoded as JPEG; the
 * result is a data: URL small enough to store as profilePictureUrl. Transparent areas (PNG,
 * GIF) become white, as JPEG has no alpha.
 */
export async function resizeToJpegDataUrl(file: Blob, width = PICTURE_WIDTH, quality = 0.85): Promise<string> {
  const bitmap = await createImageBitmap(file);
  try {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = Math.max(1, Math.round((bitmap.height * width) / bitmap.width));
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This browser cannot resize pictures.');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL('image/jpeg', quality);
  } finally {
    bitmap.close();
  }
}
