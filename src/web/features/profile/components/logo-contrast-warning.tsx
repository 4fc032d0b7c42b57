import { TriangleAlert } from 'lucide-react';
import { headerLogoOf, logoContrastWarning } from '#shared/profile/contrast';
import type { ProfileLayout } from '#shared/schemas/profile';
import { useImageTone } from '#web/features/profile/image-tone';

/**
 * Warns when the logo the chosen layout puts on its header would be hard to see there (WCAG AA's
 * 3:1 for graphics; decision 37-04): a dark banner logo on a dark header, a white one on Minimal.
 * A warning, not a refusal: the owner may keep it.
 */
export function LogoContrastWarning({
  layout,
  logoUrl,
  bannerLogoUrl,
  headerColour,
}: {
  layout: ProfileLayout;
  logoUrl: string | null;
  bannerLogoUrl: string | null;
  /** a team member's header colour (the team's primary), which replaces the layout's */
  headerColour?: string;
}) {
  const which = headerLogoOf(layout);
  const url = which === 'logoUrl' ? logoUrl : which === 'bannerLogoUrl' ? bannerLogoUrl : null;
  const tone = useImageTone(url);
  const warning = which && tone ? logoContrastWarning(layout, tone, { which, headerColour }) : null;
  if (!warning) return null;
  return (
    <p role="status" data-testid="logo-contrast-warning" className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{warning}</span>
    </p>
  );
}
