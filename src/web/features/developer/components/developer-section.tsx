import type { ReactNode } from 'react';
import { BookOpen } from 'lucide-react';
import { TokensSection } from './tokens-section';
import { getDocs } from '#shared/contracts/developer';
import { endpointHref } from '#web/lib/endpoint';

/** The account page's Developer section: the API reference, access tokens and webhooks (the page's slot). */
export function DeveloperSection({ webhooks, teamAdmin }: { webhooks?: ReactNode; teamAdmin: boolean }) {
  return (
    <section aria-labelledby="developer-heading" className="space-y-4">
      <h2 id="developer-heading" className="text-2xl font-semibold">
        Developer
      </h2>
      <p className="text-sm text-muted-foreground">
        Reach your profile, leads and statistics from your own tools.{' '}
        <a href={endpointHref(getDocs)} className="inline-flex items-center gap-1 font-medium text-foreground underline underline-offset-4">
          <BookOpen className="size-4" aria-hidden="true" />
          Read the API reference
        </a>
      </p>
      <TokensSection teamAdmin={teamAdmin} />
      {webhooks}
    </section>
  );
}
