import { useState } from 'react';
import styled from 'styled-components';
import { PageSection, SectionHeading } from '../shared/PageSection';
import { faq } from '../../content/offer';
import { colors, radii } from '../theme';

/**
 * The page's one FAQ's element ids: fixed rather than `useId`, whose ids depend on the React tree around, so the
 * same in the whole page and in the FAQ hydrated as an island of its own.
 */
const baseId = 'faq';

/** The FAQ accordion: one answer open at a time; clicking the open question closes it. */
export function Faq() {
  const [openIndex, setOpenIndex] = useState<number | null>(null);

  return (
    <PageSection $maxWidth={800} aria-labelledby={`${baseId}-title`}>
      <SectionHeading id={`${baseId}-title`}>Frequently Asked Questions</SectionHeading>
      <List>
        {faq.map((item, index) => {
          const open = openIndex === index;
          const buttonId = `${baseId}-question-${index}`;
          const panelId = `${baseId}-answer-${index}`;
          return (
            <Item key={item.question}>
              <h3>
                <Question
                  type="button"
                  id={buttonId}
                  aria-expanded={open}
                  aria-controls={panelId}
                  onClick={() => setOpenIndex(open ? null : index)}
                >
                  <span>{item.question}</span>
                  <Chevron $open={open} aria-hidden="true">
                    ▾
                  </Chevron>
                </Question>
              </h3>
              <Answer id={panelId} role="region" aria-labelledby={buttonId} hidden={!open}>
                {item.answer}
              </Answer>
            </Item>
          );
        })}
      </List>
    </PageSection>
  );
}

const List = styled.div`
  display: flex;
  flex-direction: column;
  gap: 10px;
`;

const Item = styled.div`
  background: ${colors.surface};
  border: 1px solid ${colors.border};
  border-radius: ${radii.medium};

  h3 {
    font-size: 1rem;
  }
`;

const Question = styled.button`
  width: 100%;
  display: flex;
  justify-content: space-between;
  align-items: center;
  gap: 16px;
  padding: 16px 20px;
  border: none;
  background: none;
  color: ${colors.ink};
  font-weight: 700;
  text-align: left;
  cursor: pointer;
`;

const Chevron = styled.span<{ $open: boolean }>`
  transition: transform 0.2s;
  transform: rotate(${({ $open }) => ($open ? '180deg' : '0deg')});
`;

const Answer = styled.p`
  padding: 0 20px 16px;
  color: ${colors.text};
`;
