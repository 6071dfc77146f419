import { Fragment } from 'react';

/**
 * An email or an address that may wrap on a narrow screen only at its natural joints (before '@', after '.', '/'
 * or '-'), never inside a word: the text with `<wbr>` at those places.
 */
export function BreakableText({ text }: { text: string }) {
  const parts = text.split(/(?=@)|(?<=[./-])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
