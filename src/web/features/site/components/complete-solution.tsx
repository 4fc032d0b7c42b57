import { Link } from 'react-router';
import { BarChart3, Camera, Globe, Link2, Mail, MapPin, Phone, ShieldCheck, Smartphone, UserRound } from 'lucide-react';
import { MAX_PROFILE_LINKS } from '#shared/catalogue';
import { Card, CardContent } from '#web/components/ui/card';
import { QrImage, serverQrSrc } from '#web/components/qr-image';
import { useOrigin } from '#web/lib/use-origin';
import { AuthButton } from './auth-button';

const SAMPLE_LINKS = [
  { icon: Globe, label: 'Portfolio' },
  { icon: Link2, label: 'LinkedIn' },
  { icon: Camera, label: 'Instagram' },
];

function SampleProfileCard() {
  return (
    <figure className="w-full max-w-[320px]">
      <Card className="overflow-hidden">
        <div className="h-16 bg-[linear-gradient(135deg,#2a2a2e,#0d0d0f)]" aria-hidden="true" />
        <CardContent className="-mt-10 flex flex-col items-center p-5 pt-0 text-center">
          <div role="img" aria-label="Placeholder profile photo" className="flex size-20 items-center justify-center rounded-full border-4 border-card bg-muted">
            <UserRound aria-hidden="true" className="size-9 text-muted-foreground" />
          </div>
          <p className="mt-3 text-lg font-semibold">Alex Morgan</p>
          <p className="text-sm text-muted-foreground">Creative Director</p>
          <ul className="mt-4 w-full space-y-2 text-left text-sm">
            <li className="flex items-center gap-2">
              <Mail aria-hidden="true" className="size-4 text-gold" />
              <span className="truncate">alex@example.com</span>
            </li>
            <li className="flex items-center gap-2">
              <Phone aria-hidden="true" className="size-4 text-gold" />
              <span>(212) 555-0100</span>
            </li>
            <li className="flex items-center gap-2">
              <MapPin aria-hidden="true" className="size-4 text-gold" />
              <span>New York, NY</span>
            </li>
          </ul>
          <ul className="mt-4 grid w-full gap-2" aria-label="Sample profile links">
            {SAMPLE_LINKS.map(({ icon: Icon, label }) => (
              <li key={label} className="flex items-center justify-center gap-2 rounded-md border border-border px-3 py-2 text-sm font-medium">
                <Icon aria-hidden="true" className="size-4" />
                {label}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <figcaption className="mt-2 text-center text-xs text-muted-foreground">Sample profile</figcaption>
    </figure>
  );
}

/** A QR code of an absolute URL on this site; an empty square of the same size until the origin is known. */
function QrOnceOriginKnown({ base, path, size, style, alt }: { base: string; path: string; size: number; style?: 'rounded'; alt: string }) {
  // before the origin is known (the prerendered HTML, no JavaScript) the box still names the code
  if (!base) return <span role="img" aria-label={alt} className="block rounded-md bg-white" style={{ width: size, height: size }} />;
  const value = `${base}${path}`;
  return <QrImage value={value} src={serverQrSrc(value, { size, style })} size={size} alt={alt} lazy />;
}

/** Card plus profile: the pitch, a sample profile and two QR codes (drawn by the server, see QrImage). */
export function CompleteSolution() {
  const base = useOrigin();
  return (
    <section aria-labelledby="solution-heading" className="px-4 py-16 sm:py-20">
      <div className="mx-auto grid grid-cols-1 max-w-6xl items-center gap-12 lg:grid-cols-2">
        <div>
          <h2 id="solution-heading" className="text-3xl font-bold tracking-tight">
            Complete Solution
          </h2>
          <p className="mt-4 text-muted-foreground">
            A metal card for the handshake, a digital profile for everything after it. Your profile holds your contact details, photo and up to{' '}
            {MAX_PROFILE_LINKS} links, and the QR code on your card opens it on any phone.
          </p>
          <ul className="mt-6 space-y-3 text-sm">
            <li className="flex gap-3">
              <ShieldCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold" />
              <span>Premium metal cards in four finishes, checked by our team before production.</span>
            </li>
            <li className="flex gap-3">
              <Smartphone aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold" />
              <span>A profile page that saves your contact in one tap on iPhone and Android.</span>
            </li>
            <li className="flex gap-3">
              <BarChart3 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold" />
              <span>A dashboard showing how many people viewed your profile.</span>
            </li>
          </ul>
          <div className="mt-8">
            <AuthButton size="default" signedIn={{ to: '/profile', label: 'Manage Your Digital Profile' }} signedOut={{ to: '/login', label: 'Create Your Profile' }} />
          </div>
        </div>
        <div className="flex flex-col items-center gap-8 sm:flex-row sm:items-start sm:justify-center">
          <SampleProfileCard />
          <div className="flex flex-row gap-6 sm:flex-col">
            <figure className="flex flex-col items-center gap-2 text-center">
              <Link
                to="/login"
                data-testid="create-profile-qr"
                className="rounded-lg border border-border bg-white p-2 transition-shadow hover:shadow-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              >
                <QrOnceOriginKnown base={base} path="/login" size={128} alt="QR code: scan to create your profile" />
              </Link>
              <figcaption className="max-w-[9rem] text-sm font-medium">Scan to create your profile</figcaption>
            </figure>
            <figure className="flex flex-col items-center gap-2 text-center">
              <div className="rounded-lg border border-border bg-white p-2" data-testid="example-qr">
                <QrOnceOriginKnown base={base} path="/" size={128} style="rounded" alt="Example QR code" />
              </div>
              <figcaption className="max-w-[9rem] text-sm text-muted-foreground">Example QR code for digital profile</figcaption>
            </figure>
          </div>
        </div>
      </div>
    </section>
  );
}
