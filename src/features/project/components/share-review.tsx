import { useState } from 'react';
import type { ShareLinkView } from '@/domain/contract/share-links.ts';
import { SHARE_LINK_DEFAULT_DAYS, SHARE_LINK_EXPIRY_DAYS, SHARE_PASSWORD_MAX, validateSharePassword, type ShareLinkExpiryDays } from '@/domain/share-links.ts';
import { ApiError, errorMessage } from '@/lib/api-client.ts';
import { needsConnection, useOffline } from '@/lib/connectivity.ts';
import { useMutation, useQuery, useQueryClient } from '@/lib/query.ts';
import { listVersions } from '@/shared/review/api/list-versions.ts';
import { reviewKeys } from '@/shared/review/keys.ts';
import { versionLabel } from '@/shared/review/review-logic.ts';
import { Badge } from '@/ui/badge.tsx';
import { Button } from '@/ui/button.tsx';
import { Modal } from '@/ui/modal.tsx';
import { createShareLink, listShareLinks, revokeShareLink } from '../api/share-links.ts';

const linksKey = (projectId: number) => ['project', projectId, 'share-links'] as const;
const STATE_LABEL: Record<ShareLinkView['state'], { label: string; tone: 'success' | 'neutral' | 'danger' }> = {
  active: { label: 'Active', tone: 'success' },
  expired: { label: 'Expired', tone: 'neutral' },
  revoked: { label: 'Revoked', tone: 'danger' },
};
const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

