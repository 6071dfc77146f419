/**
 * The console's "Add a referrer" form against a faked server, through the real client: what is sent is the form's
 * values tidied (spaces trimmed, 'Dr.' and doubled spaces taken out of the name), a taken link is refused under the
 * link field in the server's words, another refusal above the button, and an added referrer is confirmed and
 * announced to the list.
 */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AddReferrer } from '../../src/views/admin/AdminReferrers';
import { REFERRER_FORM } from '../model/pageRules';
import { stubFetch, type FakeRoute } from './support/fakeFetch';

function showForm(create: FakeRoute) {
  const onAdded = vi.fn();
  const fetchMock = stubFetch({ '/api/admin/referrers': create });
  render(<AddReferrer onUnauthorised={() => undefined} onAdded={onAdded} />);
  const sent = () => fetchMock.mock.calls.map(([, init]) => JSON.parse(init!.body as string) as unknown);
  return { onAdded, sent };
}

function fill(values: Record<string, string>) {
  const form = screen.getByRole('form', { name: 'Add a referrer' });
  for (const [label, value] of Object.entries(values))
    fireEvent.change(within(form).getByLabelText(label, { exact: false }), { target: { value } });
  fireEvent.submit(form);
}

afterEach(() => vi.unstubAllGlobals());

describe('adding a referrer in the console', () => {
  it("sends the form's values tidied, and says who was added", async () => {
    const { onAdded, sent } = showForm((body) => ({
      status: 201,
      body: { id: 'ref-9', enabled: true, ...(body as object) },
    }));
    fill({
      "Name (after 'Dr.')": '  Dr.  Jane   Doe ',
      'Link (/r/…)': ' jane-doe ',
      'Short label': ' dr-jane ',
      Quote: ' Worth every minute. ',
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Added Dr. Jane Doe');
    expect(sent()).toEqual([{ displayName: 'Jane Doe', slug: 'jane-doe', shortLabel: 'dr-jane', quote: 'Worth every minute.' }]);
    expect(onAdded).toHaveBeenCalledTimes(1);
    // The confirmation goes as the owner starts the next one, whose link follows its name again.
    fireEvent.change(screen.getByLabelText("Name (after 'Dr.')", { exact: false }), { target: { value: 'Mary Major' } });
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByLabelText('Link (/r/…)', { exact: false })).toHaveValue('mary-major');
  });

  it('fills the link in from the name until the owner edits it, and names each missing field', () => {
    showForm(() => ({ status: 500, body: { error: 'Not expected.' } }));
    const name = screen.getByLabelText("Name (after 'Dr.')", { exact: false });
    const link = screen.getByLabelText('Link (/r/…)', { exact: false });
    fireEvent.submit(screen.getByRole('form', { name: 'Add a referrer' }));
    for (const words of Object.values(REFERRER_FORM.missing)) expect(screen.getByText(words)).toBeInTheDocument();
    // Another field takes only its own message.
    fireEvent.change(screen.getByLabelText('Short label', { exact: false }), { target: { value: 'dr-jane' } });
    expect(screen.queryByText(REFERRER_FORM.missing.shortLabel)).toBeNull();
    expect(screen.getByText(REFERRER_FORM.missing.slug)).toBeInTheDocument();
    // The name fills the link in, and takes the link's message with its own.
    fireEvent.change(name, { target: { value: 'Dr. Jane Doe' } });
    expect(link).toHaveValue('jane-doe');
    expect(screen.queryByText(REFERRER_FORM.missing.displayName)).toBeNull();
    expect(screen.queryByText(REFERRER_FORM.missing.slug)).toBeNull();
    expect(screen.getByText(REFERRER_FORM.missing.quote)).toBeInTheDocument();
    // Once the owner typed a link, the name leaves it.
    fireEvent.change(link, { target: { value: 'dr-jane' } });
    fireEvent.change(name, { target: { value: 'Jane Doe-Smith' } });
    expect(link).toHaveValue('dr-jane');
    // ...and the link's message with it: a refused link keeps its message while the name changes.
    fireEvent.change(link, { target: { value: 'D' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Add a referrer' }));
    expect(screen.getByText(REFERRER_FORM.badSlug)).toBeInTheDocument();
    fireEvent.change(name, { target: { value: 'Jane Doe' } });
    expect(screen.getByText(REFERRER_FORM.badSlug)).toBeInTheDocument();
  });

  it("puts a taken link's refusal under the link, and any other refusal above the button, in the server's words", async () => {
    let calls = 0;
    showForm(() =>
      ++calls === 1
        ? { status: 409, body: { error: 'The link /r/jane-doe is taken: choose another.' } }
        : { status: 400, body: { error: 'The short label dr-jane is taken: choose another.' } },
    );
    fill({ "Name (after 'Dr.')": 'Jane Doe', 'Link (/r/…)': 'jane-doe', 'Short label': 'dr-jane', Quote: 'Worth it.' });
    const link = screen.getByLabelText('Link (/r/…)', { exact: false });
    expect(await screen.findByText('The link /r/jane-doe is taken: choose another.')).toBeInTheDocument();
    expect(link).toHaveAccessibleDescription(expect.stringContaining('The link /r/jane-doe is taken: choose another.') as string);

    fill({ 'Link (/r/…)': 'jane-doe-2' });
    expect(await screen.findByText('The short label dr-jane is taken: choose another.')).toHaveAttribute('role', 'alert');
    expect(link).not.toHaveAccessibleDescription(expect.stringContaining('taken') as string);
  });
});
