// ESLint rule: no regular expression over upload text on the request thread (issue 32,
// docs/architecture.md "Worker pool"). A backtracking regular expression over a client's file
// on the thread that answers requests froze the server for minutes; every scan of attacker text
// runs in a task (src/server/sandbox-worker.ts) or is a linear look of our own (indexOf, a
// tokenizer).
//
// The rule applies to the files that handle raw upload bytes or text on the request thread
// (UPLOAD_MAIN_THREAD_FILES, wired in eslint.config.js). There it reports a regular expression
// (a literal, `new RegExp(...)` / `RegExp(...)`, or a name bound to one in the file) used with
// .test/.exec (as the regex) or .match/.matchAll/.replace/.replaceAll/.search/.split (as the
// pattern). A look that is bounded (the first 4 KB of a file, a request header, one of our own
// error messages) is allowed with a comment on that line or the line just above:
//   // bounded: <why>
// the reason is required: a bare "bounded:" does not count.

/** Main-thread files that touch upload bytes or text (globs, relative to the repository). */
export const UPLOAD_MAIN_THREAD_FILES = [
  'src/server/http/multipart*.ts',
  'src/server/features/uploads/*.ts',
  'src/server/infra/images/*.ts',
  'src/server/infra/file-ownership.ts',
  'src/server/features/orders/artwork.service.ts',
  'src/server/features/orders/orders.routes.ts',
  'src/server/features/templates/templates.routes.ts',
  'src/server/features/templates/template-versions.service.ts',
  'src/server/features/ai/ai.routes.ts',
  'src/server/features/ai/image-intake.ts',
  'src/server/features/team/team.routes.ts',
  'src/server/features/engagement/leads.routes.ts',
  // SAML responses posted by browsers and IdP metadata (issue 39, decision 39-04)
  'src/server/features/sso/saml*.ts',
];

/**
 * Not the request thread: tests, task files (run in the sandbox or a worker), and the SVG
 * sanitizer, whose functions run only inside the sanitize task (infra/images/images.task.ts).
 */
export const UPLOAD_MAIN_THREAD_IGNORES = ['**/*.test.ts', '**/*.task.ts', 'src/server/infra/svg/svg-sanitize.ts'];

const AS_REGEX = new Set(['test', 'exec']);
const AS_PATTERN = new Set(['match', 'matchAll', 'replace', 'replaceAll', 'search', 'split']);
const BOUNDED = /^\s*bounded:\s*\S/;

const isRegexNode = (n) =>
  !!n &&
  ((n.type === 'Literal' && !!n.regex) ||
    ((n.type === 'NewExpression' || n.type === 'CallExpression') && n.callee.type === 'Identifier' && n.callee.name === 'RegExp'));

const noUploadRegex = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      regex:
        'Regular expression over upload text on the request thread: scan it linearly (indexOf, a tokenizer) or in a task; a look bounded to a few KB may say so with "// bounded: <why>" on this line.',
    },
  },
  create(context) {
    const source = context.sourceCode ?? context.getSourceCode();
    const regexNames = new Set();
    const uses = [];

    // the line of the method name (a chain of calls spans lines; each call is judged on its own)
    const bounded = (node) => {
      const line = node.callee.property.loc.start.line;
      return source.getAllComments().some((c) => (c.loc.end.line === line || c.loc.end.line === line - 1) && BOUNDED.test(c.value));
    };
    const isRegex = (n) => isRegexNode(n) || (n?.type === 'Identifier' && regexNames.has(n.name));

    return {
      VariableDeclarator(node) {
        if (node.id.type === 'Identifier' && isRegexNode(node.init)) regexNames.add(node.id.name);
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return;
        const method = callee.property.name;
        if (AS_REGEX.has(method)) uses.push({ node, regex: callee.object });
        else if (AS_PATTERN.has(method) && node.arguments.length) uses.push({ node, regex: node.arguments[0] });
      },
      // names are collected over the whole file first (a const may be declared below its use)
      'Program:exit'() {
        for (const u of uses) if (isRegex(u.regex) && !bounded(u.node)) context.report({ node: u.node.callee.property, messageId: 'regex' });
      },
    };
  },
};

export default { rules: { 'no-upload-regex': noUploadRegex } };
