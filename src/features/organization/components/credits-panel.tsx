import { useEffect, useState } from 'react';
import { businessToday } from '@/domain/business-calendar.ts';
import type { CreditDetail, UpdateCreditsBody } from '@/domain/contract/customers.ts';
import { ORGANIZATION_MESSAGES } from '@/domain/organization-rules.ts';
import { creditPeriodLabel, expiryWarning, isIsoDate } from '@/domain/subscription.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { fieldErrors } from '@/lib/form-errors.ts';
import { formatDate, plural } from '@/lib/format.ts';
import { Badge } from '@/ui/badge.tsx';
import { Button } from '@/ui/button.tsx';
import { Icon } from '@/ui/icons.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { updateCredits } from '../api/update-credits.ts';

type Field = 'startDate' | 'endDate' | 'credits' | 'creditsPerInterval' | 'interval' | 'storage';
type Draft = Record<Field, string> & { renewable: boolean };

const toDraft = (c: CreditDetail): Draft => ({
  startDate: c.startDate ?? '',
  endDate: c.endDate ?? '',
  credits: String(c.activeCredits),
  creditsPerInterval: String(c.creditsPerInterval),
  interval: String(c.interval),
  storage: String(c.storage),
  renewable: c.renewable,
});

function check(d: Draft): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  if (!isIsoDate(d.startDate)) errors.startDate = ORGANIZATION_MESSAGES.dateInvalid;
  if (!isIsoDate(d.endDate)) errors.endDate = ORGANIZATION_MESSAGES.dateInvalid;
  else if (!errors.startDate && d.endDate < d.startDate) errors.endDate = ORGANIZATION_MESSAGES.endBeforeStart;
  for (const [key, max] of [
    ['credits', 100_000],
    ['creditsPerInterval', 100_000],
    ['interval', 120],
  ] as const) {
    if (!/^\d+$/.test(d[key].trim()) || Number(d[key]) > max) errors[key] = ORGANIZATION_MESSAGES.wholeNumber(max);
  }
  if (!/^\d+(\.\d+)?$/.test(d.storage.trim()) || Number(d.storage) > 1000) errors.storage = ORGANIZATION_MESSAGES.storageInvalid;
  return errors;
}

/** A§2 credits panel: ACTIVE or INACTIVE; editable for admins ("Updated!" on success), read-only for editors. */
export function CreditsPanel({
  organizationId,
  credits,
  editable,
  onSaved,
}: {
  organizationId: number;
  credits: CreditDetail;
  editable: boolean;
  onSaved: (credits: CreditDetail) => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(credits));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const [updated, setUpdated] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // The form starts over when the credits themselves change, not each time a refresh brings the same ones back.
  const saved = JSON.stringify(credits);
  useEffect(() => setDraft(toDraft(JSON.parse(saved) as CreditDetail)), [saved]);

  const warning = expiryWarning(credits.endDate, businessToday());
  const set = (key: Field) => (value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
    setUpdated(false);
  };

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    const problems = check(draft);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    setFailure(null);
    const body: UpdateCreditsBody = {
      startDate: draft.startDate,
      endDate: draft.endDate,
      renewable: draft.renewable,
      credits: Number(draft.credits),
      creditsPerInterval: Number(draft.creditsPerInterval),
      interval: Number(draft.interval),
      storage: Number(draft.storage),
    };
    try {
      onSaved(await updateCredits(organizationId, body));
      setUpdated(true);
    } catch (e) {
      const fields = fieldErrors<Field>(e);
      if (fields) setErrors(fields);
      else setFailure(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card credits-panel" aria-label="Credits">
      <header className="card-head">
        <h2>Credits</h2>
        <Badge tone={credits.status === 'ACTIVE' ? 'success' : 'neutral'}>{credits.status}</Badge>
      </header>
      <div className="credits-total">
        <span className="credits-number">{credits.activeCredits}</span>
        <span className="credits-caption">
          total credits
          <br />
          {credits.usedCredits} used · renews {credits.renewable ? `on ${formatDate(credits.renewDate)}` : 'never'}
        </span>
      </div>
      {warning && (
        <p className="expiry-warning" role="status">
          <Icon name="alert" size={16} />
          {warning.expired ? `Expired on ${formatDate(credits.endDate)}.` : `Expires in ${plural(warning.daysLeft, 'day')}, on ${formatDate(credits.endDate)}.`}
        </p>
      )}
      {editable ? (
        <form noValidate onSubmit={save} className="credits-form">
          {failure && (
            <div className="form-error" role="alert">
              {failure}
            </div>
          )}
          <div className="form-row">
            <TextField label="Start date" type="date" value={draft.startDate} onChange={set('startDate')} error={errors.startDate} />
            <TextField label="End date" type="date" value={draft.endDate} onChange={set('endDate')} error={errors.endDate} />
          </div>
          <div className="form-row form-row-3">
            <TextField label="Total credits" inputMode="numeric" value={draft.credits} onChange={set('credits')} error={errors.credits} />
            <TextField
              label="Credits per interval"
              inputMode="numeric"
              value={draft.creditsPerInterval}
              onChange={set('creditsPerInterval')}
              error={errors.creditsPerInterval}
            />
            <TextField label="Interval (months)" inputMode="numeric" value={draft.interval} onChange={set('interval')} error={errors.interval} />
          </div>
          <div className="form-row">
            <TextField label="Storage (TB)" inputMode="decimal" value={draft.storage} onChange={set('storage')} error={errors.storage} />
            <label className="check-field">
              <input
                type="checkbox"
                checked={draft.renewable}
                onChange={(e) => {
                  setDraft((d) => ({ ...d, renewable: e.target.checked }));
                  setUpdated(false);
                }}
              />
              Renews every {creditPeriodLabel(Number(draft.interval) || 0)}
            </label>
          </div>
          <div className="panel-footer">
            {updated && (
              <span className="updated-note" role="status">
                <Icon name="check" size={16} />
                Updated!
              </span>
            )}
            <Button type="submit" variant="primary" busy={busy}>
              Save credits
            </Button>
          </div>
        </form>
      ) : (
        <dl className="kv">
          <div>
            <dt>Valid</dt>
            <dd>{credits.startDate ? `${formatDate(credits.startDate)} – ${formatDate(credits.endDate)}` : 'No plan yet'}</dd>
          </div>
          <div>
            <dt>Per interval</dt>
            <dd>
              {credits.creditsPerInterval} every {creditPeriodLabel(credits.interval)}
            </dd>
          </div>
          <div>
            <dt>Storage</dt>
            <dd>{credits.storage} TB</dd>
          </div>
        </dl>
      )}
    </section>
  );
}
