import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { AUTH_USER_KEY } from '#web/lib/session/use-auth';
import { mockApi, renderWithProviders } from '#web/test/render';
import { LogoContrastWarning } from './logo-contrast-warning';
import { ProfileForm } from './profile-form';
import { ImageToneReaderProvider } from '#web/features/profile/image-tone';
import { testProfile } from '#web/test/profile-fixture';

// jsdom has no canvas: the logos' tones are given (the average colour of their visible pixels)
const TONES: Record<string, string> = { '/files/logos/dark.png': '#1f2937', '/files/logos/white.png': '#ffffff' };
const readTone = async (url: string) => TONES[url] ?? null;
const withTones = (ui: ReactElement) => <ImageToneReaderProvider value={readTone}>{ui}</ImageToneReaderProvider>;

const PROFILE = testProfile({ logoUrl: '/files/logos/dark.png', bannerLogoUrl: '/files/logos/white.png' });

describe('<LogoContrastWarning>', () => {
  it('warns about a dark company logo on the dark Corporate header, with the ratio and what to do', async () => {
    mockApi();
    renderWithProviders(withTones(<LogoContrastWarning layout="corporate" logoUrl="/files/logos/dark.png" bannerLogoUrl={null} />));
    expect(await screen.findByTestId('logo-contrast-warning')).toHaveTextContent(/Your company logo is hard to see on the Corporate header \(contrast 1\.2:1, at least 3:1 is needed\)\. Use a lighter logo/);
  });

  it('says nothing for a logo that stands out, or a layout without a header logo', async () => {
    mockApi();
    const reads: string[] = [];
    renderWithProviders(
      <ImageToneReaderProvider value={(url) => (reads.push(url), readTone(url))}>
        <LogoContrastWarning layout="corporate" logoUrl="/files/logos/white.png" bannerLogoUrl={null} />
        <LogoContrastWarning layout="minimal" logoUrl="/files/logos/dark.png" bannerLogoUrl="/files/logos/white.png" />
      </ImageToneReaderProvider>,
    );
    await waitFor(() => expect(reads).toEqual(['/files/logos/white.png']));
    expect(screen.queryByTestId('logo-contrast-warning')).not.toBeInTheDocument();
  });

  it('the profile form warns as soon as a style puts the hard-to-see logo on its header', async () => {
    mockApi();
    const { user } = renderWithProviders(withTones(<ProfileForm profile={{ ...PROFILE, bannerLogoUrl: null }} />), {
      route: '/profile',
      seed: [[AUTH_USER_KEY, { id: 'u1', username: 'ada', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', role: 'user', emailVerified: true, createdAt: '2026-11-01T10:00:00.000Z' }]],
    });
    expect(screen.queryByTestId('logo-contrast-warning')).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Corporate/ }));
    expect(await screen.findByTestId('logo-contrast-warning')).toHaveTextContent('Corporate header');
    await user.click(screen.getByRole('radio', { name: /Minimal/ }));
    expect(screen.queryByTestId('logo-contrast-warning')).not.toBeInTheDocument();
  });
});
