import { useEffect, useEffectEvent, type FormEvent } from 'react';
import styled from 'styled-components';
import { referrerFormMachine, type ReferrerField } from '../../machines/referrerFormMachine';
import { referrersMachine } from '../../machines/referrersMachine';
import type { Referrer } from '../../contract/admin';
import { formText } from '../shared/formText';
import { Button, Card, ErrorText, Form, Heading, Muted, StackedTable, SubHeading } from '../shared/panelStyles';
import { Tooltip } from '../shared/Tooltip';
import { FormField, RequiredNote } from './formParts';
import { useConsoleMachine } from './useConsoleMachine';

const linkOf = (slug: string) => `${window.location.origin}/r/${slug}`;

/**
 * Referrers (/admin/referrers): each with its link (copyable), editable name, label and quote, and disable / enable;
 * a form to add one, whose link follows the name until edited and whose errors sit under their fields. Two
 * statecharts (src/machines/referrersMachine.ts, referrerFormMachine.ts); this view renders them and sends events.
 */
export function AdminReferrers({ onUnauthorised }: { onUnauthorised: () => void }) {
  const [list, sendList] = useConsoleMachine(referrersMachine, onUnauthorised);
  const { referrers, editing, copied, error } = list.context;
  const busy = !list.matches('ready');
  return (
    <>
      <Heading>Referrers</Heading>
      {error && <ErrorText role="alert">{error}</ErrorText>}
      <Card>
        <StackedTable aria-label="Referrers">
          <thead>
            <tr>
              <th>Name</th>
              <th>Link</th>
              <th>affiliate_id</th>
              <th>Status</th>
              <th>
                <Muted>Actions</Muted>
              </th>
            </tr>
          </thead>
          <tbody>
            {referrers.map((referrer) =>
              editing === referrer.id ? (
                <tr key={referrer.id}>
                  <td colSpan={5}>
                    <EditReferrer
                      referrer={referrer}
                      busy={busy}
                      onSave={(values) => sendList({ type: 'EDIT_SAVED', id: referrer.id, ...values })}
                      onCancel={() => sendList({ type: 'EDIT_CANCELLED' })}
                    />
                  </td>
                </tr>
              ) : (
                <tr key={referrer.id}>
                  <td data-label="Name">
                    Dr. {referrer.displayName}
                    <br />
                    <Muted>“{referrer.quote}”</Muted>
                  </td>
                  <td data-label="Link">
                    <code>/r/{referrer.slug}</code>{' '}
                    <Tooltip
                      id={`copy-link-hint-${referrer.id}`}
                      text={`Copies ${linkOf(referrer.slug)} to the clipboard, to send to Dr. ${referrer.displayName}`}
                    >
                      {(describedBy) => (
                        <Button
                          type="button"
                          onClick={() => sendList({ type: 'COPY', slug: referrer.slug, link: linkOf(referrer.slug) })}
                          aria-label={`${copied === referrer.slug ? 'Copied' : 'Copy link'} of Dr. ${referrer.displayName}`}
                          aria-describedby={describedBy}
                        >
                          {copied === referrer.slug ? 'Copied' : 'Copy link'}
                        </Button>
                      )}
                    </Tooltip>
                  </td>
                  <td data-label="affiliate_id">{referrer.shortLabel}</td>
                  <td data-label="Status">{referrer.status}</td>
                  <td>
                    <Actions>
                      <Button type="button" onClick={() => sendList({ type: 'EDIT', id: referrer.id })}>
                        Edit
                      </Button>
                      <Button
                        type="button"
                        disabled={busy}
                        $variant={referrer.status === 'active' ? 'danger' : undefined}
                        onClick={() => sendList({ type: 'STATUS_TOGGLED', referrer })}
                      >
                        {referrer.status === 'active' ? 'Disable' : 'Enable'}
                      </Button>
                    </Actions>
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </StackedTable>
      </Card>
      <SubHeading>Add a referrer</SubHeading>
      <Card>
        <AddReferrer onUnauthorised={onUnauthorised} onAdded={() => sendList({ type: 'RELOAD' })} />
      </Card>
    </>
  );
}

type EditedValues = { displayName: string; shortLabel: string; quote: string };

function EditReferrer({
  referrer,
  busy,
  onSave,
  onCancel,
}: {
  referrer: Referrer;
  busy: boolean;
  onSave: (values: EditedValues) => void;
  onCancel: () => void;
}) {
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onSave({ displayName: formText(form, 'displayName'), shortLabel: formText(form, 'shortLabel'), quote: formText(form, 'quote') });
  };
  const id = `edit-${referrer.id}`;
  return (
    <Form onSubmit={save} aria-label={`Edit Dr. ${referrer.displayName}`}>
      <FormField id={`${id}-name`} label="Name (after 'Dr.')" required>
        <input name="displayName" defaultValue={referrer.displayName} maxLength={80} autoComplete="off" />
      </FormField>
      <FormField id={`${id}-label`} label="Short label (affiliate_id)" required>
        <input name="shortLabel" defaultValue={referrer.shortLabel} maxLength={64} autoComplete="off" />
      </FormField>
      <FormField id={`${id}-quote`} label="Quote" required wide>
        <textarea name="quote" defaultValue={referrer.quote} maxLength={600} rows={3} />
      </FormField>
      <Actions>
        <Button type="submit" $variant="primary" disabled={busy}>
          Save
        </Button>
        <Button type="button" onClick={onCancel}>
          Cancel
        </Button>
      </Actions>
    </Form>
  );
}

/** The "Add a referrer" form, driven by referrerFormMachine (`machine`: tests pass one with its call replaced). */
export function AddReferrer({
  onUnauthorised,
  onAdded,
  machine = referrerFormMachine,
}: {
  onUnauthorised: () => void;
  onAdded: () => void;
  machine?: typeof referrerFormMachine;
}) {
  const [form, send, actor] = useConsoleMachine(machine, onUnauthorised);
  const notifyAdded = useEffectEvent(onAdded);
  useEffect(() => {
    const subscription = actor.on('created', () => notifyAdded());
    return () => subscription.unsubscribe();
  }, [actor]);
  const { values, errors, added } = form.context;
  const creating = form.matches('creating');
  const change = (field: ReferrerField) => (event: { currentTarget: { value: string } }) =>
    send({ type: 'FIELD_CHANGED', field, value: event.currentTarget.value });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    send({ type: 'SUBMITTED' });
  };
  return (
    <Form onSubmit={submit} aria-label="Add a referrer" noValidate>
      <RequiredNote />
      <FormField
        id="referrer-name"
        label="Name (after 'Dr.')"
        required
        hint={<>For example Jane Doe: the offer then reads "For Friends of Dr. Jane Doe Only".</>}
        error={errors.displayName}
      >
        <input name="displayName" value={values.displayName} onChange={change('displayName')} maxLength={80} autoComplete="off" />
      </FormField>
      <FormField
        id="referrer-slug"
        label="Link (/r/…)"
        required
        hint="Lower-case letters, digits and dashes; filled in from the name."
        error={errors.slug}
      >
        <input
          name="slug"
          value={values.slug}
          onChange={change('slug')}
          maxLength={40}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
      </FormField>
      <FormField
        id="referrer-label"
        label="Short label (affiliate_id)"
        required
        hint="Sent with each checkout, for example dr-jane-doe."
        error={errors.shortLabel}
      >
        <input
          name="shortLabel"
          value={values.shortLabel}
          onChange={change('shortLabel')}
          maxLength={64}
          autoComplete="off"
          autoCapitalize="none"
        />
      </FormField>
      <FormField id="referrer-quote" label="Quote" required hint="The referrer's words in the offer's hero." error={errors.quote} wide>
        <textarea name="quote" value={values.quote} onChange={change('quote')} maxLength={600} rows={3} />
      </FormField>
      {errors.form && <ErrorText role="alert">{errors.form}</ErrorText>}
      <Button type="submit" $variant="primary" disabled={creating}>
        {creating ? 'Adding…' : 'Add referrer'}
      </Button>
      {added && (
        <Muted role="status">
          Added Dr. {added.displayName}: {linkOf(added.slug)}
        </Muted>
      )}
    </Form>
  );
}

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;
