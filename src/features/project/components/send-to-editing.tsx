import { useAtomValue } from '@/lib/state.ts';
import { useState } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import { CREDIT_MESSAGES, MESSAGES } from '@/domain/messages.ts';
import { projectNameRule } from '@/domain/validation.ts';
import { ApiError, errorMessage } from '@/lib/api-client.ts';
import { meAtom } from '@/lib/session-state.ts';
import { loadTopBarInfo } from '@/lib/session.ts';
import { Button } from '@/ui/button.tsx';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { Modal } from '@/ui/modal.tsx';
import { submitProject } from '../api/submit-project.ts';
import type { AssetState } from './asset-sections.tsx';
import { validateBrief } from './brief-form.tsx';

/** C§5: why sending is blocked right now, or null when it may go ahead. */
function blocker(project: Project, assets: AssetState): string | null {
  if (projectNameRule(project.name) || Object.keys(validateBrief(project)).length) return CREDIT_MESSAGES.briefIncomplete;
  if (assets.uploading) return MESSAGES.waitForUploads;
  if (assets.incompleteClips > 0) return CREDIT_MESSAGES.incompleteClips;
  return null;
}

/** Send to editing: checks, a confirmation (with the no-assets warning), one credit. */
export function SendToEditing({ project, assets, onSent }: { project: Project; assets: AssetState; onSent: (p: Project) => void }) {
  const me = useAtomValue(meAtom);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [freePlan, setFreePlan] = useState(false);

  const start = () => {
    const reason = blocker(project, assets);
    setProblem(reason);
    if (!reason) setConfirming(true);
  };

  const send = async (): Promise<string | void> => {
    try {
      const sent = await submitProject(project.id);
      if (me) await loadTopBarInfo(me);
      onSent(sent);
    } catch (e) {
      if (e instanceof ApiError && e.message === CREDIT_MESSAGES.noCredits) {
        // C§6: a USER is told to contact the owner; the owner sees the free-plan modal.
        if (me?.role.name === 'OWNER') {
          setConfirming(false);
          setFreePlan(true);
          return;
        }
        return CREDIT_MESSAGES.userContactOwner;
      }
      return errorMessage(e);
    }
  };

  return (
    <div className="send-box card">
      <div>
        <h2>Ready for the editors?</h2>
        <p className="muted">Sending uses one credit. You can no longer change the brief or the footage afterwards.</p>
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
      </div>
      <Button variant="success" onClick={start}>
        Send to editing
      </Button>
      {confirming && (
        <ConfirmModal title="Send to editing?" confirmLabel="Send" cancelLabel="Cancel" variant="success" onClose={() => setConfirming(false)} onConfirm={send}>
          <p>
            “{project.name}” goes to our editors and one credit is used. The first version arrives within 48 business hours.
          </p>
          {assets.assetCount === 0 && (
            <p className="warning" role="alert">
              {CREDIT_MESSAGES.noAssetsWarning}
            </p>
          )}
        </ConfirmModal>
      )}
      {freePlan && (
        <Modal title="You have no credits left" onClose={() => setFreePlan(false)} footer={<Button onClick={() => setFreePlan(false)}>Close</Button>}>
          <p>Your organization is on the free plan, or this period's credits are used up. Upgrade your plan to send more projects to editing.</p>
          <p>
            <a href="/help#pricing" target="_blank" rel="noreferrer">
              See plans and pricing
            </a>{' '}
            or write to us and we will set it up for you.
          </p>
        </Modal>
      )}
    </div>
  );
}
