import { useEffect } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import { EmptyState } from '@/ui/empty-state.tsx';

/** What the project page needs to know of the assets to allow "Send to editing" (C§5). */
export interface AssetState {
  /** An upload of this project is queued or running. */
  uploading: boolean;
  /** Interview or b-roll clips whose upload did not finish. */
  incompleteClips: number;
  /** Registered assets of the project (null while loading). */
  assetCount: number | null;
}

interface Props {
  project: Project;
  /** Assets are locked outside OPENED (C§4). */
  locked: boolean;
  onStateChange: (state: AssetState) => void;
}

/**
 * Interview clips, B-roll clips and image assets of the project. This first version only
 * reports an empty state: the upload engine (its own issue) fills these sections.
 */
export function AssetSections({ onStateChange }: Props) {
  useEffect(() => onStateChange({ uploading: false, incompleteClips: 0, assetCount: 0 }), [onStateChange]);
  return (
    <EmptyState title="Footage uploads" icon="upload">
      Interview clips, B-roll and images are uploaded here once the upload engine is in place.
    </EmptyState>
  );
}
