import { useAtomValue } from '@/lib/state.ts';
import { useState } from 'react';
import { Link } from 'wouter';
import type { Project } from '@/domain/contract/projects.ts';
import { hasCreditLeft } from '@/domain/credits.ts';
import { CREDIT_MESSAGES, MESSAGES } from '@/domain/messages.ts';
import { projectNameRule } from '@/domain/validation.ts';
import { ApiError, errorMessage } from '@/lib/api-client.ts';
import { needsConnection, useOffline } from '@/lib/connectivity.ts';
import { meAtom } from '@/lib/session-state.ts';
import { useTopBarInfo } from '@/shared/organization/top-bar-info.ts';
import { useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { Button } from '@/ui/button.tsx';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { Modal } from '@/ui/modal.tsx';
import { submitProject } from '../api/submit-project.ts';
import type { AssetState } from './asset-sections.tsx';
import { pathTo } from '@/domain/pages.ts';

/** C§5: why sending is blocked before the brief is looked at, or null. */
function blocker(project: Project, assets: AssetState): 'name' | 'uploading' | 'incomplete-clips' | null {
  if (projectNameRule(project.name)) return 'name';
  if (assets.uploading) return 'uploading';
  if (assets.incompleteClips > 0) return 'incomplete-clips';
  return null;
}

interface Props {
  project: Project;
  assets: AssetState;
  onSent: (p: Project) => void;
  /** Checks the brief on screen and saves its edits; null when it may be sent, else why not. */
  prepareBrief: () => Promise<string | null>;
  /** Clips did not finish uploading: the message goes on the interview / b-roll zone (C§5). */
  onIncompleteClips: () => void;
}

/**
 * Send to editing: the checks (name, uploads, incomplete clips, the brief on screen, saved
 * first), a credit left (said before the confirmation, not after), then a confirmation (with
 * the no-assets warning) that uses one credit.
 */
export function SendToEditing({ project, assets, onSent, prepareBrief, onIncompleteClips }: Props) {
  const me = useAtomValue(meAtom);
  const client = useQueryClient();
  const info = useTopBarInfo();
  const [confirming, setConfirming] = useState(false);
  const offline = useOffline();
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [freePlan, setFreePlan] = useState(false);
  const owner = me?.role.name === 'OWNER';
  // The top bar's figures (the organization as last read): the server still decides.
  const noCredit = info !== null && !hasCreditLeft({ active: info.creditsActive, usedCredits: info.usedCredits, activeCredits: info.activeCredits });

  /** No credit to use: the owner sees the plans modal, a user is told to ask the owner (C§6). */
  const refuseForCredits = () => {
    if (owner) setFreePlan(true);
    else setProblem(CREDIT_MESSAGES.userContactOwner);
  };

  const start = async () => {
    setProblem(null);
    const reason = blocker(project, assets);
    if (reason === 'incomplete-clips') return onIncompleteClips();
    if (reason === 'name') return setProblem(CREDIT_MESSAGES.briefIncomplete);
    if (reason === 'uploading') return setProblem(MESSAGES.waitForUploads);
    setChecking(true);
    try {
      const briefProblem = await prepareBrief();
      if (briefProblem) return setProblem(briefProblem);
    } finally {
      setChecking(false);
    }
    if (noCredit) return refuseForCredits();
    setConfirming(true);
  };

  const send = async (): Promise<string | void> => {
    try {
      // onSent stores the project and refreshes its organization: the top bar shows the credit spent.
      onSent(await submitProject(project.id));
    } catch (e) {
      if (e instanceof ApiError && e.message === CREDIT_MESSAGES.noCredits) {
        // The credits ran out since the top bar read them. C§6: a USER is told to contact the
        // owner; the owner sees the free-plan modal.
        void client.invalidateQueries({ queryKey: queryKeys.organization(project.organization.id) });
        if (owner) {
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
        {noCredit && (
          <p className="warning" data-testid="no-credit-note">
            {owner ? 'Your organization has no credits left: choose a plan to send this project.' : CREDIT_MESSAGES.userContactOwner}
          </p>
        )}
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
      </div>
      <Button variant="success" busy={checking} {...needsConnection(offline)} onClick={() => void start()}>
        Send to editing
      </Button>
      {confirming && (
        <ConfirmModal title="Send to editing?" confirmLabel="Send" cancelLabel="Cancel" variant="success" onClose={() => setConfirming(false)} onConfirm={send}>
          <p>“{project.name}” goes to our editors and one credit is used. The first version arrives within 48 business hours.</p>
          {assets.assetCount === 0 && (
            <p className="warning" role="alert">
              {CREDIT_MESSAGES.noAssetsWarning}
            </p>
          )}
        </ConfirmModal>
      )}
      {freePlan && (
        <Modal
          title="You have no credits left"
          onClose={() => setFreePlan(false)}
          footer={
            <>
              <Button variant="secondary" onClick={() => setFreePlan(false)}>
                Close
              </Button>
              {owner && (
                <Link href={`${pathTo('settings')}?tab=subscription`} className="btn btn-primary">
                  Choose a plan
                </Link>
              )}
            </>
          }
        >
          <p>Your organization is on the free plan, or this period's credits are used up. Upgrade your plan to send more projects to editing.</p>
          <p>
            <Link href={pathTo('pricing')}>See plans and pricing</Link> or write to us and we will set it up for you.
          </p>
        </Modal>
      )}
    </div>
  );
}
