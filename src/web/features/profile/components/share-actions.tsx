import { Link } from 'react-router';
import { Copy, ExternalLink, QrCode as QrIcon } from 'lucide-react';
import { publicProfilePath } from '#shared/routes';
import type { Profile } from '#shared/schemas/profile';
import { Button } from '#web/components/ui/button';
import { copyProfileLink } from './share-panel';

/** Copy the link, open the public page, go to the QR code. */
export function ShareActions({ profile }: { profile: Profile }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="button" size="sm" onClick={() => void copyProfileLink(profile.id)}>
        <Copy aria-hidden="true" />
        Copy Profile Link
      </Button>
      <Button asChild size="sm" variant="outline">
        <a href={publicProfilePath(profile.id)} target="_blank" rel="noopener">
          <ExternalLink aria-hidden="true" />
          View Public Profile
        </a>
      </Button>
      <Button asChild size="sm" variant="outline">
        <Link to="/profile?tab=share">
          <QrIcon aria-hidden="true" />
          QR Code
        </Link>
      </Button>
    </div>
  );
}
