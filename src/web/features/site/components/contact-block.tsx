import { Link } from 'react-router';
import { Mail, Phone } from 'lucide-react';
import { BUSINESS } from '#shared/catalogue';
import { Button } from '#web/components/ui/button';
import { Card, CardContent } from '#web/components/ui/card';

/** "Still have questions?" block with the business e-mail and phone (FAQ, About). */
export function ContactBlock({ title = 'Still have questions?', text, showHelp = true }: { title?: string; text?: string; showHelp?: boolean }) {
  return (
    <Card className="mt-12">
      <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
        <h2 className="text-2xl font-semibold">{title}</h2>
        <p className="max-w-xl text-muted-foreground">
          {text ?? `Our New York team is happy to help. We reply ${BUSINESS.claims.supportReply}.`}
        </p>
        <div className="flex flex-wrap justify-center gap-3">
          <Button asChild variant="gold">
            <a href={`mailto:${BUSINESS.email}`}>
              <Mail aria-hidden="true" />
              {BUSINESS.email}
            </a>
          </Button>
          <Button asChild variant="outline">
            <a href={BUSINESS.phoneHref}>
              <Phone aria-hidden="true" />
              {BUSINESS.phone}
            </a>
          </Button>
          {showHelp ? (
            <Button asChild variant="ghost">
              <Link to="/help">Visit the Help Center</Link>
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}

/** The page heading block used by the informational pages. */
export function PageIntro({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <header className="mx-auto max-w-2xl text-center">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      <p className="mt-3 text-muted-foreground">{children}</p>
    </header>
  );
}
