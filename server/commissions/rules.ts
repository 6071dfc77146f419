/**
 * Commission rules (docs/decisions/0035): append-only versions in commission_rules. The rule an invoice
 * earns by is the newest row for its referrer when it is paid (a 'default' row sends the referrer back to the
 * default), else the newest default row (`referrerId` null), else the built-in 20 % for the whole life
 * (src/domain/commissions.ts). A change applies to invoices paid after it; each ledger entry keeps the rule it used.
 */
import { desc, eq, isNull } from 'drizzle-orm';
import { BUILT_IN_RULE, describeRule, type CommissionRule } from '../../src/domain/commissions';
import type { Database, Transaction } from '../db/client';
import { commissionRules } from '../db/schema';

type RuleRow = typeof commissionRules.$inferSelect;

/** A rule in force: its row id (null for the built-in default), the rule, and how it reads. */
interface RuleInForce {
  ruleId: number | null;
  rule: CommissionRule;
  text: string;
  /** True when the referrer has no rule of their own and the default applies. */
  isDefault: boolean;
}

/** The rule of a row that is not 'default'. */
function ruleOf(row: RuleRow): CommissionRule {
  return row.kind === 'flat'
    ? { kind: 'flat', flatCentsPerSeat: row.flatCentsPerSeat ?? 0, months: row.months }
    : { kind: 'percent', percentBasisPoints: row.percentBasisPoints ?? 0, months: row.months };
}

const inForce = (row: RuleRow | undefined, isDefault: boolean): RuleInForce =>
  row && row.kind !== 'default'
    ? { ruleId: row.id, rule: ruleOf(row), text: describeRule(ruleOf(row)), isDefault }
    : { ruleId: null, rule: BUILT_IN_RULE, text: describeRule(BUILT_IN_RULE), isDefault };

/** The default rule now. */
export async function defaultRule(db: Database | Transaction): Promise<RuleInForce> {
  const [row] = await db
    .select()
    .from(commissionRules)
    .where(isNull(commissionRules.referrerId))
    .orderBy(desc(commissionRules.id))
    .limit(1);
  return inForce(row, true);
}

/** The rule referrer `referrerId` earns by now: their own newest rule, else the default. */
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

/** A new rule version: for `referrerId` (null: the default), 'default' to drop a referrer's own rule. */
type NewRule = CommissionRule | { kind: 'default' };

/** Records `rule` as the newest version for `referrerId` (null: the default rule), set by owner `ownerId`. */
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
