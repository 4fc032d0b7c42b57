import { lazy, useEffect, useRef, useState, type FormEvent } from 'react';
import { Suspense } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { Menu, Moon, Sun, Monitor, LogOut } from 'lucide-react';
import { BUSINESS } from '#shared/catalogue';
import { useAuth, useLogout, useSignOutLanded } from '#web/lib/session/use-auth';
import { VerifyEmailGate } from '#web/features/auth/verify-email-gate';
import { Button } from '#web/components/ui/button';
import { Input, Label } from '#web/components/ui/input';
import { Tooltip } from '#web/components/ui/tooltip';
import { PageSpinner } from '#web/components/ui/spinner';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { cn } from '#web/lib/utils';
import { useYear } from '#web/lib/use-year';
import { useTheme, type Theme } from './theme';
import { ColorBlindnessFilters } from './color-filters';
import { postSubscribe } from '#shared/contracts/site';
import { callEndpoint } from '#web/lib/endpoint';

const MAIN_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/templates', label: 'Templates' },
  { to: '/order', label: 'Order Cards' },
  { to: '/ai-assistant', label: 'AI Assistant' },
  { to: '/svg-templates', label: 'SVG Templates' },
  { to: '/help', label: 'Help' },
  { to: '/faq', label: 'FAQ' },
  { to: '/about', label: 'About' },
  { to: '/reviews', label: 'Reviews' },
];
const SIGNED_IN_LINKS = [
  { to: '/profile', label: 'Profile' },
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/orders', label: 'My Orders' },
  { to: '/team', label: 'Team' },
];

function useNavLinks() {
  const { user, isAdmin } = useAuth();
  if (!user) return MAIN_LINKS;
  return isAdmin ? [...MAIN_LINKS, ...SIGNED_IN_LINKS, { to: '/admin', label: 'Admin' }] : [...MAIN_LINKS, ...SIGNED_IN_LINKS];
}

const THEMES: Array<{ value: Theme; label: string; Icon: typeof Sun }> = [
  { value: 'light', label: 'Light theme', Icon: Sun },
  { value: 'dark', label: 'Dark theme', Icon: Moon },
  { value: 'system', label: 'System theme', Icon: Monitor },
];

function ThemeSwitcher({ tooltipAlign }: { tooltipAlign: 'start' | 'end' }) {
  const { theme, setTheme } = useTheme();
  return (
    <div role="radiogroup" aria-label="Theme" className="flex items-center rounded-md border border-border p-0.5">
      {THEMES.map(({ value, label, Icon }) => (
        <Tooltip key={value} content={label} align={tooltipAlign}>
          <button
            type="button"
            role="radio"
            aria-checked={theme === value}
            aria-label={label}
            onClick={() => setTheme(value)}
            className={cn('rounded p-1.5 cursor-pointer text-muted-foreground hover:text-foreground', theme === value && 'bg-accent text-foreground')}
          >
            <Icon className="size-4" />
          </button>
        </Tooltip>
      ))}
    </div>
  );
}

function AuthArea({ compact = false }: { compact?: boolean }) {
  const { user, isLoading } = useAuth();
  const logout = useLogout();
  // while loading, an invisible "Sign In" holds the place (signed out is the common case)
  if (isLoading)
    return (
      <Button asChild size="sm" variant="gold" className="invisible">
        <span aria-hidden="true">Sign In</span>
      </Button>
    );
  if (!user)
    return (
      <Button asChild size="sm" variant="gold">
        <Link to="/login">Sign In</Link>
      </Button>
    );
  return (
    <div className={cn('flex items-center gap-3', compact && 'flex-col items-start')}>
      <span className="max-w-[16rem] truncate text-sm text-muted-foreground" data-testid="user-email" title={user.email}>
        {user.email}
      </span>
      <Button size="sm" variant="outline" onClick={() => logout.mutate()} disabled={logout.isPending}>
        <LogOut aria-hidden="true" />
        Sign Out
      </Button>
    </div>
  );
}

/** The phone header's one action (issue 37): Sign In for a visitor, Order for a signed-in customer. */
function PhoneAction() {
  const { user, isLoading } = useAuth();
  const signIn = !user;
  return (
    <Button asChild size="sm" variant="gold" className={cn('h-8 px-3 md:hidden', isLoading && 'invisible')}>
      {isLoading ? <span aria-hidden="true">Sign In</span> : <Link to={signIn ? '/login' : '/order'}>{signIn ? 'Sign In' : 'Order'}</Link>}
    </Button>
  );
}

const loadMobileMenu = () => import('./mobile-menu');
const MobileMenu = lazy(loadMobileMenu);

