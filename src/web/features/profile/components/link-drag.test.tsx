import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { putProfileById } from '#shared/contracts/profile';
import { AUTH_USER_KEY } from '#web/lib/session/use-auth';
import { mockApi, renderWithProviders } from '#web/test/render';
import { ProfileForm } from './profile-form';
import { TEST_USER, testProfile } from '#web/test/profile-fixture';

const PROFILE = testProfile({
  links: [
    { id: 1, linkType: 'website', url: 'https://one.example.com', label: null },
    { id: 2, linkType: 'github', url: 'https://github.com/ada', label: null },
    { id: 3, linkType: 'linkedin', url: 'https://linkedin.com/in/ada', label: null },
  ],
});

const USER = TEST_USER;

/** jsdom lays nothing out: each row is given a 100 px slot, row i from y = 100 i. */
function layRows() {
  screen.getAllByTestId('link-row').forEach((row, i) => {
    row.getBoundingClientRect = () => ({ top: i * 100, height: 100, bottom: i * 100 + 100, left: 0, right: 300, width: 300, x: 0, y: i * 100, toJSON: () => ({}) });
  });
}
const types = () => screen.getAllByTestId('link-row').map((r) => (r.querySelector('select') as HTMLSelectElement).value);

describe('<ProfileForm> links: pointer drag', () => {
  it('drags the last link to the top by its handle; Save sends the new order; Move up/down still there', async () => {
    const api = mockApi();
    api.ok(putProfileById, PROFILE);
    const { user } = renderWithProviders(<ProfileForm profile={PROFILE} />, { route: '/profile', seed: [[AUTH_USER_KEY, USER]] });
    layRows();
    const handle = screen.getByRole('button', { name: 'Drag link 3 to reorder' });
    fireEvent.pointerDown(handle, { pointerId: 1, button: 0, pointerType: 'mouse', clientY: 250 });
    fireEvent.pointerMove(handle, { pointerId: 1, pointerType: 'mouse', clientY: 120 });
    expect(types()).toEqual(['website', 'linkedin', 'github']);
    layRows();
    fireEvent.pointerMove(handle, { pointerId: 1, pointerType: 'mouse', clientY: 10 });
    fireEvent.pointerUp(handle, { pointerId: 1, pointerType: 'mouse', clientY: 10 });
    expect(types()).toEqual(['linkedin', 'website', 'github']);
    // a move after the pointer is up does nothing
    fireEvent.pointerMove(handle, { pointerId: 1, pointerType: 'mouse', clientY: 290 });
    expect(types()).toEqual(['linkedin', 'website', 'github']);
    expect(screen.getAllByRole('button', { name: 'Move up' })).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Save Profile' }));
    await waitFor(() => expect(api.sent(putProfileById)).toHaveLength(1));
    expect((api.sent(putProfileById)[0]!.body as { links: { id: number }[] }).links.map((l) => l.id)).toEqual([3, 1, 2]);
  });
});
