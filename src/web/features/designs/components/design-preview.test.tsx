import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { BUILTIN_TEMPLATES } from '#shared/templates/builtin';
import type { SvgTemplate } from '#shared/schemas/templates';
import type { LogoFinding } from '#shared/templates/logo-check';
import { renderWithProviders } from '#web/test/render';
import { DesignLegal, DesignPreviewCard, type PreviewInput } from './design-preview';
import { LogoAck } from './logo-panel';

const simple = BUILTIN_TEMPLATES.find((t) => t.folder === 'simple')!;
const template = { id: 17, name: 'Simple', front: simple.front, back: simple.back } as unknown as SvgTemplate;
const data = { fullName: 'Ada Lovelace', jobTitle: 'Analyst', email: 'ada@example.com', phoneNumber: '+1 212 555 0199' };
const input = (cardType: PreviewInput['cardType']): PreviewInput => ({ selected: template, data: { ...data, look: { cardType } }, qrUrl: null, logoHref: null, cardType });

describe('<DesignPreviewCard>: the card as its metal makes it, beside the colour preview (issue 37)', () => {
  it('an engraved metal: "As engraved" front and back, each through the engraving filter', () => {
    renderWithProviders(<DesignPreviewCard p={input('standard')} loading={false} onTruncated={vi.fn()} />);
    const section = screen.getByTestId('card-pair');
    expect(screen.getByTestId('engraved-preview')).toHaveTextContent(/^As engraved on Standard Metal: one tone\./);
    expect(within(section).getByRole('img', { name: 'Simple front as engraved' })).toBeInTheDocument();
    expect(within(section).getByRole('img', { name: 'Simple back as engraved' })).toBeInTheDocument();
    // the colour preview is still there, first
    expect(screen.getByRole('img', { name: 'Simple front preview' })).toBeInTheDocument();
    const cards = section.querySelectorAll<HTMLElement>('[data-testid="engraved-card"]');
    expect(cards).toHaveLength(2);
    for (const c of cards) {
      const id = /^url\("?#([^")]+)"?\)$/.exec(c.style.filter)?.[1];
      expect(id).toBeTruthy();
      const filter = c.querySelector(`filter[id="${id}"]`)!;
      expect(filter.querySelectorAll('feFuncR, feFuncG, feFuncB')).toHaveLength(3);
    }
  });

  it('Color Metal: "As printed", the filter that leaves white unprinted', () => {
    renderWithProviders(<DesignPreviewCard p={input('color')} loading={false} onTruncated={vi.fn()} />);
    const section = screen.getByTestId('card-pair');
    expect(section.querySelector('feFuncA[type="discrete"]')).not.toBeNull();
    expect(screen.getByTestId('engraved-preview')).toHaveTextContent('As printed on Color Metal: printed without white ink');
  });
});

describe('the submit step', () => {
  it('carries the Terms of Service and Privacy Policy links', () => {
    renderWithProviders(<DesignLegal action="sending your design" />);
    const line = screen.getByTestId('design-legal');
    expect(line).toHaveTextContent('By sending your design you accept our Terms of Service; our Privacy Policy says what we keep.');
    expect(within(line).getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    expect(within(line).getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
  });

  it("asks to fix the logo or send it knowingly, only when there is a warning", async () => {
    const finding: LogoFinding = { id: 'opaque-background', title: 'Your logo has an opaque background', message: 'x' };
    const onChange = vi.fn();
    const { user, rerender } = renderWithProviders(<LogoAck findings={[finding]} checked={false} onChange={onChange} error />);
    expect(screen.getByTestId('logo-warnings-submit')).toHaveTextContent('Your logo has an opaque background.');
    expect(screen.getByRole('alert')).toHaveTextContent('tick the box to send it as it is');
    await user.click(screen.getByRole('checkbox', { name: 'I have seen how my logo comes out on this metal: send it as it is.' }));
    expect(onChange).toHaveBeenCalledWith(true);
    rerender(<LogoAck findings={[]} checked={false} onChange={onChange} error={false} />);
    expect(screen.queryByTestId('logo-ack')).not.toBeInTheDocument();
  });
});
