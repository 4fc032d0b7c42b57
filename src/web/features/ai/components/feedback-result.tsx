import { AlertOctagon, AlertTriangle, CheckCircle2, Info } from 'lucide-react';
import type { DesignFeedbackResponse, DesignFinding } from '#shared/schemas/ai';
import { Badge } from '#web/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';
import { CopyButton } from './copy-button';

const SEVERITY: Record<DesignFinding['severity'], { icon: typeof Info; label: string; className: string; badge: 'red' | 'yellow' | 'blue' | 'green' }> = {
  critical: { icon: AlertOctagon, label: 'Fix', className: 'text-red-600', badge: 'red' },
  warning: { icon: AlertTriangle, label: 'Improve', className: 'text-yellow-600', badge: 'yellow' },
  info: { icon: Info, label: 'Note', className: 'text-blue-600', badge: 'blue' },
  good: { icon: CheckCircle2, label: 'Good', className: 'text-green-600', badge: 'green' },
};

/** The score, the answer and each finding with its severity. */
export function FeedbackResult({ data }: { data: DesignFeedbackResponse }) {
  const tone = data.score >= 80 ? 'text-green-600' : data.score >= 50 ? 'text-yellow-600' : 'text-red-600';
  return (
    <Card data-testid="feedback-result">
      <CardHeader>
        <div className="flex items-center justify-between gap-3">
          <CardTitle>Feedback</CardTitle>
          <div className="flex items-center gap-2">
            <CopyButton text={data.feedback} label="Copy feedback" />
            <span className={`text-3xl font-bold tabular-nums ${tone}`} data-testid="feedback-score" aria-label={`Design score ${data.score} out of 100`}>
              {data.score}
              <span className="text-sm font-normal text-muted-foreground">/100</span>
            </span>
          </div>
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-sm leading-relaxed" data-testid="feedback-answer">
          {data.answer}
        </p>
        <ul className="space-y-3" aria-label="Findings">
          {data.findings.map((x) => {
            const s = SEVERITY[x.severity];
            const Icon = s.icon;
            return (
              <li key={x.id} className="flex gap-3 text-sm" data-testid="finding" data-severity={x.severity} data-id={x.id}>
                <Icon aria-hidden="true" className={`mt-0.5 size-4 shrink-0 ${s.className}`} />
                <div>
                  <p className="font-medium">
                    {x.title}{' '}
                    <Badge variant={s.badge} className="ml-1 px-1.5 py-0 text-[10px]">
                      {s.label}
                    </Badge>
                  </p>
                  <p className="text-muted-foreground">{x.detail}</p>
                </div>
              </li>
            );
          })}
        </ul>
        <p className="text-xs text-muted-foreground">{data.engine === 'model' ? 'Answer written by the AI model; figures measured by the built-in design engine.' : 'Measured and written by the built-in design engine.'}</p>
      </CardContent>
    </Card>
  );
}
