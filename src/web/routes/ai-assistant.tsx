import { Link, useSearchParams } from 'react-router';
import { Image, Lightbulb, Lock, MessageSquare, Palette } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Card, CardContent } from '#web/components/ui/card';
import { PageSpinner } from '#web/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs';
import { usePageTitle } from '#web/lib/use-page-title';
import { useAuth } from '#web/lib/session/use-auth';
import { useBundledFontFaces } from '#web/features/ai/components/fonts';
import { SuggestionsTab } from '#web/features/ai/suggestions-tab';
import { FeedbackTab } from '#web/features/ai/feedback-tab';
import { PaletteTab } from '#web/features/ai/palette-tab';
import { ImageEditorTab } from '#web/features/ai/image-editor-tab';

const TABS = [
  { value: 'suggestions', label: 'Design Suggestions', icon: Lightbulb },
  { value: 'feedback', label: 'Design Feedback', icon: MessageSquare },
  { value: 'palette', label: 'Color Palette', icon: Palette },
  { value: 'image', label: 'Image Editor', icon: Image },
] as const;
type TabValue = (typeof TABS)[number]['value'];

function SignInPrompt() {
  return (
    <Card className="mx-auto mt-10 max-w-md">
      <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
        <Lock aria-hidden="true" className="size-8 text-gold" />
        <h2 className="text-xl font-semibold">Sign in to use the assistant</h2>
        <p className="text-sm text-muted-foreground">
          Design suggestions, feedback on your design, colour palettes and background removal are available to signed-in customers.
        </p>
        <div className="flex gap-3">
          <Button asChild variant="gold">
            <Link to="/login">Sign In</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/signup">Create account</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

export default function AiAssistantPage() {
  usePageTitle('AI Design Assistant', 'Design suggestions, feedback, colour palettes and background removal for your premium metal business card.');
  useBundledFontFaces();
  const { user, isLoading } = useAuth();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabValue = TABS.some((t) => t.value === requested) ? (requested as TabValue) : 'suggestions';

  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:py-16">
      <header className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">AI Design Assistant</h1>
        <p className="mt-3 text-muted-foreground">
          Palettes, fonts and layouts for your industry, measured feedback on your design, and clean cut-outs of your logo for a metal card.
        </p>
      </header>

      {isLoading ? (
        <PageSpinner />
      ) : !user ? (
        <SignInPrompt />
      ) : (
        <Tabs
          value={tab}
          onValueChange={(v) =>
            setParams(
              (p) => {
                p.set('tab', v);
                return p;
              },
              { replace: true, preventScrollReset: true },
            )
          }
          className="mt-10"
        >
          <div className="overflow-x-auto pb-1">
            <TabsList className="mx-auto flex w-max">
              {TABS.map(({ value, label, icon: Icon }) => (
                <TabsTrigger key={value} value={value} className="gap-2">
                  <Icon aria-hidden="true" className="size-4" />
                  {label}
                </TabsTrigger>
              ))}
            </TabsList>
          </div>
          {/* every tab stays mounted (hidden when inactive) so switching tabs keeps what was typed */}
          <TabsContent value="suggestions" forceMount className="mt-8 data-[state=inactive]:hidden">
            <SuggestionsTab />
          </TabsContent>
          <TabsContent value="feedback" forceMount className="mt-8 data-[state=inactive]:hidden">
            <FeedbackTab />
          </TabsContent>
          <TabsContent value="palette" forceMount className="mt-8 data-[state=inactive]:hidden">
            <PaletteTab />
          </TabsContent>
          <TabsContent value="image" forceMount className="mt-8 data-[state=inactive]:hidden">
            <ImageEditorTab />
          </TabsContent>
        </Tabs>
      )}
    </div>
  );
}
