import type { ReactNode } from 'react';

/** An http(s) address in a mail's text, up to the next space (a full stop, comma or closing parenthesis after it is not part of it). */
const URL_IN_TEXT = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)]/g;

/**
 * Where a link of a held mail leads: the address without its hidden token (`token=[hidden]`; no token is minted for
 * a held mail, decision 0026), so the owner reaches the page itself; other addresses as they are. Undefined for
 * what is not an http(s) address.
 */
export function mailLinkHref(address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address.replace(/\[hidden\]/g, 'hidden'));
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  for (const [key, value] of [...url.searchParams])
    if (value === 'hidden' && address.includes(`${key}=[hidden]`)) url.searchParams.delete(key);
  return url.toString();
}

/** A mail's text with each http(s) address a link (opening in a new tab), the rest as it is. */
export function MailText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const address = match[0];
    const href = mailLinkHref(address);
    if (!href) continue;
    parts.push(text.slice(last, match.index));
    parts.push(
      <a key={match.index} href={href} target="_blank" rel="noopener noreferrer">
        {address}
      </a>,
    );
    last = match.index + address.length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}
