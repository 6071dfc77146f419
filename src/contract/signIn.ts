/**
 * The sign-in page's call (/sign-in): the training platform sent the person here through our OpenID
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

/**
 * Query of GET /sign-in/interaction: the sign-in the page's address names (`?interaction=`, the OpenID Provider's
 * interaction uid).
 */
export const SignInInteractionQuery = Type.Object({ interaction: Text(1, 100) }, { additionalProperties: false });
export type SignInInteractionQuery = Static<typeof SignInInteractionQuery>;

/** The answer: whether this browser still holds that sign-in, waiting for a password (200 either way). */
export const SignInInteractionResponse = Type.Object({ live: Type.Boolean() });
export type SignInInteractionResponse = Static<typeof SignInInteractionResponse>;

/** Body of POST /sign-in/forgot ("Forgot your password?"): the email to send a link to. */
export const PasswordLinkRequest = Type.Object({ email: EmailText }, { additionalProperties: false });
export type PasswordLinkRequest = Static<typeof PasswordLinkRequest>;

/** The answer to a link request, the same for every email (202). */
export const PasswordLinkResponse = Type.Object({ message: Type.String() });
export type PasswordLinkResponse = Static<typeof PasswordLinkResponse>;

/** A "set a new password" link's token (32 random bytes, base64url), from the mail's address. */
const LinkToken = Text(1, 100);

/** Body of POST /sign-in/new-password/check: the link the page was opened with. */
export const NewPasswordLinkRequest = Type.Object({ token: LinkToken }, { additionalProperties: false });
export type NewPasswordLinkRequest = Static<typeof NewPasswordLinkRequest>;

/** A live link: whose password it sets (the page names it, and a password manager saves the new one under it). */
export const NewPasswordLink = Type.Object({ email: Type.String() });
export type NewPasswordLink = Static<typeof NewPasswordLink>;

/**
 * Body of POST /sign-in/new-password: the link and the password chosen. Its rules (src/domain/newPassword.ts) are
 * checked by the route, with a message in words; the contract only bounds the text.
 */
export const NewPasswordRequest = Type.Object({ token: LinkToken, password: Text(1, 1024) }, { additionalProperties: false });
export type NewPasswordRequest = Static<typeof NewPasswordRequest>;

/** The password is set: what the page says next. */
export const NewPasswordResponse = Type.Object({ message: Type.String() });
export type NewPasswordResponse = Static<typeof NewPasswordResponse>;
