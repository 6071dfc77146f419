/** How the console's searches (orders by buyer, mail by recipient) match text: anywhere, any case, literally. */

/** `text` as a LIKE pattern matching itself anywhere: `%`, `_` and `\` are taken literally (PostgreSQL's default escape). */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
