import { useState, type FormEvent } from 'react';
import { adminApi } from '../../api/adminApi';
import { SLUG_PATTERN, type Referrer } from '../../contract/admin';
import { formText } from '../shared/formText';
import { Button, Card, ErrorText, Field, Form, Heading, Muted, SubHeading, Table } from '../shared/panelStyles';
import { useAdminData } from './useAdminData';

const linkOf = (slug: string) => `${window.location.origin}/r/${slug}`;
const text = (form: FormData, name: string) => formText(form, name).trim();

/** Referrers: each with its link (copyable), editable name, label and quote, and disable / enable; a form to add one. */
export function AdminReferrers({ onUnauthorised }: { onUnauthorised: () => void }) {
  const { data, error, reload } = useAdminData(() => adminApi.referrers(), 'referrers', onUnauthorised);
  const [formError, setFormError] = useState<string>();
  const [editing, setEditing] = useState<string>();
  const [copied, setCopied] = useState<string>();
  const failed = (failure: unknown) => setFormError(failure instanceof Error ? failure.message : String(failure));

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const form = new FormData(element);
    adminApi
      .createReferrer({
        slug: text(form, 'slug'),
        displayName: text(form, 'displayName'),
        shortLabel: text(form, 'shortLabel'),
        quote: text(form, 'quote'),
      })
      .then(() => {
        element.reset();
        setFormError(undefined);
        reload();
      }, failed);
  };
  const save = (referrer: Referrer) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    adminApi
      .updateReferrer(referrer.id, {
        displayName: text(form, 'displayName'),
        shortLabel: text(form, 'shortLabel'),
        quote: text(form, 'quote'),
      })
      .then(() => {
        setEditing(undefined);
        setFormError(undefined);
        reload();
      }, failed);
  };
  const toggle = (referrer: Referrer) =>
    adminApi.updateReferrer(referrer.id, { status: referrer.status === 'active' ? 'disabled' : 'active' }).then(reload, failed);
  const copy = (slug: string) =>
    navigator.clipboard.writeText(linkOf(slug)).then(
      () => setCopied(slug),
      () => setCopied(undefined),
    );

  return (
    <>
      <Heading>Referrers</Heading>
      {(error || formError) && <ErrorText role="alert">{formError ?? error}</ErrorText>}
      <Card>
        <Table aria-label="Referrers">
          <thead>
            <tr>
              <th>Name</th>
              <th>Link</th>
              <th>affiliate_id</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {data?.referrers.map((referrer) =>
              editing === referrer.id ? (
                <tr key={referrer.id}>
                  <td colSpan={5}>
                    <Form onSubmit={save(referrer)} aria-label={`Edit Dr. ${referrer.displayName}`}>
                      <Field>
                        Name (after 'Dr.')
                        <input name="displayName" defaultValue={referrer.displayName} required maxLength={80} />
                      </Field>
                      <Field>
                        Short label (affiliate_id)
                        <input name="shortLabel" defaultValue={referrer.shortLabel} required maxLength={64} />
                      </Field>
                      <Field style={{ flex: '1 1 320px' }}>
                        Quote
                        <textarea name="quote" defaultValue={referrer.quote} required maxLength={600} rows={3} />
                      </Field>
                      <Button type="submit" $variant="primary">
                        Save
                      </Button>
                      <Button type="button" onClick={() => setEditing(undefined)}>
                        Cancel
                      </Button>
                    </Form>
                  </td>
                </tr>
              ) : (
                <tr key={referrer.id}>
                  <td>
                    Dr. {referrer.displayName}
                    <br />
                    <Muted>“{referrer.quote}”</Muted>
                  </td>
                  <td>
                    <code>/r/{referrer.slug}</code>{' '}
                    <Button
                      type="button"
                      onClick={() => void copy(referrer.slug)}
                      aria-label={`Copy the link of Dr. ${referrer.displayName}`}
                    >
                      {copied === referrer.slug ? 'Copied' : 'Copy link'}
                    </Button>
                  </td>
                  <td>{referrer.shortLabel}</td>
                  <td>{referrer.status}</td>
                  <td>
                    <Button type="button" onClick={() => setEditing(referrer.id)}>
                      Edit
                    </Button>{' '}
                    <Button
                      type="button"
                      $variant={referrer.status === 'active' ? 'danger' : undefined}
                      onClick={() => void toggle(referrer)}
                    >
                      {referrer.status === 'active' ? 'Disable' : 'Enable'}
                    </Button>
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </Table>
      </Card>
      <SubHeading>Add a referrer</SubHeading>
      <Card>
        <Form onSubmit={create} aria-label="Add a referrer">
          <Field>
            Link (/r/…)
            <input
              name="slug"
              required
              minLength={2}
              maxLength={40}
              pattern={SLUG_PATTERN.slice(1, -1)}
              placeholder="jane-doe"
              title="Lower-case letters, digits and dashes"
            />
          </Field>
          <Field>
            Name (after 'Dr.')
            <input name="displayName" required maxLength={80} placeholder="Jane Doe" />
          </Field>
          <Field>
            Short label (affiliate_id)
            <input name="shortLabel" required maxLength={64} placeholder="dr-jane-doe" />
          </Field>
          <Field style={{ flex: '1 1 320px' }}>
            Quote
            <textarea name="quote" required maxLength={600} rows={3} />
          </Field>
          <Button type="submit" $variant="primary">
            Add referrer
          </Button>
        </Form>
      </Card>
    </>
  );
}
