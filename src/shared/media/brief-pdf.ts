import type { Project } from '@/domain/contract/projects.ts';
import { mediaWorker } from './media-worker.ts';
import { saveBlob } from './start-download.ts';

/** A§2 "download brief": `brief.pdf` made in the media worker (jsPDF, with the font chain of src/domain/pdf-text.ts). */
export async function downloadBriefPdf(project: Pick<Project, 'id' | 'name' | 'audience' | 'goal' | 'finalVideoLength' | 'brief' | 'user'>): Promise<void> {
  const bytes = await mediaWorker().briefPdf({
    projectId: project.id,
    createdBy: `${project.user.firstName} ${project.user.lastName}`.trim(),
    name: project.name,
    audience: project.audience,
    goal: project.goal,
    length: project.finalVideoLength,
    brief: project.brief,
  });
  saveBlob(new Blob([bytes as BlobPart], { type: 'application/pdf' }), 'brief.pdf');
}
