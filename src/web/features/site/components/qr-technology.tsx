import { Camera, Fingerprint, Globe, ShieldCheck } from 'lucide-react';
import { Card, CardContent } from '#web/components/ui/card';
import { SectionHeading } from './section-heading';

const QR_POINTS = [
  { icon: Camera, title: 'No app needed', text: 'Current iPhones and Android phones read the code with their built-in camera.' },
  { icon: ShieldCheck, title: 'Built to survive wear', text: 'Error correction keeps the code readable even when part of it is scratched or covered.' },
  { icon: Fingerprint, title: 'Yours for good', text: 'Each card carries a code unique to your profile; its address never changes, so cards never go stale.' },
  { icon: Globe, title: 'Always a fallback', text: 'Your profile also has a short web address anyone can type, should a phone not scan.' },
];

export function QrTechnology() {
  return (
    <section aria-labelledby="qr-heading" className="border-y border-border bg-card/40 px-4 py-16 sm:py-20">
      <SectionHeading id="qr-heading" title="QR Technology">
        The code on your card is the bridge between metal and your digital profile.
      </SectionHeading>
      <ul className="mx-auto mt-10 grid grid-cols-1 max-w-6xl gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {QR_POINTS.map(({ icon: Icon, title, text }) => (
          <li key={title}>
            <Card className="h-full">
              <CardContent className="p-6">
                <Icon aria-hidden="true" className="size-6 text-gold" />
                <h3 className="mt-3 font-semibold">{title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{text}</p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
