import { useState, type FormEvent } from 'react';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES, WEBHOOK_MESSAGES, type WebhookDelivery, type WebhookEndpoint, type WebhookEventType } from '#shared/schemas/webhooks';
import { errorMessage, fieldErrors } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { FormField, Input, Select } from '#web/components/ui/input';
import { useAuth } from '#web/lib/session/use-auth';
import { PasswordInput } from '#web/components/password-input';
import { OWNER_PROOF_MESSAGES } from '#shared/schemas/auth';
import { useCreateWebhook, useDeleteWebhook, useDeliveries, useMyTeam, useRedeliver, useRollSecret, useSendTest, useUpdateWebhook, useWebhooks } from '#web/features/webhooks/api';

const failed = (title: string) => (err: unknown) => toast({ title, description: errorMessage(err), variant: 'destructive' });
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

function EventBoxes({ value, onChange }: { value: WebhookEventType[]; onChange: (v: WebhookEventType[]) => void }) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Events</legend>
      {WEBHOOK_EVENT_TYPES.map((type) => (
        // the label holds its checkbox: no id or `for` needed (an event name's dot is no id character)
        <label key={type} className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 shrink-0"
            checked={value.includes(type)}
            onChange={(e) => onChange(e.target.checked ? [...value, type] : value.filter((v) => v !== type))}
          />
          <span className="min-w-0">
            <code className="break-all">{type}</code> <span className="text-muted-foreground">{WEBHOOK_EVENT_LABELS[type]}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** The secret, shown once after the endpoint is made. */
function SecretNotice({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div role="status" className="space-y-3 rounded-md border border-gold/60 bg-muted/40 p-3 text-sm" data-testid="webhook-secret">
      <p className="font-medium">Signing secret: copy it now, it is shown only this once.</p>
      <code className="block break-all rounded bg-background p-2 font-mono text-xs" data-testid="webhook-secret-value">
        {secret}
      </code>
      <p className="text-muted-foreground">Check each delivery's webhook-signature header with it (Standard Webhooks, HMAC-SHA256).</p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={() => navigator.clipboard.writeText(secret).then(() => toast({ title: 'Secret copied' }), failed('Could not copy'))}>
          Copy secret
        </Button>
        <Button size="sm" variant="gold" onClick={onDone}>
          I have saved it
        </Button>
      </div>
    </div>
  );
}

function AddEndpointForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const create = useCreateWebhook();
  const { data: mine } = useMyTeam();
  const runsTeam = mine?.team && (mine.role === 'owner' || mine.role === 'admin') ? mine.team : null;
  const [forTeam, setForTeam] = useState(false);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['lead.created']);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { user } = useAuth();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!events.length) return setErrors({ events: WEBHOOK_MESSAGES.events });
    try {
      const res = await create.mutateAsync({ url: url.trim(), events, description: description.trim() || undefined, teamId: runsTeam && forTeam ? runsTeam.id : undefined, password });
      setErrors({});
      setUrl('');
      setDescription('');
      setPassword('');
      onCreated(res.secret);
      toast({ title: 'Endpoint added' });
    } catch (err) {
      setErrors(fieldErrors(err));
      failed('Endpoint not added')(err);
    }
  }

  // an endpoint receives the account's data: only a proven address may add one (issue 33)
  if (user && !user.emailVerified) {
    return (
      <p role="note" className="rounded-md border border-border bg-muted/40 p-3 text-sm" data-testid="webhook-verify-first">
        {OWNER_PROOF_MESSAGES.verifyFirst}
      </p>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Add webhook endpoint">
      <FormField id="wh-url" label="Endpoint URL" required error={errors.url} hint="https:// address that accepts POST requests">
        <Input id="wh-url" type="url" inputMode="url" placeholder="https://example.com/hooks/metal-cards" value={url} onChange={(e) => setUrl(e.target.value)} aria-invalid={!!errors.url} />
      </FormField>
      <FormField id="wh-description" label="Description" error={errors.description}>
        <Input id="wh-description" value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
      </FormField>
      {runsTeam ? (
        <FormField id="wh-owner" label="Events of">
          <Select id="wh-owner" value={forTeam ? 'team' : 'me'} onChange={(e) => setForTeam(e.target.value === 'team')}>
            <option value="me">My account</option>
            <option value="team">The team {runsTeam.name}</option>
          </Select>
        </FormField>
      ) : null}
      <EventBoxes value={events} onChange={setEvents} />
      {errors.events ? <p className="text-sm text-destructive">{errors.events}</p> : null}
      <FormField
        id="wh-password"
        label="Your password, to confirm this endpoint"
        required
        error={errors.password}
        hint="An endpoint receives your account's data, so we ask for your password to make sure it is you. We e-mail you about every new endpoint."
      >
        <PasswordInput id="wh-password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} aria-invalid={!!errors.password} />
      </FormField>
      <Button type="submit" variant="gold" disabled={create.isPending}>
        {create.isPending ? 'Adding...' : 'Add endpoint'}
      </Button>
    </form>
  );
}

