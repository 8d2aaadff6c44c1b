import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { projectInEditing } from './fresh-organization.ts';
import { customerSignIn, staffSignIn } from './sign-in.ts';

/**
 * Frame-accurate review (issue 13), end to end: staff deliver a clip and send it to review; the
 * owner pauses on a frame, draws an arrow and comments there; in another browser the assigned
 * editor sees the comment arrive without a reload, replies (the owner sees the reply arrive),
 * and exports it as an EDL marker and a printable PDF; the owner requests changes with the
 * comment listed.
 */
test('a comment with an arrow at an exact frame reaches the editor live, gets a reply, goes into the EDL, the PDF and the change request', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const { generateClip } = await import('../tests/support/media.ts');
  const clip = await generateClip({ seconds: 4, width: 640, height: 360 }); // 25 fps

  const { projectId, email, password } = await projectInEditing(request, {
    label: 'review',
    firstName: 'Rhea',
    lastName: 'Reviewer',
    name: 'Hiring video',
    audience: 'Candidates',
    goal: 'Applications',
    brief: 'Meet the team.',
  });

  const staff = await (await browser.newContext()).newPage();
  await staffSignIn(staff, 'admin@demo.cutdesk.test');
  await staff.goto(`/project/${projectId}`);
  await staff.getByTestId('final-video-input').setInputFiles({ name: 'hiring final.mp4', mimeType: 'video/mp4', buffer: clip });
  await expect(staff.getByRole('button', { name: 'Send to review' })).toBeEnabled({ timeout: 90_000 });
  await staff.getByRole('button', { name: 'Send to review' }).click();
  await expect(staff.getByTestId('project-status')).toHaveText('PENDING REVIEW');

  // The assigned editor has the project open in another browser, its live stream running.
  const editor = await (await browser.newContext()).newPage();
  await staffSignIn(editor, 'editor@demo.cutdesk.test');
  const editorStream = editor.waitForResponse(
    (response) => new URL(response.url()).pathname === `/api/v1/projects/${projectId}/events` && response.status() === 200,
  );
  await editor.goto(`/project/${projectId}`);
  await editorStream;

  const owner = await (await browser.newContext()).newPage();
  await customerSignIn(owner, email, password);
  await owner.getByRole('region', { name: 'Needs review' }).getByRole('link', { name: 'Hiring video' }).click();
  const panel = owner.getByTestId('review-panel');
  await expect(panel).toContainText('No comments yet', { timeout: 60_000 });

  // Without an open comment or a note, changes cannot be requested, and the page says why.
  await owner.getByRole('button', { name: 'Request changes' }).click();
  await expect(owner.getByRole('button', { name: 'Submit revision' })).toBeDisabled();
  await expect(owner.getByTestId('request-changes-hint')).toHaveText('Leave at least one open comment or write a note before requesting changes.');
  await owner.getByRole('button', { name: 'Back' }).click();

  // Pause at 1 s (frame 25), then two frames on with the keyboard: 00:00:01:02.
  const video = owner.getByTestId('video-player');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  await video.evaluate((v: HTMLVideoElement) => {
    v.pause();
    v.currentTime = 1.0;
  });
  await expect(owner.getByTestId('playhead-timecode')).toHaveText('00:00:01:00');
  await owner.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  // The editor's keys: Space plays and pauses, L plays, K stops, J plays backwards, , and ← a frame back.
  const paused = () => video.evaluate((v: HTMLVideoElement) => v.paused);
  const seconds = () => video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await owner.keyboard.press(' ');
  await expect.poll(paused).toBe(false);
  await owner.keyboard.press(' ');
  await expect.poll(paused).toBe(true);
  await owner.keyboard.press('l');
  await expect.poll(paused).toBe(false);
  await owner.keyboard.press('k');
  await expect.poll(paused).toBe(true);
  await video.evaluate((v: HTMLVideoElement) => (v.currentTime = 3.0));
  await expect(owner.getByTestId('playhead-timecode')).toHaveText('00:00:03:00');
  // J walks back through the frames (browsers cannot play backwards), K stops it on a frame.
  // One J keeps going back by itself, past where a one-second jump would stop; a second J speeds it up.
  await owner.keyboard.press('j');
  await expect.poll(seconds).toBeLessThan(1.6);
  expect(await paused()).toBe(true);
  await owner.keyboard.press('j');
  await expect.poll(seconds).toBeLessThan(1.0);
  await owner.keyboard.press('k');
  expect(await paused()).toBe(true);
  await video.evaluate((v: HTMLVideoElement) => (v.currentTime = 1.0));
  await expect(owner.getByTestId('playhead-timecode')).toHaveText('00:00:01:00');
  await owner.keyboard.press(',');
  await expect(owner.getByTestId('playhead-timecode')).toHaveText('00:00:00:24');
  await owner.keyboard.press('ArrowLeft');
  await expect(owner.getByTestId('playhead-timecode')).toHaveText('00:00:00:23');
  await owner.keyboard.press('Shift+ArrowRight');
  await expect(owner.getByTestId('playhead-timecode')).toHaveText('00:00:01:23');
  await video.evaluate((v: HTMLVideoElement) => (v.currentTime = 1.0));
  await expect(owner.getByTestId('playhead-timecode')).toHaveText('00:00:01:00');
  await owner.keyboard.press('ArrowRight');
  await owner.keyboard.press('.');
  await expect(owner.getByTestId('playhead-timecode')).toHaveText('00:00:01:02');
  // An arrow on the paused frame, dragged across the picture.
  await owner.getByRole('button', { name: '✎ Draw' }).click();
  const overlay = owner.getByTestId('review-overlay');
  // The overlay takes the pointer once it is in drawing mode (a drag before that would be the video's).
  await expect(overlay).toHaveClass(/drawing/);
  await expect(owner.getByRole('toolbar', { name: 'Drawing tools' })).toBeVisible();
  // The whole picture is the canvas: the player's own controls step aside while drawing.
  await expect(video).not.toHaveAttribute('controls');
  const composer = owner.getByTestId('comment-composer');
  // A drag on a busy machine can land before the overlay has laid itself over the video: drag
  // again until the composer counts a shape (what a person does when a stroke did not take).
  // The mouse works in the window, so the picture is scrolled into it first (clicking the Draw
  // button may have scrolled its top out of sight).
  await expect(async () => {
    await overlay.scrollIntoViewIfNeeded();
    const area = (await overlay.boundingBox())!;
    await owner.mouse.move(area.x + area.width * 0.3, area.y + area.height * 0.3);
    await owner.mouse.down();
    await owner.mouse.move(area.x + area.width * 0.6, area.y + area.height * 0.6, { steps: 6 });
    await owner.mouse.up();
    await expect(composer).toContainText(/\d+ shapes?/, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  // Words on the frame, in yellow: a click opens a field there, Enter places them.
  await owner.getByRole('button', { name: 'Text' }).click();
  await owner.getByRole('button', { name: 'Colour yellow' }).click();
  const shapesDrawn = Number(/(\d+) shapes?/.exec(await composer.innerText())![1]);
  await expect(async () => {
    await overlay.scrollIntoViewIfNeeded();
    const area = (await overlay.boundingBox())!;
    await owner.mouse.click(area.x + area.width * 0.65, area.y + area.height * 0.3);
    await expect(owner.getByLabel('Text on the frame')).toBeFocused({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await owner.keyboard.type('Logo jumps');
  await owner.keyboard.press('Enter');
  await expect(owner.getByLabel('Text on the frame')).toHaveCount(0);
  // The words are one shape more than the stroke(s) drawn (a retried drag may have drawn two).
  await expect(composer).toContainText(`${shapesDrawn + 1} shapes`);
  const box = owner.getByLabel('Add a comment at 00:00:01:02');
  await box.fill('The logo <b>flickers</b> here.');
  await owner.getByRole('button', { name: 'Comment', exact: true }).click();
  const thread = owner.getByTestId('review-thread');
  await expect(thread).toHaveCount(1);
  await expect(thread).toContainText('00:00:01:02');
  // Plain text, never HTML.
  await expect(thread.locator('.comment-text')).toHaveText('The logo <b>flickers</b> here.');
  await expect(owner.getByTestId('review-counts')).toContainText('1 open');
  // The arrow is kept with the comment and drawn over the frame it is about.
  await expect(overlay.locator('line, path, polygon, polyline').first()).toBeAttached();
  await expect(overlay.locator('text')).toHaveText('Logo jumps');
  await expect(video).toHaveAttribute('controls');
  await expect(owner.getByTestId('review-marker')).toHaveCount(1);

  // A click on the comment seeks back to its exact frame and pauses.
  await video.evaluate((v: HTMLVideoElement) => (v.currentTime = 3));
  await expect(owner.getByTestId('playhead-timecode')).toHaveText('00:00:03:00');
  await thread.getByRole('button', { name: '00:00:01:02' }).click();
  await expect(owner.getByTestId('playhead-timecode')).toHaveText('00:00:01:02');
  expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);

  // The editor's open page shows it without a reload, and the editor answers it.
  const editorThread = editor.getByTestId('review-thread');
  await expect(editorThread).toContainText('The logo <b>flickers</b> here.', { timeout: 15_000 });
  await expect(editorThread).toContainText('00:00:01:02');
  await editorThread.getByRole('button', { name: 'Reply' }).click();
  await editor.getByLabel('Your reply').fill('Fixed in the next cut: the logo holds still.');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editorThread).toContainText('Fixed in the next cut: the logo holds still.');
  // The owner's page hears the reply.
  await expect(thread).toContainText('Fixed in the next cut: the logo holds still.', { timeout: 15_000 });

  // The editor exports the markers for the edit.
  const download = editor.waitForEvent('download');
  await editor.getByRole('button', { name: 'Export markers as EDL' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Hiring_video_v01_comments.edl');
  const edl = await readFile(await file.path(), 'utf8');
  // The EDL's timeline starts at 01:00:00:00.
  expect(edl).toContain('01:00:01:02');
  expect(edl).toContain('The logo <b>flickers</b> here.');
  // The CSV keeps its byte order mark, which Excel needs to read UTF-8 (the page reads it as text, which drops it).
  const csvDownload = editor.waitForEvent('download');
  await editor.getByRole('button', { name: 'Export markers as CSV' }).click();
  const csv = await readFile(await (await csvDownload).path(), 'utf8');
  expect(csv.startsWith('\uFEFFNumber,Reply to,Timecode')).toBe(true);
  expect(csv).toContain('The logo <b>flickers</b> here.');
  // And the printable comments: a PDF with a picture of the commented frame.
  const pdfDownload = editor.waitForEvent('download');
  await editor.getByRole('button', { name: 'Export comments as PDF with pictures of the frames' }).click();
  const pdf = await pdfDownload;
  expect(pdf.suggestedFilename()).toBe('Hiring_video_v01_comments.pdf');
  const pdfBytes = await readFile(await pdf.path());
  expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdfBytes.includes(Buffer.from('/Subtype /Image'))).toBe(true);

  // The owner requests changes: the comment goes with the request.
  await owner.getByRole('button', { name: 'Request changes' }).click();
  await expect(owner.getByTestId('revision-comments')).toContainText('00:00:01:02');
  await expect(owner.getByTestId('revision-comments')).toContainText('The logo <b>flickers</b> here.');
  await owner.getByRole('button', { name: 'Submit revision' }).click();
  await expect(owner.getByTestId('status-banner')).toContainText('Editing');
});