function Header() {
  const links = useNavLinks();
  const [open, setOpen] = useState(false);
  // the menu's chunk is mounted once asked for (then kept, so closing can return focus)
  const [menuLoaded, setMenuLoaded] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // on a phone, fetch the menu's chunk while idle so the first tap opens it at once
    if (window.matchMedia('(min-width: 768px)').matches) return;
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 1500));
    idle(() => void loadMobileMenu());
  }, []);
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    cn(
      'rounded-md px-2.5 py-1.5 text-sm font-medium transition-colors hover:bg-accent hover:text-foreground',
      isActive ? 'bg-accent text-foreground' : 'text-muted-foreground',
    );
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/95 backdrop-blur">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3">
        <div className="flex items-center gap-2">
          <Button
            ref={menuButton}
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label="Open menu"
            aria-haspopup="dialog"
            aria-expanded={open}
            onClick={() => {
              setMenuLoaded(true);
              setOpen(true);
            }}
          >
            <Menu className="size-5" />
          </Button>
          {menuLoaded ? (
            <Suspense fallback={null}>
              <MobileMenu open={open} onOpenChange={setOpen} returnFocusTo={() => menuButton.current}>
                <Link to="/" onClick={() => setOpen(false)} className="mb-4 self-start text-lg font-bold tracking-wide">
                  {BUSINESS.name}
                </Link>
                <nav aria-label="Mobile" className="flex flex-col gap-1">
                  {links.map((l) => (
                    <NavLink key={l.to} to={l.to} end={l.to === '/'} className={linkClass} onClick={() => setOpen(false)}>
                      {l.label}
                    </NavLink>
                  ))}
                </nav>
                <div className="mt-auto space-y-4 border-t border-border pt-4" onClick={(e) => (e.target as HTMLElement).closest('a,button[type=button]:not([role=radio])') && setOpen(false)}>
                  <AuthArea compact />
                  <ThemeSwitcher tooltipAlign="start" />
                </div>
              </MobileMenu>
            </Suspense>
          ) : null}
          <Link to="/" className="text-lg font-bold tracking-wide">
            <span className="text-amber-700 dark:text-gold">Metal</span> Cards NYC
          </Link>
        </div>
        <PhoneAction />
        <div className="hidden items-center gap-3 md:flex">
          <AuthArea />
          <ThemeSwitcher tooltipAlign="end" />
        </div>
      </div>
      <nav aria-label="Main" className="mx-auto hidden max-w-7xl flex-wrap gap-1 px-3 pb-2 md:flex">
        {links.map((l) => (
          <NavLink key={l.to} to={l.to} end={l.to === '/'} className={linkClass}>
            {l.label}
          </NavLink>
        ))}
      </nav>
    </header>
  );
}

function SubscribeForm() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      await callEndpoint(postSubscribe, { body: { email } });
      toast({ title: 'Thanks for subscribing!', description: "We'll keep you posted on new card finishes and features." });
      setEmail('');
    } catch (err) {
      toast({ title: 'Subscription failed', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={onSubmit} className="space-y-2" aria-label="Subscribe">
      <Label htmlFor="subscribe-email">Email address</Label>
      <div className="flex flex-col gap-2 sm:flex-row lg:flex-col">
        <Input id="subscribe-email" type="email" required placeholder="Enter your email" value={email} onChange={(e) => setEmail(e.target.value)} />
        <Button type="submit" variant="gold" disabled={busy}>
          Subscribe
        </Button>
      </div>
    </form>
  );
}

function Footer() {
  const year = useYear();
  const link = 'text-muted-foreground hover:text-foreground';
  return (
    <footer className="mt-16 border-t border-border">
      <div className="mx-auto grid grid-cols-1 max-w-7xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-5">
        <div className="lg:col-span-1">
          <p className="text-lg font-bold">
            <span className="text-amber-700 dark:text-gold">Metal</span> Cards NYC
          </p>
          <p className="mt-2 text-sm text-muted-foreground">{BUSINESS.footerTagline}</p>
        </div>
        <div>
          <h2 className="mb-3 text-sm font-semibold">Product</h2>
          <ul className="space-y-2 text-sm">
            <li><Link className={link} to="/templates">Templates</Link></li>
            <li><Link className={link} to="/#features">Features</Link></li>
            <li><Link className={link} to="/faq#card-types">Pricing</Link></li>
            <li><Link className={link} to="/help">Resources</Link></li>
          </ul>
        </div>
        <div>
          <h2 className="mb-3 text-sm font-semibold">Support</h2>
          <ul className="space-y-2 text-sm">
            <li><Link className={link} to="/help">Help Center</Link></li>
            <li><a className={link} href={`mailto:${BUSINESS.email}`}>Contact Us</a></li>
            <li><Link className={link} to="/faq">FAQs</Link></li>
            <li><Link className={link} to="/privacy">Privacy Policy</Link></li>
            <li><Link className={link} to="/terms">Terms of Service</Link></li>
          </ul>
        </div>
        <div>
          <h2 className="mb-3 text-sm font-semibold">Company</h2>
          <ul className="space-y-2 text-sm">
            <li><Link className={link} to="/about">About</Link></li>
            <li><Link className={link} to="/order">Order Cards</Link></li>
            <li><Link className={link} to="/reviews">Reviews</Link></li>
          </ul>
        </div>
        <div>
          <SubscribeForm />
        </div>
      </div>
      <div className="border-t border-border py-4 text-center text-xs text-muted-foreground">
        © {year} {BUSINESS.name}. All rights reserved.
      </div>
    </footer>
  );
}

/** Smooth scroll to the top on every route change; to the anchor when the URL has one. */
function ScrollManager() {
  const { pathname, hash } = useLocation();
  useSignOutLanded(pathname);
  useEffect(() => {
    if (hash) {
      const id = decodeURIComponent(hash.slice(1));
      let tries = 0;
      const tryScroll = () => {
        const el = document.getElementById(id);
        if (el) el.scrollIntoView({ behavior: 'smooth', block: 'start' });
        else if (tries++ < 20) setTimeout(tryScroll, 100);
      };
      tryScroll();
      return;
    }
    window.scrollTo({ top: 0, behavior: 'smooth' });
  }, [pathname, hash]);
  return null;
}

export function Layout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-card focus:px-3 focus:py-2">
        Skip to content
      </a>
      <ScrollManager />
      <Header />
      <VerifyEmailGate />
      <main id="main" className="flex-1">
        <Suspense fallback={<div className="min-h-screen"><PageSpinner /></div>}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <ColorBlindnessFilters />
    </div>
  );
}
