import styled from 'styled-components';
import { PageSection, SectionHeading } from '../shared/PageSection';
import { testimonials } from '../../content/offer';
import { colors, media, radii, shadows } from '../theme';

/** Testimonials from three practitioners. */
export function Testimonials() {
  return (
    <PageSection $maxWidth={1200} aria-labelledby="testimonials-title">
      <SectionHeading id="testimonials-title">What Chiropractors Are Saying</SectionHeading>
      <Grid>
        {testimonials.map((item) => (
          <Quote key={item.name}>
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
    </PageSection>
  );
}

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(3, 1fr);
  gap: 20px;

  ${media.narrow} {
    grid-template-columns: 1fr;
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
