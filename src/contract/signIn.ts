/**
 * The sign-in page's call (/sign-in, issue 23): the training platform sent the person here through our OpenID
 * Provider; the page posts the email and password, and is told where to go on (back into the provider's flow).
 */
import { Type, type Static } from 'typebox';
import { EmailText, Text } from './fields';

/** Body of POST /sign-in/password: the login the success page (or a seat's claim) gave the person. */
export const PasswordSignInRequest = Type.Object({ email: EmailText, password: Text(1, 256) }, { additionalProperties: false });
export type PasswordSignInRequest = Static<typeof PasswordSignInRequest>;

/** The answer to a right password: the address the browser goes on to (the provider resumes the platform's sign-in). */
export const PasswordSignInResponse = Type.Object({ redirectTo: Type.String() });
export type PasswordSignInResponse = Static<typeof PasswordSignInResponse>;
