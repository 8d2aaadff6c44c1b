import type { Project } from '@/domain/contract/projects.ts';
import { mediaWorker } from './media-worker.ts';

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
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/pdf' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'brief.pdf';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
