import { MapPin, Phone } from 'lucide-react';
import type { SiteStudio } from '#shared/schemas/settings';

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * The studio's address, phone, hours and (optionally) pickup instructions with a map link (issue 35):
 * the shop settings staff edit, shown on Help, About and a pickup order's page.
 */
export function StudioDetails({ studio, showPickup = false }: { studio: SiteStudio; showPickup?: boolean }) {
  return (
    <div className="space-y-3 text-sm" data-testid="studio-details">
      <address className="not-italic leading-relaxed" data-testid="studio-address">
        {lines(studio.address).map((l, i) => (
          <span key={i} className="block">
            {l}
          </span>
        ))}
      </address>
      <p className="flex flex-wrap gap-x-4 gap-y-1">
        <a className="inline-flex items-center gap-1 underline underline-offset-2" href={studio.mapUrl} target="_blank" rel="noopener noreferrer" data-testid="studio-map-link">
          <MapPin className="size-4" aria-hidden="true" />
          Open in Google Maps
        </a>
        <a className="inline-flex items-center gap-1 whitespace-nowrap underline underline-offset-2" href={`tel:${studio.phone.replace(/[^\d+]/g, '')}`}>
          <Phone className="size-4" aria-hidden="true" />
          {studio.phone}
        </a>
      </p>
      <div>
        <h3 className="font-medium">Opening hours</h3>
        <ul className="text-muted-foreground">
          {lines(studio.hours).map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ul>
      </div>
      {showPickup && studio.pickupInstructions.trim() ? (
        <div>
          <h3 className="font-medium">Pickup</h3>
          <p className="whitespace-pre-line text-muted-foreground">{studio.pickupInstructions}</p>
        </div>
      ) : null}
    </div>
  );
}
