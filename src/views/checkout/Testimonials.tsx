import styled from 'styled-components';
import { PageSection, SectionHeading } from '../shared/PageSection';
import { useOfferContent } from '../../content/offerContent';
import { TESTIMONIAL_SLOT_ATTRIBUTE, TESTIMONIALS_SECTION_ATTRIBUTE } from '../../domain/offerContent';
import { colors, media, radii, shadows } from '../theme';

/**
 * Testimonials of up to three named practitioners (spec §1), as the owner entered them in the console; nothing
 * until they have (docs/decisions/0030). Never hydrated (decision 0027): in the built page each card is a slot the
 * server fills or hides (server/referrals/offerPage.ts).
 */
export function Testimonials() {
  const { testimonials } = useOfferContent();
  if (testimonials.length === 0) return null;
  return (
    <Section $maxWidth={1200} aria-labelledby="testimonials-title" {...{ [TESTIMONIALS_SECTION_ATTRIBUTE]: '' }}>
      <SectionHeading id="testimonials-title">What Chiropractors Are Saying</SectionHeading>
      <Grid>
        {testimonials.map((item, index) => (
          <Quote key={index} {...{ [TESTIMONIAL_SLOT_ATTRIBUTE]: String(index) }}>
            <Stars aria-hidden="true">★★★★★</Stars>
            <blockquote>
              <p>{`“${item.quote}”`}</p>
            </blockquote>
            <figcaption>
              <Name>{item.name}</Name>
              <Practice>{item.practice}</Practice>
            </figcaption>
          </Quote>
        ))}
      </Grid>
    </Section>
  );
}

const Section = styled(PageSection)`
  &[hidden] {
    display: none;
  }
`;

const Grid = styled.div`
  display: grid;
  grid-auto-flow: column;
  grid-auto-columns: minmax(0, 1fr);
  gap: 20px;

  ${media.narrow} {
    grid-auto-flow: row;
    grid-template-columns: minmax(0, 1fr);
  }
`;

const Quote = styled.figure`
  margin: 0;
  padding: 24px;
  display: flex;
  flex-direction: column;
  gap: 12px;
  background: ${colors.surface};
  border: 1px solid ${colors.border};
  border-radius: ${radii.large};
  box-shadow: ${shadows.card};

  &[hidden] {
    display: none;
  }

  blockquote {
    margin: 0;
    flex: 1;
    font-style: italic;
  }
`;

const Stars = styled.span`
  color: ${colors.accent};
  letter-spacing: 2px;
`;

const Name = styled.p`
  font-weight: 700;
  color: ${colors.ink};
`;

const Practice = styled.p`
  font-size: 0.875rem;
  color: ${colors.muted};
`;
