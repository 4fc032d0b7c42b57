import type { ReactNode } from 'react';
import type { LegalDocument as LegalDocumentName } from '#shared/schemas/settings';
import { Skeleton } from '#web/components/ui/skeleton';
import { useLegalText } from '#web/features/settings/api';

type Block = { kind: 'heading' | 'paragraph'; lines: string[] } | { kind: 'list'; items: string[] };

/**
 * The legal texts' format (issue 37, decision 37-01): a blank line between blocks; a block whose
 * line starts with "## " is a heading, one whose lines start with "- " a list, any other a
 * paragraph (its line breaks kept). Rendered as text: staff's words never become HTML.
 */
export function legalBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  for (const raw of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = raw.split('\n').map((l) => l.trim()).filter(Boolean);
    if (!lines.length) continue;
    if (lines.length === 1 && lines[0]!.startsWith('## ')) blocks.push({ kind: 'heading', lines: [lines[0]!.slice(3).trim()] });
    else if (lines.every((l) => l.startsWith('- '))) blocks.push({ kind: 'list', items: lines.map((l) => l.slice(2).trim()) });
    else {
      // a heading line directly above its paragraph or list
      if (lines[0]!.startsWith('## ')) blocks.push({ kind: 'heading', lines: [lines.shift()!.slice(3).trim()] });
      if (lines.every((l) => l.startsWith('- '))) blocks.push({ kind: 'list', items: lines.map((l) => l.slice(2).trim()) });
      else blocks.push({ kind: 'paragraph', lines });
    }
  }
  return blocks;
}

function withBreaks(lines: string[]): ReactNode[] {
  return lines.flatMap((l, i) => (i ? [<br key={`b${i}`} />, l] : [l]));
}

/** The privacy policy or the terms of service as staff set them (Admin > Settings). */
export function LegalDocument({ document, title }: { document: LegalDocumentName; title: string }) {
  const legal = useLegalText(document);
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:py-16" aria-labelledby="legal-heading" data-testid={`legal-${document}`}>
      <h1 id="legal-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
        {title}
      </h1>
      {legal.isLoading ? (
        <div className="mt-8 space-y-3">
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-5 w-5/6" />
          <Skeleton className="h-5 w-2/3" />
        </div>
      ) : legal.isError || !legal.data ? (
        <p role="alert" className="mt-8 text-muted-foreground">
          The {title.toLowerCase()} could not be loaded right now. Please reload the page, or write to us for a copy.
        </p>
      ) : (
        <div className="mt-8 space-y-4 leading-relaxed text-muted-foreground [overflow-wrap:anywhere]">
          {legalBlocks(legal.data.text).map((b, i) =>
            b.kind === 'heading' ? (
              <h2 key={i} className="pt-4 text-xl font-semibold text-foreground">
                {b.lines[0]}
              </h2>
            ) : b.kind === 'list' ? (
              <ul key={i} className="list-disc space-y-2 pl-6">
                {b.items.map((item, j) => (
                  <li key={j}>{item}</li>
                ))}
              </ul>
            ) : (
              <p key={i}>{withBreaks(b.lines)}</p>
            ),
          )}
        </div>
      )}
    </article>
  );
}
