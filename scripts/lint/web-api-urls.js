// ESLint rule: no API address written by hand in the web (issue 34, decision 34-04). Every call
// takes its URL, method and answer type from the endpoint's shared contract
// (`src/shared/contracts/<x>.ts`) through the web's client layer (`src/web/lib/endpoint.ts`:
// callEndpoint, endpointQuery, endpointKey, endpointHref, uploadToEndpoint), so a string or
// template literal holding `/api/` is refused in `src/web` outside that layer (comments are fine).

/** The web's client layer: the only web files that may spell an `/api/` address. */
export const WEB_CLIENT_LAYER = ['src/web/lib/api.ts', 'src/web/lib/endpoint.ts'];

const MESSAGE = 'No /api/ address in the web outside its client layer: call the endpoint\'s shared contract (callEndpoint, endpointQuery, endpointHref from #web/lib/endpoint).';

const rule = {
  meta: { type: 'problem', schema: [], messages: { handWritten: MESSAGE } },
  create(context) {
    const report = (node) => context.report({ node, messageId: 'handWritten' });
    return {
      Literal(node) {
        if (typeof node.value === 'string' && node.value.includes('/api/')) report(node);
      },
      TemplateElement(node) {
        if (node.value.raw.includes('/api/')) report(node);
      },
      JSXText(node) {
        if (node.value.includes('/api/')) report(node);
      },
    };
  },
};

export default { rules: { 'no-api-url': rule } };
