import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { LINK_TYPES } from '#shared/schemas/profile';
import { LinkIcon } from './link-icons';

describe('link icons on the public page', () => {
  it('gives LinkedIn, Instagram, X and Facebook their own marks, and "other" the generic one', () => {
    const markup = (t: string) => renderToStaticMarkup(<LinkIcon linkType={t} size={18} aria-hidden />);
    const generic = markup('other');
    for (const t of ['linkedin', 'instagram', 'twitter', 'facebook', 'website', 'github']) expect(markup(t), t).not.toBe(generic);
    expect(new Set(LINK_TYPES.map(markup)).size).toBe(LINK_TYPES.length);
    expect(markup('linkedin')).toContain('aria-hidden="true"');
  });
});
