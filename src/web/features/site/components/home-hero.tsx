import { CreditCard } from 'lucide-react';
import { BUSINESS } from '#shared/catalogue';
import { Button } from '#web/components/ui/button';
import { AuthButton } from './auth-button';

/** The home page's first screen: name, tagline, the order button and a metal card. */
export function HomeHero() {
  return (
    <section aria-labelledby="hero-heading" className="relative overflow-hidden border-b border-border">
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(212,175,55,0.15),transparent_60%)]" />
      <div className="relative mx-auto grid grid-cols-1 max-w-7xl items-center gap-12 px-4 py-16 sm:py-24 lg:grid-cols-2">
        <div>
          <h1 id="hero-heading" className="text-4xl font-bold tracking-tight sm:text-5xl lg:text-6xl">
            {BUSINESS.name}
          </h1>
          <p className="mt-3 text-2xl font-semibold text-amber-700 dark:text-gold sm:text-3xl">{BUSINESS.tagline}</p>
          <p className="mt-6 max-w-xl text-lg text-muted-foreground">
            Metal business cards made in New York, each with its own QR code that opens your digital profile. Hand over a card people keep, and let them save your
            contact in one tap.
          </p>
          <div className="mt-8 flex flex-wrap items-center gap-3">
            <AuthButton signedIn={{ to: '/profile', label: 'Go to profile' }} signedOut={{ to: '/login', label: 'Order Metal Cards' }} />
            <Button asChild variant="outline" size="lg">
              <a href="#how-it-works">Learn more</a>
            </Button>
          </div>
        </div>
        <div aria-hidden="true" className="mx-auto w-full max-w-md">
          <div className="aspect-[1.75] w-full rotate-[-4deg] rounded-2xl border border-white/10 bg-[linear-gradient(135deg,#2a2a2e_0%,#0d0d0f_45%,#1c1c20_70%,#050506_100%)] p-6 shadow-2xl sm:p-8">
            <div className="flex h-full flex-col justify-between text-white">
              <div className="flex items-center justify-between">
                <span className="text-xs font-semibold uppercase tracking-[0.3em] text-gold">Metal Cards NYC</span>
                <CreditCard className="size-5 text-white/50" />
              </div>
              <div>
                <p className="text-xl font-semibold tracking-wide sm:text-2xl">Alex Morgan</p>
                <p className="text-sm text-white/60">Creative Director</p>
                <div className="mt-3 h-px w-16 bg-gold" />
              </div>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}
