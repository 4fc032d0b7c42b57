import { CreditCard, Truck, UserRound } from 'lucide-react';
import { Card, CardContent } from '#web/components/ui/card';
import { SectionHeading } from './section-heading';

const STEPS = [
  {
    icon: CreditCard,
    title: 'Choose Your Cards',
    text: 'Pick the metal, design style and quantity, upload your logo and give your contact details for a custom quote.',
  },
  {
    icon: UserRound,
    title: 'Create Your Digital Profile',
    text: 'Add your professional information and links, and choose the template style your profile should use.',
  },
  {
    icon: Truck,
    title: 'Receive Your Cards',
    text: 'Your metal cards arrive with custom QR codes that open your profile on any phone.',
  },
];

export function HowItWorks() {
  return (
    <section aria-labelledby="how-heading" id="how-it-works" className="scroll-mt-28 px-4 py-16 sm:py-20">
      <SectionHeading id="how-heading" title="How It Works">
        Three steps from idea to a card in your hand.
      </SectionHeading>
      <ol className="mx-auto mt-10 grid grid-cols-1 max-w-6xl gap-6 md:grid-cols-3">
        {STEPS.map(({ icon: Icon, title, text }, i) => (
          <li key={title}>
            <Card className="h-full">
              <CardContent className="p-6">
                <div className="flex items-center gap-3">
                  <span className="flex size-10 items-center justify-center rounded-full bg-gold text-base font-bold text-black">{i + 1}</span>
                  <Icon aria-hidden="true" className="size-5 text-gold" />
                </div>
                <h3 className="mt-4 text-lg font-semibold">{title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{text}</p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ol>
    </section>
  );
}
