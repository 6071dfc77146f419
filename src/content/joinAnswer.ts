/**
 * How the /join page reads the answer the server wrote into it (src/domain/joinPage.ts) and hands it to the view.
 * Without it (an older build, a page the browser draws afresh, the tests) the page asks the server itself.
 */
import { createContext, useContext } from 'react';
import type { JoinInvitation } from '../contract/team';
import { JOIN_ANSWER_ELEMENT_ID, type JoinAnswer } from '../domain/joinPage';
import { readPageJson } from './pageJson';

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const INVITATION_FIELDS = ['email', 'name', 'invitedBy', 'practiceName', 'productName', 'expiresAt'] as const;

/** The answer written into `document`, or null when there is none or it is malformed. */
export function readJoinAnswer(document: Document): JoinAnswer | null {
  const { invitation, problem } = readPageJson(document, JOIN_ANSWER_ELEMENT_ID) ?? {};
  if (isText(problem)) return { problem };
  if (typeof invitation !== 'object' || invitation === null) return null;
  const fields = invitation as Record<string, unknown>;
  if (!INVITATION_FIELDS.every((field) => typeof fields[field] === 'string')) return null;
  // Every field checked as a string just above; nothing else is kept.
  return { invitation: Object.fromEntries(INVITATION_FIELDS.map((field) => [field, fields[field]])) as JoinInvitation };
}

/** The page's answer for the views; src/mountApp.tsx provides the one read from the page. */
export const JoinAnswerContext = createContext<JoinAnswer | null>(null);

/** The answer the server wrote into the /join page, if any. */
export function useJoinAnswer(): JoinAnswer | null {
  return useContext(JoinAnswerContext);
}
