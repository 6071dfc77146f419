/** Plain panels for the console and the manage page: tables, forms and buttons in the checkout's colours (../theme.ts). */
import styled from 'styled-components';
import { colors, media, radii } from '../theme';

export const Page = styled.div`
  max-width: 1120px;
  margin: 0 auto;
  padding: 24px 16px 48px;
  color: ${colors.text};
`;

export const Heading = styled.h1`
  font-size: 1.5rem;
  color: ${colors.ink};
  margin: 0 0 16px;
`;

export const SubHeading = styled.h2`
  font-size: 1.125rem;
  color: ${colors.ink};
  margin: 24px 0 12px;
`;

export const Card = styled.section`
  background: ${colors.surface};
  border: 1px solid ${colors.border};
  border-radius: ${radii.medium};
  padding: 16px;
  margin-bottom: 16px;
  overflow-x: auto;
`;

export const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 0.875rem;
  th,
  td {
    text-align: left;
    padding: 8px;
    border-bottom: 1px solid ${colors.border};
    vertical-align: top;
  }
  th {
    color: ${colors.ink};
    font-weight: 600;
  }
  td.number,
  th.number {
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
`;

/**
 * A Table whose rows stack on phones (narrower than 768 px): each row a block, each cell a line led by its
 * column's name, taken from the cell's `data-label`; the header row is then for screen readers only. Nothing
 * scrolls sideways.
 */
export const StackedTable = styled(Table)`
  ${media.narrow} {
    thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
    tbody,
    tr,
    td {
      display: block;
    }
    tr {
      padding: 8px 0;
      border-bottom: 1px solid ${colors.border};
    }
    td {
      border: 0;
      padding: 4px 0;
      overflow-wrap: anywhere;
    }
    td.number {
      text-align: left;
    }
    td[data-label]::before {
      content: attr(data-label);
      display: block;
      font-weight: 600;
      color: ${colors.ink};
    }
  }
`;

export const Button = styled.button<{ $variant?: 'primary' | 'plain' | 'danger' }>`
  min-height: 44px;
  padding: 8px 16px;
  border-radius: ${radii.small};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  border: 1px solid ${({ $variant }) => ($variant === 'primary' ? colors.brand : $variant === 'danger' ? colors.danger : colors.border)};
  background: ${({ $variant }) => ($variant === 'primary' ? colors.brand : colors.surface)};
  color: ${({ $variant }) => ($variant === 'primary' ? colors.surface : $variant === 'danger' ? colors.danger : colors.ink)};
  &:disabled {
    opacity: 0.6;
    cursor: not-allowed;
  }
`;

export const Form = styled.form`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: flex-end;
`;

export const Field = styled.label`
  display: flex;
  flex-direction: column;
  gap: 4px;
  font-size: 0.875rem;
  color: ${colors.ink};
  input,
  select,
  textarea {
    min-height: 44px;
    padding: 8px 10px;
    border: 1px solid ${colors.muted};
    border-radius: ${radii.small};
    font: inherit;
    color: ${colors.ink};
    background: ${colors.surface};
  }
`;

export const ErrorText = styled.p`
  color: ${colors.danger};
  margin: 8px 0;
`;

export const Muted = styled.span`
  color: ${colors.muted};
`;
