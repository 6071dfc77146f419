-- The OpenID Provider's rows are keyed by the SHA-256 of their id (server/signIn/oidcStore.ts): hash the ids of
-- the rows kept so far and drop the copies of them in the payloads, so sessions, codes and tokens go on working.
-- Grants keep their id (it opens nothing by itself); login hints were hashed from the start. Interactions (a
-- sign-in page open, an hour at most) are deleted: their payloads hold their session's cookie value. A paid
-- order's payment client secret is kept as its SHA-256 (server/security/clientSecretAtRest.ts).
DELETE FROM "oidc_records" WHERE "model" = 'Interaction';--> statement-breakpoint
UPDATE "oidc_records"
SET "id" = encode(sha256(convert_to("id", 'UTF8')), 'hex'), "payload" = "payload" - 'jti'
WHERE "model" NOT IN ('Grant', 'LoginHint');
--> statement-breakpoint
UPDATE "orders"
SET "client_secret" = 'sha256:' || encode(sha256(convert_to("client_secret", 'UTF8')), 'hex')
WHERE "paid_at" IS NOT NULL AND "client_secret" NOT LIKE 'sha256:%';
