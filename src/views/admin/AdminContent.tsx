import type { FormEvent } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { offerContentMachine, type TestimonialField } from '../../machines/offerContentMachine';
import { CONTENT_LIMITS } from '../../domain/offerContent';
import { colors } from '../theme';
import { Button, Card, ErrorText, Form, Heading, Muted, SubHeading } from '../shared/panelStyles';
import { FormField, RequiredNote } from './formParts';
import { useConsoleMachine } from './useConsoleMachine';

const LABELS: Record<TestimonialField, string> = { name: 'Name', practice: 'Practice', quote: 'Quote' };
const HINTS: Record<TestimonialField, string> = {
  name: 'As it should read, for example Dr. Jane Smith.',
  practice: 'For example Smith Family Chiropractic.',
  quote: 'Their words, without quotation marks.',
};

/**
 * Content (/admin/content): the offer's testimonials (up to three named practitioners, spec §1) and the guarantee's
 * text, shown on `/` as soon as they are saved (docs/decisions/0030). Driven by src/machines/offerContentMachine.ts;
 * this view renders its snapshot and sends events.
 */
export function AdminContent({ onUnauthorised }: { onUnauthorised: () => void }) {
  const [snapshot, send] = useConsoleMachine(offerContentMachine, onUnauthorised);
  const { draft, errors, saved } = snapshot.context;
  if (snapshot.matches('loading')) return <Heading aria-busy="true">Content</Heading>;
  if (snapshot.matches('loadFailed'))
    return (
      <>
        <Heading>Content</Heading>
        <ErrorText role="alert">{errors.form}</ErrorText>
        <Button type="button" onClick={() => send({ type: 'RETRY' })}>
          Try again
        </Button>
      </>
    );
  const saving = snapshot.matches('saving');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    send({ type: 'SAVE' });
  };
  return (
    <>
      <Heading>Content</Heading>
      <Muted as="p">
        What the offer page shows besides the referrer; saved content is on the page at once. The referrer a visit without a link sees (the
        seeded "sample", or DEFAULT_REFERRER_SLUG's) is edited under <Link href="/referrers">Referrers</Link>.
      </Muted>
      <Form onSubmit={submit} aria-label="Offer content" noValidate>
        <Stack>
          <RequiredNote />
          <SubHeading>Testimonials</SubHeading>
          <Muted as="p">Up to three practitioners. A row left empty is not shown; with none, the page has no testimonials section.</Muted>
          {draft.testimonials.map((testimonial, index) => {
            const started = Boolean(testimonial.name || testimonial.practice || testimonial.quote);
            return (
              <Card as="fieldset" key={index}>
                <legend>Testimonial {index + 1}</legend>
                <Row>
                  {(['name', 'practice', 'quote'] as const).map((field) => (
                    <FormField
                      key={field}
                      id={`testimonial-${index}-${field}`}
                      label={LABELS[field]}
                      required={started}
                      hint={HINTS[field]}
                      error={errors[`testimonials.${index}.${field}`]}
                      wide={field === 'quote'}
                    >
                      {field === 'quote' ? (
                        <textarea
                          value={testimonial.quote}
                          maxLength={CONTENT_LIMITS.quote}
                          rows={3}
                          onChange={(event) => send({ type: 'TESTIMONIAL_CHANGED', index, field, value: event.currentTarget.value })}
                        />
                      ) : (
                        <input
                          value={testimonial[field]}
                          maxLength={CONTENT_LIMITS[field]}
                          autoComplete="off"
                          onChange={(event) => send({ type: 'TESTIMONIAL_CHANGED', index, field, value: event.currentTarget.value })}
                        />
                      )}
                    </FormField>
                  ))}
                </Row>
              </Card>
            );
          })}
          <SubHeading>Guarantee</SubHeading>
          <FormField id="guarantee" label="Guarantee text" required hint="Shown under the money-back seal." error={errors.guarantee} wide>
            <textarea
              value={draft.guarantee}
              maxLength={CONTENT_LIMITS.guarantee}
              rows={3}
              onChange={(event) => send({ type: 'GUARANTEE_CHANGED', value: event.currentTarget.value })}
            />
          </FormField>
          {errors.form && <ErrorText role="alert">{errors.form}</ErrorText>}
          <Row>
            <Button type="submit" $variant="primary" disabled={saving}>
              {saving ? 'Saving…' : 'Save content'}
            </Button>
            <Saved role="status">{saved ? 'Saved: the offer page shows it now.' : ''}</Saved>
          </Row>
        </Stack>
      </Form>
    </>
  );
}

const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: 12px;
  width: 100%;
  min-width: 0;

  fieldset {
    margin: 0;
    min-width: 0;
  }
  legend {
    font-weight: 600;
    color: ${colors.ink};
    padding: 0 4px;
  }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: center;
`;

const Saved = styled.span`
  color: ${colors.success};
  font-weight: 600;
`;
