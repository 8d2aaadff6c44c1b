import { useState } from 'react';
import type { ReviewMailPreferencesDto } from '@/domain/contract/review-mail.ts';
import { REVIEW_MAIL_LABELS, reviewMailKindsFor, type ReviewMailKind } from '@/domain/review-mail.ts';
import type { RoleName } from '@/domain/roles.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useQuery, useQueryClient } from '@/lib/query.ts';
import { getReviewMail } from './api/get-review-mail.ts';
import { updateReviewMail } from './api/update-review-mail.ts';

/** One person's settings, read by the customer and the staff settings pages alike. */
const REVIEW_MAIL_KEY = ['me', 'review-mail'] as const;

/** Issue 13 (customer Admin Settings and staff Admin settings): the signed-in person's review e-mails, one switch per kind, saved as it changes. */
export function ReviewMailCard({ role }: { role: RoleName }) {
  const client = useQueryClient();
  const query = useQuery({ queryKey: REVIEW_MAIL_KEY, queryFn: getReviewMail });
  const [saving, setSaving] = useState<ReviewMailKind | null>(null);
  const [error, setError] = useState<string | null>(null);
  const preferences = query.data;

  const toggle = async (kind: ReviewMailKind, on: boolean) => {
    setSaving(kind);
    setError(null);
    // Shown at once (a checkbox that waits for the server looks broken); put back if the save fails.
    const before = client.getQueryData<ReviewMailPreferencesDto>(REVIEW_MAIL_KEY);
    if (before) client.setQueryData<ReviewMailPreferencesDto>(REVIEW_MAIL_KEY, { ...before, [kind]: on });
    try {
      const saved = await updateReviewMail({ [kind]: on });
      client.setQueryData<ReviewMailPreferencesDto>(REVIEW_MAIL_KEY, saved);
    } catch (failure) {
      if (before) client.setQueryData<ReviewMailPreferencesDto>(REVIEW_MAIL_KEY, before);
      setError(errorMessage(failure));
    } finally {
      setSaving(null);
    }
  };

  return (
    <section className="card review-mail-card" aria-label="Review e-mails">
      <header className="card-head">
        <h2>Review e-mails</h2>
      </header>
      {!preferences ? (
        query.error ? (
          <p className="form-error" role="alert">
            {errorMessage(query.error)}
          </p>
        ) : (
          <span className="spinner" role="status" aria-label="Loading" />
        )
      ) : (
        <ul className="review-mail-list">
          {reviewMailKindsFor(role).map((kind) => (
            <li key={kind}>
              <label className="review-mail-option">
                <input type="checkbox" checked={preferences[kind]} disabled={saving !== null} onChange={(event) => void toggle(kind, event.target.checked)} />
                <span>
                  <strong>{REVIEW_MAIL_LABELS[kind].title}</strong>
                  <small>{REVIEW_MAIL_LABELS[kind].description}</small>
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
