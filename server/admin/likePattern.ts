/** Anywhere, any case; `%`, `_` and `\` taken literally (PostgreSQL's default escape). */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
