import { Link } from 'react-router';
import { Lock } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Card, CardContent } from '#web/components/ui/card';

/** The spec's signed-out panel: 'Authentication Required' with a Sign In button to /login. */
export function AuthRequired({ note }: { note: string }) {
  return (
    <div className="mx-auto max-w-md px-4 py-20">
      <Card>
        <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
          <Lock aria-hidden="true" className="size-8 text-gold" />
          <h1 className="text-2xl font-bold">Authentication Required</h1>
          <p className="text-sm text-muted-foreground">{note}</p>
          <Button asChild variant="gold">
            <Link to="/login">Sign In</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
