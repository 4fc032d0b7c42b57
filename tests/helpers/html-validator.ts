import { HtmlValidate, type ConfigData } from 'html-validate';

/**
 * html-validate (an independent HTML5 validator) with its recommended preset. A rule is turned off
 * only where it checks a style choice, not validity, that markup we cannot change makes; each says why.
 */
const PAGES: ConfigData = {
  extends: ['html-validate:recommended'],
  rules: {
    // `<!doctype html>` in lower case is valid (the doctype is case-insensitive in HTML5); React's
    // prerender, Vite's index.html and our server pages write it so. A style rule, not a validity one.
    'doctype-style': 'off',
    // React's server renderer writes markup in its own (valid) spelling, which we cannot choose:
    // some attribute names in property casing (`encType`, `autoComplete`, `maxLength`: attribute names
    // are case-insensitive), void elements as `<input/>`, boolean and empty attributes as `required=""`
    // and `download=""`, and `style` props as inline styles (a team's brand colours on /p/{id})
    'attr-case': 'off',
    'void-style': 'off',
    'attribute-boolean-style': 'off',
    'attribute-empty-style': 'off',
    'no-inline-style': 'off',
    // a profile page's title is the owner's name, job title and company (their content, any length):
    // a search-result length hint, not validity
    'long-title': 'off',
    // phone numbers must not wrap: the profile page's phone link is `white-space: nowrap` (class
    // pp-tel), the web client's phone links carry Tailwind's `whitespace-nowrap` (the same CSS)
    'tel-non-breaking': ['error', { ignoreClasses: ['pp-tel', 'whitespace-nowrap'] }],
    // React's useId writes ids such as `_r_3_` (valid: HTML5 ids are any text without spaces);
    // the strict mode asks for HTML4's letter-first ids
    'valid-id': ['error', { relaxed: true }],
    // Radix's Checkbox is a `<button role="checkbox">` and its Accordion panel a `<div role="region">`;
    // our pickers (theme, template, card type) are `<button role="radio" aria-checked>` as Radix's
    // RadioGroup spells it: all permitted by ARIA in HTML, the rule only prefers native inputs
    'prefer-native-element': ['error', { exclude: ['checkbox', 'radio', 'region'] }],
    // ARIA lets a list be named (`aria-label` on `<ul>`/`<ol>`, role list); screen readers announce it
    // and tests find lists by it. The rule's default only prefers naming other elements
    'aria-label-misuse': ['error', { allowAnyNamable: true }],
  },
};

/**
 * E-mail HTML: the same preset, plus the three rules that forbid what every mail client needs.
 * Mail clients drop <style> and external CSS (inline styles are the only styling that survives)
 * and lay out only with presentational tables (`width`, `cellpadding`, `cellspacing`, `align`);
 * `prefer-tbody` is a style preference (the parser adds the tbody itself).
 */
const EMAIL: ConfigData = {
  extends: ['html-validate:recommended'],
  rules: {
    'doctype-style': 'off',
    'no-inline-style': 'off',
    'no-deprecated-attr': 'off',
    'prefer-tbody': 'off',
  },
};

const validators = new Map<string, HtmlValidate>();

/** The problems html-validate finds in a whole document, one line each (`[]` when valid). */
export async function htmlProblems(html: string, where: string, kind: 'page' | 'email' = 'page'): Promise<string[]> {
  let validator = validators.get(kind);
  if (!validator) validators.set(kind, (validator = new HtmlValidate(kind === 'email' ? EMAIL : PAGES)));
  const report = await validator.validateString(html, `${where}.html`);
  return report.results.flatMap((r) => r.messages.map((m) => `${where}:${m.line}:${m.column} ${m.ruleId}: ${m.message} — ${(m.selector ?? '').slice(-80)}`));
}
