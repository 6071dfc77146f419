import styled from 'styled-components';
import { testimonials } from '../../content/offer';
import { colors, media, radii, shadows } from '../theme';

/** Testimonials from three practitioners. */
export function Testimonials() {
  return (
    <Section aria-labelledby="testimonials-title">
      <Heading id="testimonials-title">What Chiropractors Are Saying</Heading>
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
    </Section>
  );
}

const Section = styled.section`
  max-width: 1200px;
  margin: 56px auto 0;
  padding: 0 24px;

  ${media.narrow} {
    margin-top: 40px;
    padding: 0 16px;
  }
`;

const Heading = styled.h2`
  text-align: center;
  font-size: 1.75rem;
  margin-bottom: 24px;
`;

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