function statusBadge(status: WebhookDelivery['status']) {
  const variant = status === 'delivered' ? 'green' : status === 'failed' ? 'red' : 'yellow';
  const label = status === 'delivered' ? 'Delivered' : status === 'failed' ? 'Failed' : 'Pending';
  return <Badge variant={variant}>{label}</Badge>;
}

function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { data, isLoading } = useDeliveries(endpoint.id);
  const redeliver = useRedeliver();
  if (isLoading) return <p className="text-sm text-muted-foreground">Loading deliveries...</p>;
  const list = data?.deliveries ?? [];
  if (!list.length) return <p className="text-sm text-muted-foreground">No deliveries yet.</p>;
  return (
    <ul className="space-y-2" aria-label="Delivery log" data-testid="delivery-log">
      {list.map((d) => (
        <li key={d.id} className="space-y-1 rounded-md border border-border p-2 text-sm" data-testid="delivery">
          <div className="flex flex-wrap items-center gap-2">
            {statusBadge(d.status)}
            <code className="break-all">{d.type}</code>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-xs text-muted-foreground">
            <dt>Time</dt>
            <dd>{when(d.lastAttemptAt ?? d.createdAt)}</dd>
            <dt>Answer</dt>
            <dd data-testid="delivery-code">{d.responseStatus ?? (d.error ? 'no answer' : '—')}</dd>
            <dt>Duration</dt>
            <dd>{d.durationMs === null ? '—' : `${d.durationMs} ms`}</dd>
            <dt>Attempts</dt>
            <dd>{d.attempts}</dd>
            {d.nextAttemptAt ? (
              <>
                <dt>Next attempt</dt>
                <dd>{when(d.nextAttemptAt)}</dd>
              </>
            ) : null}
            {d.error ? (
              <>
                <dt>Error</dt>
                <dd className="break-all">{d.error}</dd>
              </>
            ) : null}
          </dl>
          {d.status !== 'pending' && endpoint.enabled ? (
            <Button size="sm" variant="outline" disabled={redeliver.isPending} onClick={() => redeliver.mutateAsync({ id: endpoint.id, deliveryId: d.id }).then(() => toast({ title: 'Delivery queued again' }), failed('Not redelivered'))}>
              Redeliver
            </Button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function EndpointItem({ endpoint, onSecret }: { endpoint: WebhookEndpoint; onSecret: (secret: string) => void }) {
  const update = useUpdateWebhook();
  const roll = useRollSecret();
  const remove = useDeleteWebhook();
  const test = useSendTest();
  const [editing, setEditing] = useState(false);
  const [events, setEvents] = useState<WebhookEventType[]>(endpoint.events as WebhookEventType[]);
  const [showLog, setShowLog] = useState(false);
  // turned off with the account's access (issue 33): the owner re-enables what they recognise
  const accessEnded = endpoint.disabledReason === WEBHOOK_MESSAGES.disabledByReset || endpoint.disabledReason === WEBHOOK_MESSAGES.disabledByChange;

  const save = () =>
    update.mutateAsync({ id: endpoint.id, body: { events } }).then(() => {
      setEditing(false);
      toast({ title: 'Events saved' });
    }, failed('Events not saved'));

  return (
    <li className="space-y-3 rounded-md border border-border p-3" data-testid="webhook-endpoint">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={endpoint.enabled ? 'green' : 'red'}>{endpoint.enabled ? 'Enabled' : 'Disabled'}</Badge>
        {endpoint.teamId ? <Badge variant="blue">Team</Badge> : null}
        <span className="min-w-0 break-all font-mono text-sm">{endpoint.url}</span>
      </div>
      {endpoint.description ? <p className="text-sm">{endpoint.description}</p> : null}
      {!endpoint.enabled && endpoint.disabledReason ? (
        <p className="text-sm text-destructive" data-testid="webhook-disabled-reason">
          {endpoint.disabledReason}
          {accessEnded ? '. Enable it again only if you recognise this address.' : null}
        </p>
      ) : null}
      {editing ? (
        <div className="space-y-3">
          <EventBoxes value={events} onChange={setEvents} />
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="gold" disabled={update.isPending || !events.length} onClick={save}>
              Save events
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <p className="break-words text-sm text-muted-foreground">{endpoint.events.join(', ')}</p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" disabled={!endpoint.enabled || test.isPending} onClick={() => test.mutateAsync(endpoint.id).then(() => (setShowLog(true), toast({ title: 'Test event sent' })), failed('Test not sent'))}>
          Send test
        </Button>
        {!editing ? (
          <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
            Edit events
          </Button>
        ) : null}
        <Button size="sm" variant="outline" onClick={() => update.mutateAsync({ id: endpoint.id, body: { enabled: !endpoint.enabled } }).catch(failed('Not changed'))}>
          {endpoint.enabled ? 'Disable' : accessEnded ? 'Re-enable' : 'Enable'}
        </Button>
        <Button size="sm" variant="outline" aria-expanded={showLog} onClick={() => setShowLog((v) => !v)}>
          {showLog ? 'Hide deliveries' : 'Deliveries'}
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={roll.isPending}
          onClick={() => window.confirm('Make a new signing secret? The current one stops working at once.') && roll.mutateAsync(endpoint.id).then((r) => onSecret(r.secret), failed('Secret not changed'))}
        >
          Roll secret
        </Button>
        <Button
          size="sm"
          variant="destructive"
          onClick={() => window.confirm(`Delete the endpoint ${endpoint.url}? Its delivery log goes with it.`) && remove.mutateAsync(endpoint.id).then(() => toast({ title: 'Endpoint deleted' }), failed('Not deleted'))}
        >
          Delete
        </Button>
      </div>
      {showLog ? <DeliveryLog endpoint={endpoint} /> : null}
    </li>
  );
}

/** Webhooks of the signed-in user: shown in the account page's Developer section (issue 23). */
export function WebhooksSection() {
  const { data, isLoading } = useWebhooks();
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Card data-testid="webhooks-section">
      <CardHeader>
        <CardTitle>Webhooks</CardTitle>
        <CardDescription>
          We POST a signed JSON message to your endpoint when something happens: a lead, an order, a card review or a profile change. Failed deliveries are retried for 24 hours.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {secret ? <SecretNotice secret={secret} onDone={() => setSecret(null)} /> : null}
        <AddEndpointForm onCreated={setSecret} />
        {isLoading ? (
          <p className="text-sm text-muted-foreground">Loading endpoints...</p>
        ) : data?.endpoints.length ? (
          <ul className="space-y-3" aria-label="Webhook endpoints">
            {data.endpoints.map((e) => (
              <EndpointItem key={e.id} endpoint={e} onSecret={setSecret} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No endpoints yet.</p>
        )}
      </CardContent>
    </Card>
  );
}
