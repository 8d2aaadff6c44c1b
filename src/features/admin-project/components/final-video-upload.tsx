import { useEffect, useRef, useState } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import { STAFF_UPLOAD_BLOCKED } from '@/domain/project-rules.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { registerDeliverable } from '@/shared/media/api/register-deliverable.ts';
import { enqueueUploads, warmUploads } from '@/shared/uploads/upload-client.ts';
import { useUploads } from '@/shared/uploads/use-uploads.ts';
import { Button } from '@/ui/button.tsx';
import { ProgressFill } from '@/ui/progress-fill.tsx';

/** A§4: after the transfer completes, a 2 s pause, then the uploading flag clears. */
const SETTLE_MS = 2_000;

/**
 * Staff upload of the final video through the upload engine (upload type deliverable), then
 * registration, which queues the thumbnail, preview, HLS and download renditions.
 */
export function FinalVideoUpload({ project, onDelivered }: { project: Project; onDelivered: (p: Project) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const snapshot = useUploads();
  const [uid, setUid] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'uploading' | 'registering' | 'settling'>('idle');
  const [error, setError] = useState<string | null>(null);
  const item = uid ? snapshot.items.find((i) => i.uid === uid) : undefined;
  const blocked = STAFF_UPLOAD_BLOCKED.includes(project.status.name);
  useEffect(() => {
    if (!blocked) warmUploads();
  }, [blocked]);

  useEffect(() => {
    if (!item || state !== 'uploading') return;
    if (item.status === 'incomplete') {
      setError(item.error ?? 'The upload did not finish. Try again.');
      setState('idle');
      return;
    }
    if (item.status !== 'done' || !item.key) return;
    setState('registering');
    // A§7: the deliverable is sent as its location and its file name.
    const slash = item.key.lastIndexOf('/');
    registerDeliverable(project.id, item.key.slice(0, slash), item.key.slice(slash + 1))
      .then((delivered) => {
        onDelivered(delivered);
        setState('settling');
        setTimeout(() => setState('idle'), SETTLE_MS);
      })
      .catch((e: unknown) => {
        setError(errorMessage(e));
        setState('idle');
      });
  }, [item, state, project.id, onDelivered]);

  const start = async (file: File) => {
    setError(null);
    const result = await enqueueUploads([{ file }], { projectId: project.id, type: 'INTERVIEW_CLIP', uploadType: 'deliverable' });
    const queued = result.accepted[0] ?? result.resumed[0];
    if (!queued) return setError(result.rejected.length ? 'Choose a video file.' : 'The upload could not start.');
    setUid(queued);
    setState('uploading');
  };

  return (
    <div className="final-upload">
      <input
        ref={input}
        type="file"
        accept="video/*"
        hidden
        data-testid="final-video-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void start(file);
        }}
      />
      <Button
        variant="primary"
        disabled={blocked || state !== 'idle'}
        title={blocked ? 'Uploading is possible once an editor works on the project' : undefined}
        onClick={() => input.current?.click()}
      >
        {state === 'idle'
          ? 'Upload final video'
          : state === 'uploading'
            ? `Uploading… ${Math.round(item?.percent ?? 0)}%`
            : state === 'registering'
              ? 'Processing…'
              : 'Uploaded'}
      </Button>
      {state === 'uploading' && item && (
        <div
          className="download-progress"
          role="progressbar"
          aria-label="Final video upload"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(item.percent)}
        >
          <div className="download-progress-track">
            <ProgressFill className="download-progress-fill" percent={item.percent} />
          </div>
        </div>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
