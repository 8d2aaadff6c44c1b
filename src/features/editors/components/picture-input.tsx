import { useId, useRef, useState } from 'react';
import { PICTURE_EXTENSIONS, isAcceptedPicture } from '@/domain/user-management.ts';
import { resizeToJpegDataUrl } from '@/lib/image-resize.ts';
import { Avatar } from '@/ui/brand.tsx';
import { Icon } from '@/ui/icons.tsx';

const ACCEPT = PICTURE_EXTENSIONS.map((e) => `.${e}`).join(',');

/** A§5 picture upload: gif, jpeg, jpg, png or bmp, resized here to 200 px wide and encoded as JPEG. */
export function PictureInput({ name, value, onChange }: { name: string; value: string | null; onChange: (dataUrl: string | null) => void }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (!isAcceptedPicture(file.name, file.type)) {
      setError('Choose a GIF, JPEG, PNG or BMP picture.');
      return;
    }
    setBusy(true);
    try {
      onChange(await resizeToJpegDataUrl(file));
    } catch {
      setError('This picture could not be read. Try another file.');
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div className="picture-input">
      <div className="picture-preview">
        <Avatar name={name || 'New editor'} url={value} size={72} />
        {busy && <span className="spinner" role="status" aria-label="Resizing the picture" />}
      </div>
      <div>
        <label htmlFor={id} className="btn btn-secondary btn-small">
          <Icon name="camera" size={16} />
          {value ? 'Change picture' : 'Upload picture'}
        </label>
        <input
          id={id}
          ref={input}
          type="file"
          accept={ACCEPT}
          className="sr-only"
          aria-label="Profile picture"
          onChange={(e) => void pick(e.target.files?.[0])}
        />
        {value && (
          <button type="button" className="link-button" onClick={() => onChange(null)}>
            Remove
          </button>
        )}
        <p className={error ? 'field-error' : 'field-hint'} role={error ? 'alert' : undefined}>
          {error ?? 'GIF, JPEG, PNG or BMP. Resized to 200 px wide.'}
        </p>
      </div>
    </div>
  );
}
