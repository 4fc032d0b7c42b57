import type { SiteStudio } from '#shared/schemas/settings';
import { STUDIO_DEFAULTS, withMapUrl } from '#shared/settings/studio';
import { StudioDetails } from '#web/components/studio-card';
import { useStudio } from '#web/features/settings/api';

/** The studio as staff set it; the spec's values until it loads (or when it cannot). */
export function useStudioOrDefaults(): SiteStudio {
  return useStudio().data ?? withMapUrl(STUDIO_DEFAULTS);
}

/** The studio's address, map link, phone and hours (Help, About). */
export function StudioInfo({ showPickup = false }: { showPickup?: boolean }) {
  return <StudioDetails studio={useStudioOrDefaults()} showPickup={showPickup} />;
}
