import { useMemo } from 'react';
import { useParams } from 'wouter';
import type { GuestReview } from '@/domain/contract/share-links.ts';
import { ApiError, errorMessage } from '@/lib/api-client.ts';
import { useQuery } from '@/lib/query.ts';
import { FinalVideo } from '@/shared/media/final-video.tsx';
import { versionLabel } from '@/shared/review/review-logic.ts';
import { ReviewProvider } from '@/shared/review/review-context.tsx';
import { ReviewPanel } from '@/shared/review/review-panel.tsx';
import { useReviewPlayer } from '@/shared/review/review-player.tsx';
import { ReviewTimeline } from '@/shared/review/review-timeline.tsx';
import { Logo } from '@/ui/brand.tsx';
import { EmptyState, Spinner } from '@/ui/empty-state.tsx';
import { getGuestReview } from './api/guest-calls.ts';
import { guestKeys, guestSource } from './guest-source.ts';
import { PasswordForm } from './password-form.tsx';
import { useGuestEvents } from './use-guest-events.ts';
import { useSharePass } from './use-share-pass.ts';

type Review = NonNullable<GuestReview['review']>;

function GuestPlayer({ review }: { review: Review }) {
  const player = useReviewPlayer();
  const { version } = review;
  const media = version.media!;
  const placeholder = <EmptyState title="The video is not available">This version cannot be played right now.</EmptyState>;
  return (
    <FinalVideo
      project={{ finalVideoPreview: media.preview, finalVideoThumbnail: media.thumbnail, noReviews: version.number }}
      audience="customer"
      placeholder={placeholder}
      onVideo={player.onVideo}
      overlay={player.overlay}
    />
  );
}

function GuestHeader({ review, expiresAt }: { review: Review | null; expiresAt: string | null }) {
  const until = expiresAt ? new Date(expiresAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : null;
  return (
    <header className="guest-top">
      <Logo />
      {review && (
        <div className="guest-title">
          <h1>
            {review.projectName} <span className="version-chip single">{versionLabel(review.version.number)}</span>
          </h1>
          <p className="muted">
            Shared with you by {review.organizationName} for review{until && <> · this link works until {until}</>}
          </p>
        </div>
      )}
    </header>
  );
}

/** The review itself: the player, the timeline and the comments, through the link. */
function GuestReviewBody({ token, pass, review }: { token: string; pass: string | null; review: Review }) {
  const source = useMemo(() => guestSource(token, pass, review.version), [token, pass, review.version]);
  const project = useMemo(
    () => ({ id: 0, name: review.projectName, status: { name: review.open ? ('IN_REVIEW' as const) : ('APPROVED' as const) } }),
    [review.projectName, review.open],
  );
  return (
    <ReviewProvider project={project} enabled source={source}>
      <div className="project-main with-review guest-main">
        <div className="project-player">
          <GuestPlayer review={review} />
          <ReviewTimeline />
          <p className="muted guest-hint">Pause on a frame, then write what should change. Drawings help: arrows, boxes and notes on the picture.</p>
        </div>
        <div className="project-side">
          <ReviewPanel />
        </div>
      </div>
    </ReviewProvider>
  );
}

/**
 * /review/{token}: the page a guest opens from a share link (issue 13). No account: the link
 * (and, if protected, its password) shows one version of one project and its comments; the guest
 * comments under a name they type. A link that ended says so and who to ask.
 */
export function GuestReviewPage() {
  const { token } = useParams<{ token: string }>();
  const [pass, setPass] = useSharePass(token);
  const page = useQuery({ queryKey: guestKeys.page(token, pass), queryFn: () => getGuestReview(token, pass), retry: false });
  const review = page.data?.review ?? null;
  // A link that ended (revoked, expired: its stream says so by asking for a read, which fails) stops listening.
  useGuestEvents(token, pass, review !== null && !page.error);

  let body;
  if (page.isPending)
    body = (
      <div className="center-block">
        <Spinner />
      </div>
    );
  else if (page.error) {
    const status = page.error instanceof ApiError ? page.error.status : 0;
    body = (
      <EmptyState
        title={status === 410 ? 'This review link no longer works' : status === 404 ? 'This review link does not exist' : 'The review could not be opened'}
      >
        {status === 404 ? 'Check that the whole link was copied, or ask the person who sent it for a new one.' : errorMessage(page.error)}
      </EmptyState>
    );
  } else if (!review) body = <PasswordForm token={token} onUnlocked={setPass} />;
  else body = <GuestReviewBody token={token} pass={pass} review={review} />;

  return (
    <div className="guest-review" data-testid="guest-review">
      <GuestHeader review={review} expiresAt={page.data?.expiresAt ?? null} />
      <main className="guest-content">{body}</main>
    </div>
  );
}
