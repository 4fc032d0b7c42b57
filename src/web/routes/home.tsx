import { Link } from 'react-router';
import {
  ArrowRight,
  BarChart3,
  Camera,
  CreditCard,
  Globe,
  Link2,
  Mail,
  MapPin,
  Palette,
  Phone,
  RefreshCw,
  ShieldCheck,
  Smartphone,
  Truck,
  UserRound,
  Fingerprint,
} from 'lucide-react';
import { BUSINESS, MAX_PROFILE_LINKS, TEMPLATE_IDS } from '#shared/catalogue';
import type { TemplateSummary } from '#shared/schemas/templates';
import { Button } from '#web/components/ui/button';
import { Card, CardContent } from '#web/components/ui/card';
import { Skeleton } from '#web/components/ui/skeleton';
import { useAuth } from '#web/features/auth/use-auth';
import { ServerQrImage } from '#web/features/visitor/server-qr-image';
import { IconCardList } from '#web/features/visitor/icon-card-list';
import { useTemplates } from '#web/features/templates/api';
import { TemplateThumbnail } from '#web/features/templates/template-thumbnail';
import { usePageTitle } from '#web/lib/use-page-title';
import { useOrigin } from '#web/lib/use-origin';
import { useHydrated } from '#web/lib/use-hydrated';

/** One row of GET /api/templates (the fields the home page reads). */
type TemplateListItem = Pick<TemplateSummary, 'id' | 'name' | 'description' | 'category' | 'isActive'> & { version?: number };

/** Shown with the spec's message when the list cannot be loaded: the four built-in templates. */
const FALLBACK_TEMPLATES: TemplateListItem[] = Object.entries(TEMPLATE_IDS).map(([key, id]) => ({
  id,
  name: key.charAt(0).toUpperCase() + key.slice(1),
  description: '',
  category: 'Business Card',
  isActive: true,
}));

function SectionHeading({ id, title, children }: { id: string; title: string; children?: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <h2 id={id} className="text-3xl font-bold tracking-tight">
        {title}
      </h2>
      {children ? <p className="mt-3 text-muted-foreground">{children}</p> : null}
    </div>
  );
}

/** The hero's and Complete Solution's primary button: depends on sign-in, keeps its place while loading. */
function AuthButton({ signedIn, signedOut, size = 'lg' }: { signedIn: { to: string; label: string }; signedOut: { to: string; label: string }; size?: 'lg' | 'default' }) {
  const { user, isLoading } = useAuth();
  // while loading, an invisible copy of the signed-out button holds its exact place (most visitors
  // are signed out, so the row keeps its wrapping and nothing below it moves)
  if (isLoading)
    return (
      <Button asChild variant="gold" size={size} className="invisible">
        <span aria-hidden="true">
          {signedOut.label}
          <ArrowRight aria-hidden="true" />
        </span>
      </Button>
    );
  const target = user ? signedIn : signedOut;
  return (
    <Button asChild variant="gold" size={size}>
      <Link to={target.to} data-testid="primary-cta">
        {target.label}
        <ArrowRight aria-hidden="true" />
      </Link>
    </Button>
  );
}

function Hero() {
  return (
    <section aria-labelledby="hero-heading" className="relative overflow-hidden border-b border-border">
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(212,175,55,0.15),transparent_60%)]" />
      <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:py-24 lg:grid-cols-2">
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

