// Component tests of the web (decision 34-06): render a component with the app's providers (a fresh
// query client, a memory router, the toaster) and answer its requests at the fetch boundary, by
// endpoint contract, with the contract's answer shapes. Used by `src/web/**/*.test.tsx` only.
import type { ReactElement, ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, type RenderResult } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel, type UserEvent } from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { Toaster } from 'sonner';
import { vi } from 'vitest';
import type { Endpoint, EndpointResponse } from '#shared/contracts/endpoint';
import type { ErrorResponse } from '#shared/schemas/common';
import { getQueryFn } from '#web/lib/query-client';

/** One request the component sent: method, URL (path + query), parsed JSON body and headers. */
export interface SentRequest {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

/** What the mocked server answers: a status (200 unless said) and a JSON body (none for 204). */
export interface MockReply {
  status?: number;
  body?: unknown;
}

type Handler = (req: SentRequest, params: Record<string, string>) => MockReply | Promise<MockReply>;
interface Route {
  endpoint: Endpoint;
  re: RegExp;
  names: string[];
  handler: Handler;
}

/** `/api/orders/:id/status` as a pattern over the request path, with the parameter names. */
function pathPattern(path: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => {
      if (part === '*') {
        names.push('*');
        return '(.*)';
      }
      if (part.startsWith(':')) {
        names.push(part.slice(1));
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return { re: new RegExp(`^${source}$`), names };
}

function headersOf(init?: RequestInit): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init?.headers).forEach((v, k) => (out[k] = v));
  return out;
}

/**
 * Replaces `globalThis.fetch` (the web client's one way out, `#web/lib/api`) for the current test:
 * each endpoint answers what the test says, a request no test answered gets a 404 and is listed
 * in `unanswered`. The setup file gives fetch back after each test.
 */
export function mockApi() {
  const routes: Route[] = [];
  const requests: SentRequest[] = [];
  const unanswered: SentRequest[] = [];

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const u = new URL(raw, 'http://localhost');
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const req: SentRequest = {
      method: (init?.method ?? 'GET').toUpperCase(),
      url: u.pathname + u.search,
      path: u.pathname,
      query: u.searchParams,
      body: text === undefined ? undefined : JSON.parse(text),
      headers: headersOf(init),
    };
    requests.push(req);
    // the last answer given for an endpoint wins (a test can change its mind half-way)
    for (let i = routes.length - 1; i >= 0; i--) {
      const r = routes[i]!;
      if (r.endpoint.method !== req.method) continue;
      const m = r.re.exec(req.path);
      if (!m) continue;
      const params = Object.fromEntries(r.names.map((n, j) => [n, decodeURIComponent(m[j + 1]!)]));
      const reply = await r.handler(req, params);
      const status = reply.status ?? 200;
      const body = status === 204 || reply.body === undefined ? null : JSON.stringify(reply.body);
      return new Response(body, { status, headers: body ? { 'Content-Type': 'application/json' } : {} });
    }
    unanswered.push(req);
    return new Response(JSON.stringify({ message: `No mock for ${req.method} ${req.url}` }), { status: 404, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);

  const api = {
    /** every request sent, in order */
    requests,
    /** requests that no `on`/`ok`/`fail` answered (they got a 404) */
    unanswered,
    /** answers an endpoint with a handler */
    on(endpoint: Endpoint, handler: Handler) {
      routes.push({ endpoint, ...pathPattern(endpoint.path), handler });
      return api;
    },
    /** answers an endpoint with its contract's success shape (status 200 unless said) */
    ok<E extends Endpoint>(endpoint: E, body: EndpointResponse<E> | ((req: SentRequest, params: Record<string, string>) => EndpointResponse<E>), status = 200) {
      return api.on(endpoint, (req, params) => ({ status, body: typeof body === 'function' ? (body as (r: SentRequest, p: Record<string, string>) => unknown)(req, params) : body }));
    },
    /** answers an endpoint with an error (the server's `{ message, errors }` shape) */
    fail(endpoint: Endpoint, status: number, body: Partial<ErrorResponse>) {
      return api.on(endpoint, () => ({ status, body }));
    },
    /**
     * Holds the endpoint's answers until `release` (to see a busy state): the returned promise
     * resolves once a request arrived.
     */
    hold(endpoint: Endpoint) {
      let release!: (reply: MockReply) => void;
      const answer = new Promise<MockReply>((resolve) => (release = resolve));
      let arrived!: () => void;
      const seen = new Promise<void>((resolve) => (arrived = resolve));
      api.on(endpoint, () => {
        arrived();
        return answer;
      });
      return { seen, release: (reply: MockReply = {}) => release(reply) };
    },
    /** the requests sent to one endpoint (any parameters) */
    sent(endpoint: Endpoint): SentRequest[] {
      const { re } = pathPattern(endpoint.path);
      return requests.filter((r) => r.method === endpoint.method && re.test(r.path));
    },
  };
  return api;
}

function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" hidden>
      {location.pathname + location.search}
    </output>
  );
}

/** Where the memory router is now (path + query): to check a navigation. */
export function currentLocation(): string {
  return screen.getByTestId('location').textContent ?? '';
}

export interface RenderOptions {
  /** the address the router starts at (path + query) */
  route?: string;
  /** router state of that first entry (e.g. a reorder's choices) */
  state?: unknown;
  /** query data known before the first render (key, data), e.g. the signed-in user: no request, no late re-render */
  seed?: Array<[readonly unknown[], unknown]>;
}

/** Renders `ui` with a fresh query client (the app's defaults), a memory router and the toaster. */
export function renderWithProviders(ui: ReactElement, { route = '/', state, seed = [] }: RenderOptions = {}): RenderResult & { user: UserEvent; queryClient: QueryClient } {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { queryFn: getQueryFn({ on401: 'throw' }), retry: false, staleTime: Infinity, refetchOnWindowFocus: false, gcTime: Infinity },
      mutations: { retry: false },
    },
  });
  for (const [key, data] of seed) queryClient.setQueryData(key, data);
  const [pathname, search = ''] = route.split('?');
  // no pause between keystrokes (the default 0 ms still waits a macrotask per key), and no
  // pointer-events check before each click (a getComputedStyle walk up the tree; the browser walks
  // check what is really clickable)
  const user = userEvent.setup({ delay: null, pointerEventsCheck: PointerEventsCheckLevel.Never });
  // a wrapper, so `rerender(<X other props />)` keeps the providers (and the component's state)
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[{ pathname, search: search ? `?${search}` : '', state }]}>
        {children}
        <LocationProbe />
      </MemoryRouter>
      <Toaster theme="light" />
    </QueryClientProvider>
  );
  const result = render(ui, { wrapper });
  return { ...result, user, queryClient };
}
