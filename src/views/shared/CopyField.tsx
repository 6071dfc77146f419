import styled from 'styled-components';
import { colors, radii } from '../theme';
import { BreakableText } from './BreakableText';
import { Tooltip } from './Tooltip';

interface CopyFieldProps {
  label: string;
  value: string;
  /** The copy button's accessible name ('Copy email'). */
  copyLabel: string;
  /** Sends the page's statechart its copy event (the view never touches the clipboard itself). */
  onCopy: () => void;
}

/**
 * One credential with its copy button, as a `dt`/`dd` pair inside a `dl` (the success page's credentials and
 * /account's new ones). The value wraps only at its natural joints on a narrow screen.
 */
export function CopyField({ label, value, copyLabel, onCopy }: CopyFieldProps) {
  return (
    <Row>
      <dt>{label}</dt>
      <dd>
        <Value>
          <BreakableText text={value} />
        </Value>
        <Tooltip id={`copy-${label.toLowerCase()}-hint`} text={`Copies your ${label.toLowerCase()} to the clipboard`} align="end">
          {(describedBy) => (
            <CopyButton type="button" aria-label={copyLabel} aria-describedby={describedBy} onClick={onCopy}>
              <CopyIcon />
            </CopyButton>
          )}
        </Tooltip>
      </dd>
    </Row>
  );
}

function CopyIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <rect x="5" y="5" width="9" height="9" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path
        d="M11 5V3.5A1.5 1.5 0 0 0 9.5 2h-6A1.5 1.5 0 0 0 2 3.5v6A1.5 1.5 0 0 0 3.5 11H5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
      />
    </svg>
  );
}

const Row = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;

  dt {
    font-size: 0.8125rem;
    font-weight: 700;
    color: #9a3412;
  }
  dd {
    margin: 0;
    display: flex;
    align-items: center;
    gap: 8px;
  }
`;

const Value = styled.code`
  flex: 1;
  min-width: 0;
  padding: 8px 12px;
  /* Breaks inside a word only when one piece alone is wider than the line (BreakableText gives the joints). */
  overflow-wrap: anywhere;
  border: 1px solid #fed7aa;
  border-radius: ${radii.small};
  background: #fff;
  color: ${colors.ink};
  font-size: 0.9375rem;
`;

const CopyButton = styled.button`
  flex: none;
  /* 44 × 44 px: a target a thumb hits (WCAG 2.5.5). */
  width: 44px;
  height: 44px;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  border: 1px solid #fdba74;
  border-radius: ${radii.small};
  background: #fff;
  color: ${colors.warning};
  cursor: pointer;

  &:hover {
    background: #ffedd5;
  }
`;
