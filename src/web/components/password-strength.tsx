import { useEffect, useState } from 'react';
import type { Strength } from './password-estimator';

const LABELS = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'] as const;
const COLORS = ['bg-red-600', 'bg-orange-500', 'bg-yellow-500', 'bg-green-500', 'bg-green-600'] as const;

type Estimate = (password: string, userInputs: string[]) => Strength;
let loading: Promise<Estimate> | null = null;
/** The estimator is its own chunk, fetched the first time someone types a password. */
function loadEstimator(): Promise<Estimate> {
  loading ??= import('./password-estimator').then((m) => m.estimate);
  return loading;
}

/**
 * A strength hint under a new-password field (sign-up, change and reset; issue 19). Advice only:
 * the server decides (minimum length, common passwords, e-mail or username).
 */
export function PasswordStrength({ password, userInputs = [], id }: { password: string; userInputs?: string[]; id?: string }) {
  const [strength, setStrength] = useState<Strength | null>(null);
  const inputsKey = userInputs.join('\u0000');
  useEffect(() => {
    if (!password) {
      setStrength(null);
      return;
    }
    let alive = true;
    const timer = setTimeout(() => {
      loadEstimator()
        .then((estimate) => {
          if (alive) setStrength(estimate(password, inputsKey ? inputsKey.split('\u0000') : []));
        })
        .catch(() => undefined);
    }, 120);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [password, inputsKey]);

  if (!password || !strength) return null;
  const hint = strength.warning ?? (strength.score < 3 ? strength.suggestion : null);
  return (
    <div id={id} className="space-y-1" data-testid="password-strength" data-score={strength.score} aria-live="polite">
      <div className="flex gap-1" aria-hidden="true">
        {[0, 1, 2, 3].map((i) => (
          <span key={i} className={`h-1 flex-1 rounded ${i < Math.max(1, strength.score) ? COLORS[strength.score] : 'bg-muted'}`} />
        ))}
      </div>
      <p className="text-xs text-muted-foreground">
        Password strength: <span className="font-medium text-foreground">{LABELS[strength.score]}</span>
        {hint ? <span>. {hint}</span> : null}
      </p>
    </div>
  );
}