function HowItWorks() {
  return (
    <section aria-labelledby="how-heading" id="how-it-works" className="scroll-mt-28 px-4 py-16 sm:py-20">
      <SectionHeading id="how-heading" title="How It Works">
        Three steps from idea to a card in your hand.
      </SectionHeading>
      <ol className="mx-auto mt-10 grid max-w-6xl gap-6 md:grid-cols-3">
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

function TemplateCard({ t, to }: { t: TemplateListItem; to: string }) {
  return (
    <Link
      to={to}
      data-testid="home-template"
      className="group block h-full rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      aria-label={`${t.name} template`}
    >
      <Card className="flex h-full flex-col overflow-hidden transition-colors group-hover:border-gold/60">
        <TemplateThumbnail template={t} className="rounded-none shadow-none ring-0" />
        <CardContent className="flex flex-1 flex-col gap-1 p-4">
          <p className="text-xs font-medium text-muted-foreground">Template #{t.id}</p>
          <h3 className="font-semibold">{t.name}</h3>
          {t.description ? <p className="text-sm text-muted-foreground">{t.description}</p> : null}
        </CardContent>
      </Card>
    </Link>
  );
}

function TemplatesSection() {
  const { user } = useAuth();
  const query = useTemplates();
  // prerendered with the list loading: hydrate against that even if the list has arrived (use-hydrated.ts)
  const hydrated = useHydrated();
  const q = hydrated ? query : { isLoading: true, isError: false, data: undefined };
  const templates = q.isError ? FALLBACK_TEMPLATES : (q.data ?? []).filter((t) => t.isActive);
  return (
    <section aria-labelledby="templates-heading" className="border-y border-border bg-card/40 px-4 py-16 sm:py-20">
      <SectionHeading id="templates-heading" title="Business Card Templates">
        Start from a professionally designed template and make it yours.
      </SectionHeading>
      <div className="mx-auto mt-10 max-w-6xl">
        {q.isError ? (
          <p role="status" className="mb-4 text-center text-sm text-muted-foreground">
            Failed to load templates from database. Showing fallback templates.
          </p>
        ) : null}
        {q.isLoading ? (
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4" aria-label="Loading templates">
            {[0, 1, 2, 3].map((i) => (
              <li key={i}>
                <Card className="overflow-hidden">
                  <Skeleton className="aspect-[7/4] rounded-none" />
                  <div className="space-y-2 p-4">
                    <Skeleton className="h-3 w-20" />
                    <Skeleton className="h-5 w-28" />
                    <Skeleton className="h-4 w-full" />
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        ) : templates.length === 0 ? (
          <p className="text-center text-muted-foreground">No templates found</p>
        ) : (
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {templates.map((t) => (
              <li key={t.id}>
                <TemplateCard t={t} to={user ? `/design?templateId=${t.id}` : '/templates'} />
              </li>
            ))}
          </ul>
        )}
        <div className="mt-10 flex flex-wrap justify-center gap-3">
          <Button asChild variant="outline">
            <Link to="/templates">Browse Templates</Link>
          </Button>
          <Button asChild variant="gold">
            <Link to="/order">Order Cards</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}

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
  if (!base) return <span className="block rounded-md bg-white" style={{ width: size, height: size }} />;
  return <ServerQrImage value={`${base}${path}`} size={size} style={style} alt={alt} />;
}

function CompleteSolution() {
  const base = useOrigin();
  return (
    <section aria-labelledby="solution-heading" className="px-4 py-16 sm:py-20">
      <div className="mx-auto grid max-w-6xl items-center gap-12 lg:grid-cols-2">
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

const QR_POINTS = [
  { icon: Camera, title: 'No app needed', text: 'Current iPhones and Android phones read the code with their built-in camera.' },
  { icon: ShieldCheck, title: 'Built to survive wear', text: 'Error correction keeps the code readable even when part of it is scratched or covered.' },
  { icon: Fingerprint, title: 'Yours for good', text: 'Each card carries a code unique to your profile; its address never changes, so cards never go stale.' },
  { icon: Globe, title: 'Always a fallback', text: 'Your profile also has a short web address anyone can type, should a phone not scan.' },
];

function QrTechnology() {
  return (
    <section aria-labelledby="qr-heading" className="border-y border-border bg-card/40 px-4 py-16 sm:py-20">
      <SectionHeading id="qr-heading" title="QR Technology">
        The code on your card is the bridge between metal and your digital profile.
      </SectionHeading>
      <ul className="mx-auto mt-10 grid max-w-6xl gap-6 sm:grid-cols-2 lg:grid-cols-4">
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

const FEATURES = [
  { icon: Smartphone, title: 'Mobile-Responsive', text: 'Your profile looks right on every phone, tablet and desktop.' },
  { icon: Palette, title: 'Customizable', text: `Your links (up to ${MAX_PROFILE_LINKS}), your photo and your branding, in the layout you choose.` },
  { icon: RefreshCw, title: 'Always Up to Date', text: 'Change your details any time; every card you have handed out shows them, without reprinting.' },
  { icon: BarChart3, title: 'View Tracking', text: 'See how many people viewed your profile.' },
];

function Features() {
  return (
    <section aria-labelledby="features-heading" id="features" className="scroll-mt-28 px-4 py-16 sm:py-20">
      <SectionHeading id="features-heading" title="Features">
        Everything a modern business card should do.
      </SectionHeading>
      <IconCardList items={FEATURES} className="mx-auto mt-10 max-w-6xl gap-6" />
    </section>
  );
}

export default function HomePage() {
  usePageTitle('', `${BUSINESS.tagline}: metal business cards made in New York, each with a QR code that opens your digital profile.`);
  return (
    <>
      <Hero />
      <HowItWorks />
      <TemplatesSection />
      <CompleteSolution />
      <QrTechnology />
      <Features />
    </>
  );
}
