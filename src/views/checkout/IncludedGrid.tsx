import styled from 'styled-components';
import { includedItems } from '../../content/offer';
import { Card, CardTitle } from '../shared/Card';
import { colors, media, radii } from '../theme';

/** The What's Included grid: one tile per included item of the offer. */
export function IncludedGrid() {
  return (
    <Card aria-labelledby="included-title">
      <CardTitle id="included-title">What's Included</CardTitle>
      <Grid>
        {includedItems.map((item) => (
          <Tile key={item.title}>
            <Check />
            <div>
              <TileTitle>{item.title}</TileTitle>
              <TileDetail>{item.detail}</TileDetail>
            </div>
          </Tile>
        ))}
      </Grid>
    </Card>
  );
}

function Check() {
  return (
    <svg width="22" height="22" viewBox="0 0 22 22" aria-hidden="true" focusable="false" style={{ flex: 'none' }}>
      <circle cx="11" cy="11" r="11" fill={colors.successSoft} />
      <path d="M6.5 11.5l3 3 6-6.5" fill="none" stroke={colors.success} strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

const Grid = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  grid-template-columns: repeat(2, 1fr);
  gap: 12px;

  ${media.narrow} {
    grid-template-columns: 1fr;
  }
`;

const Tile = styled.li`
  display: flex;
  gap: 12px;
  padding: 14px;
  border: 1px solid ${colors.border};
  border-radius: ${radii.medium};
  background: ${colors.page};
`;

const TileTitle = styled.h3`
  font-size: 0.9375rem;
  margin-bottom: 2px;
`;

const TileDetail = styled.p`
  font-size: 0.875rem;
  color: ${colors.muted};
`;
