import type { ReactNode } from 'react';
import { ExternalLink } from 'lucide-react';
import { BUSINESS } from '#shared/catalogue';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';
import { SystemStatus } from './system-status';

/** `studio`: the shop settings' studio editor (the page hands it in: issue 35); it holds the hours then. */
export function SettingsTab({ studio }: { studio?: ReactNode } = {}) {
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      {studio}
      <Card>
        <CardHeader>
          <CardTitle>Business contact</CardTitle>
        </CardHeader>
        <CardContent className="space-y-1 text-sm">
          <p className="font-medium">{BUSINESS.name}</p>
          <p>{BUSINESS.city}</p>
          <p>
            <a className="underline" href={`mailto:${BUSINESS.email}`}>
              {BUSINESS.email}
            </a>
          </p>
          <p>
            <a className="underline" href={BUSINESS.phoneHref}>
              {BUSINESS.phone}
            </a>
          </p>
        </CardContent>
      </Card>
      <Card hidden={!!studio}>
        <CardHeader>
          <CardTitle>Hours</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            {BUSINESS.hours.map((h) => (
              <div key={h.days} className="contents">
                <dt className="text-muted-foreground">{h.days}</dt>
                <dd>{h.time}</dd>
              </div>
            ))}
          </dl>
        </CardContent>
      </Card>
      <Card className="lg:col-span-2">
        <CardHeader>
          <CardTitle>Quick links</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <a href="/shopify-admin" target="_blank" rel="noopener noreferrer">
              Store setup <ExternalLink aria-hidden="true" />
            </a>
          </Button>
          <Button asChild variant="outline">
            <a href="/dashboard" target="_blank" rel="noopener noreferrer">
              User dashboard <ExternalLink aria-hidden="true" />
            </a>
          </Button>
        </CardContent>
      </Card>
      <Card className="lg:col-span-2">
        <CardHeader>
          <CardTitle>Testing summary</CardTitle>
        </CardHeader>
        <CardContent>
          <SystemStatus />
        </CardContent>
      </Card>
    </div>
  );
}
