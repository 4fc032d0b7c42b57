import { useEffect } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { PROFILE_CSS } from '#shared/profile/styles';
import { profileLinkHopPath, publicProfileUrl } from '#shared/routes';
import { handlePath } from '#shared/profile/handle';
import { copyText } from '#web/lib/clipboard';
import { toast } from '#web/lib/toast';
import { ProfileNotFound, ProfileView } from '#shared/profile/profile-layout';
import { ApiError } from '#web/lib/api';
import { usePageTitle } from '#web/lib/use-page-title';
import { Skeleton } from '#web/components/ui/skeleton';
import { ContactExchange } from '#web/features/engagement/components/contact-exchange';
import { getPById, getVcardByProfileId } from '#shared/contracts/profile';
import { endpointHref, endpointQuery } from '#web/lib/endpoint';

/**
 * /p/{id} when reached by client-side navigation (the server normally answers this path with the
 * server-rendered page). Same layouts and stylesheet as the server's page.
 */
export default function PublicProfilePage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const preview = params.get('preview') === 'true';
  const navigate = useNavigate();
  const q = useQuery(endpointQuery(getPById, { params: { id }, query: preview ? { preview: 'true' } : {} }));
  const notFound = q.error instanceof ApiError && q.error.status === 404;
  usePageTitle(q.data ? q.data.fullName : notFound ? 'Profile Not Found' : 'Profile');

  useEffect(() => {
    // a failed fetch (other than "no such profile") goes to the not-found page
    if (q.isError && !notFound) navigate('/not-found', { replace: true });
  }, [q.isError, notFound, navigate]);

  const shareUrl = q.data ? (q.data.handle ? window.location.origin + handlePath(q.data.handle) : publicProfileUrl(window.location.origin, q.data.id)) : '';
  async function share() {
    if (typeof navigator.share === 'function') {
      await navigator.share({ title: q.data?.fullName, url: shareUrl }).catch(() => undefined);
      return;
    }
    try {
      await copyText(shareUrl);
      toast({ title: 'Link copied!', description: shareUrl });
    } catch {
      toast({ title: "Couldn't copy link", description: shareUrl, variant: 'destructive' });
    }
  }

  if (q.isLoading) {
    return (
      <div className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 py-10" data-testid="public-profile-loading">
        <Skeleton className="h-32 w-full rounded-2xl" />
        <Skeleton className="size-28 rounded-full" />
        <Skeleton className="h-7 w-48" />
        <Skeleton className="h-5 w-32" />
        <Skeleton className="h-14 w-full" />
      </div>
    );
  }
  return (
    <>
      <style>{PROFILE_CSS}</style>
      {q.data ? (
        <ProfileView
          profile={q.data}
          linkHref={(l) => profileLinkHopPath(q.data.id, l.id)}
          saveContactHref={endpointHref(getVcardByProfileId, { params: { profileId: q.data.id } })}
          backToDesignerHref={preview ? '/profile?tab=share' : undefined}
          onBack={() => (window.history.length > 1 ? navigate(-1) : navigate('/profile?tab=share'))}
          extra={<ContactExchange profileId={q.data.id} ownerName={q.data.fullName} />}
          showFooter={false}
          shareUrl={shareUrl}
          onShare={() => void share()}
        />
      ) : notFound ? (
        <ProfileNotFound />
      ) : null}
    </>
  );
}
