/** The notification area (spec §9): toasts auto-dismiss after 4000 ms, at most 3 visible, errors in red. */
import { act, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOASTS } from '../../src/machines/toasts';
import { colors } from '../../src/views/theme';
import { AppToaster } from '../../src/views/toasts/AppToaster';
import { showToast } from '../../src/views/toasts/showToast';
import { advance } from './support/timers';

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
});

afterEach(() => {
  act(() => toast.remove());
  vi.useRealTimers();
});

describe('toaster', () => {
  it('shows the title and the description, announced as a status', () => {
    render(<AppToaster />);
    act(() => {
      showToast(TOASTS.subscriptionUpdated(2));
    });
    expect(screen.getByRole('status')).toHaveTextContent('Subscription UpdatedTeam size updated to 2 members.');
  });

  it('styles destructive toasts red and announces them as alerts', () => {
    render(<AppToaster />);
    act(() => {
      showToast(TOASTS.updateFailed);
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Update FailedFailed to update team size. Please try again.');
    const bar = alert.parentElement!;
    expect(bar).toHaveStyle({ background: colors.danger });
  });

  it('dismisses a toast after 4000 ms', async () => {
    render(<AppToaster />);
    act(() => {
      showToast(TOASTS.copied('Email'));
    });
    await advance(3999);
    expect(screen.getByText('Email copied to clipboard')).toBeInTheDocument();
    await advance(1);
    await advance(1000);
    expect(screen.queryByText('Email copied to clipboard')).not.toBeInTheDocument();
  });

  it('keeps at most three toasts visible, dismissing the oldest', async () => {
    render(<AppToaster />);
    act(() => {
      showToast(TOASTS.updateFailed);
      showToast(TOASTS.updateError);
      showToast(TOASTS.copyFailed);
      showToast(TOASTS.noToken);
    });
    await advance(1000);
    expect(screen.queryByText('Update Failed')).not.toBeInTheDocument();
    expect(screen.getByText('Failed to update subscription. Please refresh and try again.')).toBeInTheDocument();
    expect(screen.getByText('Copy Failed')).toBeInTheDocument();
    expect(screen.getByText('No authentication token found. Please contact support.')).toBeInTheDocument();
  });
});
