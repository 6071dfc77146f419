/**
 * Commission rules (docs/decisions/0035), append-only versions: an invoice earns by its referrer's newest rule when
 * paid, else the newest default, else the built-in 20 % (src/domain/commissions.ts). Each entry keeps the rule it
 * used.
 */
import { desc, eq, isNull } from 'drizzle-orm';
import { BUILT_IN_RULE, describeRule, type CommissionRule } from '../../src/domain/commissions';
import type { Database, Transaction } from '../db/client';
import { commissionRules } from '../db/schema';

type RuleRow = typeof commissionRules.$inferSelect;

/** `id` null for the built-in default. */
interface RuleInForce {
  ruleId: number | null;
  rule: CommissionRule;
  text: string;
  isDefault: boolean;
}

function ruleOf(row: RuleRow): CommissionRule {
  return row.kind === 'flat'
    ? { kind: 'flat', flatCentsPerSeat: row.flatCentsPerSeat ?? 0, months: row.months }
    : { kind: 'percent', percentBasisPoints: row.percentBasisPoints ?? 0, months: row.months };
}

const inForce = (row: RuleRow | undefined, isDefault: boolean): RuleInForce =>
  row && row.kind !== 'default'
    ? { ruleId: row.id, rule: ruleOf(row), text: describeRule(ruleOf(row)), isDefault }
    : { ruleId: null, rule: BUILT_IN_RULE, text: describeRule(BUILT_IN_RULE), isDefault };

export async function defaultRule(db: Database | Transaction): Promise<RuleInForce> {
  const [row] = await db
    .select()
    .from(commissionRules)
    .where(isNull(commissionRules.referrerId))
    .orderBy(desc(commissionRules.id))
    .limit(1);
  return inForce(row, true);
}

export async function ruleFor(db: Database | Transaction, referrerId: string): Promise<RuleInForce> {
  const [own] = await db
    .select()
    .from(commissionRules)
    .where(eq(commissionRules.referrerId, referrerId))
    .orderBy(desc(commissionRules.id))
    .limit(1);
  if (own && own.kind !== 'default') return inForce(own, false);
  return defaultRule(db);
}

/** 'default' drops a referrer's own rule. */
type NewRule = CommissionRule | { kind: 'default' };

/** `referrerId` null: the default rule. */
export async function setRule(db: Database, referrerId: string | null, rule: NewRule, ownerId: string): Promise<void> {
  await db.insert(commissionRules).values({
    referrerId,
    kind: rule.kind,
    percentBasisPoints: rule.kind === 'percent' ? rule.percentBasisPoints : null,
    flatCentsPerSeat: rule.kind === 'flat' ? rule.flatCentsPerSeat : null,
    months: rule.kind === 'default' ? null : rule.months,
    createdBy: ownerId,
  });
}
