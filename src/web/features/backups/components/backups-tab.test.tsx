import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { getAdminBackups, postAdminBackups } from '#shared/contracts/backups';
import { mockApi, renderWithProviders } from '#web/test/render';
import { BackupsTab } from './backups-tab';

const backup = (name: string, over: Record<string, unknown> = {}) => ({
  name,
  createdAt: '2026-11-27T01:00:00.000Z',
  sizeBytes: 5 * 1024 * 1024,
  files: 12,
  pauseMs: 140,
  durationMs: 900,
  inBucket: false,
  trigger: 'staff' as const,
  ...over,
});
const list = (backups: ReturnType<typeof backup>[], over: Record<string, unknown> = {}) => ({ backups, available: true, directory: '/srv/data/backups', everyHours: 24, keep: 7, running: false, ...over });

describe('<BackupsTab>', () => {
  it('lists the backups with size and time; "Back up now" posts and the list refreshes', async () => {
    const api = mockApi();
    api.ok(getAdminBackups, list([backup('backup-20261127-010000-000.tar', { inBucket: true })]));
    api.ok(postAdminBackups, { backup: backup('backup-20261127-020000-000.tar') });
    const { user } = renderWithProviders(<BackupsTab />);
    const row = await screen.findByTestId('backup-row');
    expect(row).toHaveTextContent('5.0 MB');
    expect(row).toHaveTextContent('backup-20261127-010000-000.tar');
    expect(row).toHaveTextContent('Disk and bucket');
    expect(screen.getByText(/every 24 hours/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back up now' }));
    await waitFor(() => expect(api.sent(postAdminBackups)).toHaveLength(1));
    expect(await screen.findByText('Backup written')).toBeInTheDocument();
  });

  it('on PostgreSQL says where backups come from and offers no button', async () => {
    const api = mockApi();
    api.ok(getAdminBackups, list([], { available: false }));
    renderWithProviders(<BackupsTab />);
    expect(await screen.findByText(/pg_dump/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back up now' })).toBeDisabled();
    expect(screen.getByText('No backups yet.')).toBeInTheDocument();
  });
});
