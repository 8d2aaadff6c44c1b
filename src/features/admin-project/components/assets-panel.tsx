import { useState } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import type { Asset } from '@/domain/contract/uploads.ts';
import { formatFileSize } from '@/domain/bytes.ts';
import { VERIFICATION_HINTS, VERIFICATION_LABELS, verificationOf } from '@/domain/asset-checksum.ts';
import { crc32Hex } from '@/domain/crc32.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useQuery } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { EmptyState } from '@/ui/empty-state.tsx';
import { Menu } from '@/ui/menu.tsx';
import { Tabs } from '@/ui/tabs.tsx';
import { listAssets } from '@/shared/uploads/api/list-assets.ts';

type Filter = 'all' | 'INTERVIEW_CLIP' | 'BROLL_CLIP' | 'ASSET';
const FILTERS: { id: Filter; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'INTERVIEW_CLIP', label: 'Interview clips' },
  { id: 'BROLL_CLIP', label: 'B-roll clips' },
  { id: 'ASSET', label: 'Assets' },
];

/** A§2: "ready" when every original and proxy exists, "partly ready" when one set does. */
export function archiveReadiness(project: Pick<Project, 'hasHdArchive' | 'hasLowResArchive'>): 'ready' | 'partly ready' | 'not ready' {
  if (project.hasHdArchive === 1 && project.hasLowResArchive === 1) return 'ready';
  if (project.hasHdArchive === 1 || project.hasLowResArchive === 1) return 'partly ready';
  return 'not ready';
}

/**
 * Issue 35: whether the stored file is, bit for bit, the one the customer's device read, with
 * the stored bytes' CRC-32 as `unzip -v` and the manifest print it.
 */
function ChecksumCell({ asset }: { asset: Pick<Asset, 'crc32' | 'sentCrc32'> }) {
  const state = verificationOf(asset);
  return (
    <span className={`checksum checksum-${state}`} title={VERIFICATION_HINTS[state]} data-testid="asset-checksum">
      <span className="checksum-state">{VERIFICATION_LABELS[state]}</span>
      {asset.crc32 !== null && <code className="checksum-value">{crc32Hex(asset.crc32)}</code>}
    </span>
  );
}

/** The project's raw material with filters and a per-asset download menu (A§2 assets panel). */
export function AssetsPanel({ project, actions }: { project: Project; actions?: React.ReactNode }) {
  const query = useQuery({ queryKey: queryKeys.projectAssets(project.id), queryFn: () => listAssets(project.id) });
  const assets = query.data ?? null;
  const error = query.error ? errorMessage(query.error) : null;
  const [filter, setFilter] = useState<Filter>('all');
  const readiness = archiveReadiness(project);
  const shown = (assets ?? []).filter((a) => filter === 'all' || a.type.name === filter);
  const open = (url: string | null) => url && window.open(url, '_blank', 'noopener');

  return (
    <section className="card panel-plain" aria-label="Assets">
      <div className="panel-head">
        <h2>Assets</h2>
        <span className={`readiness readiness-${readiness.replace(' ', '-')}`} title={`Download links are ${readiness}`} data-testid="archive-readiness">
          Downloads {readiness}
        </span>
        <div className="panel-head-actions">{actions}</div>
      </div>
      <Tabs
        tabs={FILTERS.map((f) => ({ ...f, count: (assets ?? []).filter((a) => f.id === 'all' || a.type.name === f.id).length }))}
        active={filter}
        onChange={setFilter}
        label="Asset filters"
      />
      {error && <div className="form-error">{error}</div>}
      {assets && shown.length === 0 && (
        <EmptyState title="No assets here" icon="upload">
          The customer has not uploaded files of this kind.
        </EmptyState>
      )}
      {shown.length > 0 && (
        <table className="data-table" aria-label="Asset list">
          <thead>
            <tr>
              <th>Name</th>
              <th>Type</th>
              <th>Size</th>
              <th>Proxy</th>
              <th>Checksum</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {shown.map((asset) => (
              <tr key={asset.id}>
                <td>
                  {/* Issue 35: where the clip sat on the card the customer dropped, as the raw zip keeps it. */}
                  {asset.folder && <span className="muted-cell">{asset.folder}/</span>}
                  {asset.name}
                </td>
                <td>{FILTERS.find((f) => f.id === asset.type.name)?.label.replace(/s$/, '')}</td>
                <td>{formatFileSize(asset.size)}</td>
                <td>{asset.previewPath ? 'Ready' : <span className="muted-cell">Processing</span>}</td>
                <td>
                  <ChecksumCell asset={asset} />
                </td>
                <td>
                  <Menu
                    label={`Actions for ${asset.name}`}
                    items={[
                      { label: 'Download full', onSelect: () => open(asset.url), disabled: !asset.url, hint: 'Not available' },
                      {
                        label: 'Download reduced',
                        onSelect: () => open(asset.previewUrl),
                        disabled: !asset.previewUrl,
                        hint: 'The reduced copy is not ready yet',
                      },
                    ]}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
