/**
 * `npm run owner:create -- owner@example.com`: creates an owner account for the console at /admin (or gives an
 * existing owner a new password, which ends every console session of that owner: saveOwner). The password is
 * OWNER_PASSWORD when set (at least 12 characters), else a new random 20-character one printed once. Without an
 * email argument (or OWNER_EMAIL) it asks for one. Uses the database the environment names, as the server does;
 * with the embedded database, run it while the server is stopped (PGlite is one process's).
 */
import { createInterface } from 'node:readline/promises';
import { OwnerInputError, saveOwner } from '../server/admin/owners';
import { ConfigError, loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { generatePassword } from '../server/security/password';

async function askEmail(): Promise<string> {
  if (!process.stdin.isTTY) throw new OwnerInputError('Usage: npm run owner:create -- owner@example.com');
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await prompt.question('Owner email: ');
  } finally {
    prompt.close();
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const email = process.argv[2] ?? process.env.OWNER_EMAIL ?? (await askEmail());
  const chosen = process.env.OWNER_PASSWORD;
  const password = chosen || generatePassword();
  const database = await openDatabase(config);
  try {
    const result = await saveOwner(database.db, email, password);
    console.log(`Owner ${email.trim().toLowerCase()} ${result}. Sign in at /admin.`);
    if (!chosen) console.log(`Password (shown once, keep it in a password manager): ${password}`);
  } finally {
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof OwnerInputError ? error.message : error);
    process.exit(1);
  },
);
