import { Link } from 'react-router';
import { Button } from '#web/components/ui/button';
import { usePageTitle } from '#web/lib/use-page-title';

export default function NotFound() {
  usePageTitle('404 Page Not Found');
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 text-center">
      <p className="text-7xl font-black text-amber-700 dark:text-gold" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-3xl font-bold">404 Page Not Found</h1>
      <p className="mt-3 text-muted-foreground">
        The page you're looking for could not be found. It might have been removed, renamed, or doesn't exist.
      </p>
      <Button asChild className="mt-8" variant="gold">
        <Link to="/">Return to Home</Link>
      </Button>
    </section>
  );
}