function CopyField({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="share-url">
      <input readOnly value={url} aria-label="Review link" onFocus={(event) => event.target.select()} data-testid="share-url" />
      <Button
        variant="secondary"
        className="btn-small"
        onClick={() => {
          void navigator.clipboard?.writeText(url).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </Button>
    </div>
  );
}

function NewLinkForm({ projectId, onCreated }: { projectId: number; onCreated: (link: ShareLinkView) => void }) {
  const versions = useQuery({ queryKey: reviewKeys.versions(projectId), queryFn: () => listVersions(projectId) });
  const released = (versions.data ?? []).filter((v) => v.releasedAt !== null);
  const latest = released.at(-1)?.number ?? null;
  const [version, setVersion] = useState<number | null>(null);
  const [days, setDays] = useState<ShareLinkExpiryDays>(SHARE_LINK_DEFAULT_DAYS);
  const [protect, setProtect] = useState(false);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const offline = useOffline();
  const create = useMutation({
    mutationFn: () => createShareLink(projectId, { version: version ?? latest!, expiresInDays: days, password: protect ? password : null }),
  });

  const submit = () => {
    const problem = protect ? (password ? validateSharePassword(password) : 'Choose a password, or untick the box.') : undefined;
    if (problem) return setErrors({ password: problem });
    setErrors({});
    create.mutate(undefined, {
      onSuccess: (link) => {
        setPassword('');
        onCreated(link);
      },
      onError: (e) => setErrors(e instanceof ApiError && Object.keys(e.fields).length ? e.fields : { form: errorMessage(e) }),
    });
  };

  return (
    <form
      className="share-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="share-form-row">
        <label>
          Version
          <select value={version ?? latest ?? ''} onChange={(event) => setVersion(Number(event.target.value))} disabled={released.length < 2}>
            {released.map((v) => (
              <option key={v.number} value={v.number}>
                {versionLabel(v.number)}
                {v.current ? ' (current)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          Link works for
          <select value={days} onChange={(event) => setDays(Number(event.target.value) as ShareLinkExpiryDays)}>
            {SHARE_LINK_EXPIRY_DAYS.map((d) => (
              <option key={d} value={d}>
                {d === 1 ? '1 day' : `${d} days`}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="checkbox-line">
        <input type="checkbox" checked={protect} onChange={(event) => setProtect(event.target.checked)} /> Protect with a password
      </label>
      {protect && (
        <div className="field">
          <label htmlFor="share-password-new">Password</label>
          <input
            id="share-password-new"
            type="text"
            autoComplete="off"
            maxLength={SHARE_PASSWORD_MAX}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={Boolean(errors.password)}
          />
          <span className="field-hint">Send it separately from the link. It is stored hashed: we cannot show it again.</span>
          {errors.password && (
            <span className="field-error" role="alert">
              {errors.password}
            </span>
          )}
        </div>
      )}
      {(errors.form ?? errors.version ?? errors.expiresInDays) && <p className="form-error">{errors.form ?? errors.version ?? errors.expiresInDays}</p>}
      <Button type="submit" variant="primary" busy={create.isPending} {...needsConnection(offline, latest === null)}>
        Create link
      </Button>
    </form>
  );
}

function LinkRow({ projectId, link }: { projectId: number; link: ShareLinkView }) {
  const client = useQueryClient();
  const offline = useOffline();
  const revoke = useMutation({
    mutationFn: () => revokeShareLink(projectId, link.id),
    onSuccess: () => client.invalidateQueries({ queryKey: linksKey(projectId) }),
  });
  const state = STATE_LABEL[link.state];
  return (
    <li className="share-link" data-testid="share-link">
      <div className="share-link-head">
        <strong>{versionLabel(link.version)}</strong>
        <Badge tone={state.tone}>{state.label}</Badge>
        {link.hasPassword && (
          <Badge tone="info" title="Guests need the password you chose">
            Password
          </Badge>
        )}
        <span className="muted share-link-meta">
          {link.state === 'active' && link.expiresAt
            ? `Until ${when(link.expiresAt)}`
            : link.revokedAt
              ? `Revoked ${when(link.revokedAt)}`
              : link.expiresAt
                ? `Expired ${when(link.expiresAt)}`
                : ''}
          {' · '}
          {link.guestComments === 1 ? '1 guest comment' : `${link.guestComments} guest comments`}
          {link.lastUsedAt && ` · last opened ${when(link.lastUsedAt)}`}
        </span>
      </div>
      {link.state === 'active' && (
        <div className="share-link-actions">
          <CopyField url={link.url} />
          <Button variant="ghost" className="btn-small" busy={revoke.isPending} {...needsConnection(offline)} onClick={() => revoke.mutate()}>
            Revoke
          </Button>
        </div>
      )}
      {revoke.error && <p className="form-error">{errorMessage(revoke.error)}</p>}
    </li>
  );
}

/**
 * The owner's "Share for review" (issue 13): a link to one version for someone without an account,
 * expiring, optionally protected by a password, revocable. Guests watch and comment through it;
 * their comments come in here under the name they type.
 */
export function ShareReview({ projectId, canShare }: { projectId: number; canShare: boolean }) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<ShareLinkView | null>(null);
  const client = useQueryClient();
  const links = useQuery({ queryKey: linksKey(projectId), queryFn: () => listShareLinks(projectId), enabled: open });
  const active = (links.data ?? []).filter((l) => l.state === 'active').length;
  return (
    <>
      <Button variant="secondary" className="btn-small" onClick={() => setOpen(true)}>
        Share for review
      </Button>
      {open && (
        <Modal
          title="Share this video for review"
          width={640}
          onClose={() => {
            setOpen(false);
            setCreated(null);
          }}
        >
          <p className="muted">
            Anyone with the link can watch this version and comment under their name, without an account. Nothing else of your organization is visible through
            it.
          </p>
          {canShare && (
            <NewLinkForm
              projectId={projectId}
              onCreated={(link) => {
                setCreated(link);
                void client.invalidateQueries({ queryKey: linksKey(projectId) });
              }}
            />
          )}
          {created && (
            <div className="share-created" role="status">
              <strong>Link created. Copy it and send it to your reviewer:</strong>
              <CopyField url={created.url} />
            </div>
          )}
          <h3 className="share-list-title">Links{links.data ? ` (${active} active)` : ''}</h3>
          {links.isPending ? null : links.error ? (
            <p className="form-error">{errorMessage(links.error)}</p>
          ) : links.data.length === 0 ? (
            <p className="muted">No links yet.</p>
          ) : (
            <ul className="share-links">
              {links.data.map((link) => (
                <LinkRow key={link.id} projectId={projectId} link={link} />
              ))}
            </ul>
          )}
        </Modal>
      )}
    </>
  );
}
