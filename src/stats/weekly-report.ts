import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { clickThroughRate, formatRate } from './click-through';
import { addDays, mondayOf, utcDay } from './utc-day';

/** Accounts claimed per statement; the job loops until every due account is done. */
const BATCH = 200;

export type WeeklyReportOutcome =
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'reported'; week: string; sent: number };

type ToolWeek = {
  account_id: string;
  email: string;
  token: string;
  name: string;
  slug: string;
  views: number;
  clicks: number;
  impressions: number;
  badge_loads: number;
};

/**
 * The weekly statistics e-mail (a core verb; docs/stats.md "Weekly e-mail"): to each account that owns a live
 * tool and has not opted out, the last full week (Monday to Sunday, UTC) per tool, with an opt-out link. Each
 * account is claimed for the week by one conditional statement before its mail is sent, so a duplicate or
 * concurrent delivery of the job sends nothing twice; a mail that fails is unclaimed again and the job answers
 * an error, so QStash's retry sends only what is missing. Off unless STATS_WEEKLY_MAIL (default off locally).
 */
export async function sendWeeklyReports(deps: Deps): Promise<WeeklyReportOutcome> {
  if (!deps.config.stats.weeklyMail) return { outcome: 'skipped', reason: 'STATS_WEEKLY_MAIL is off' };
  const week = mondayOf(utcDay(deps.now()));
  const from = addDays(week, -7);
  const to = addDays(week, -1);
  let sent = 0;
  let failed = 0;
  for (;;) {
    const claimed = await claimAccounts(deps, week);
    if (claimed.length === 0) break;
    const tools = await weekOfTools(deps, claimed, from, to);
    for (const [accountId, rows] of groupByAccount(tools)) {
      try {
        await deps.mail.send(reportMail(deps.origin, rows, from, to));
        sent += 1;
      } catch (error) {
        failed += 1;
        deps.log.error('weekly statistics e-mail not sent', { accountId, err: String(error) });
        await queryRows(
          deps.db,
          sql`UPDATE stats_report_mail SET last_week = NULL WHERE account_id = ${accountId}::uuid AND last_week = ${week}::date`,
        );
      }
    }
    if (claimed.length < BATCH || failed > 0) break;
  }
  if (failed > 0) throw new Error(`${failed} weekly statistics e-mail(s) not sent; the retry sends them`);
  return { outcome: 'reported', week, sent };
}

/** Claims up to BATCH accounts with a live tool whose report for `week` is due (not opted out, not sent yet). */
async function claimAccounts(deps: Deps, week: string): Promise<string[]> {
  const rows = await queryRows<{ account_id: string }>(
    deps.db,
    sql`INSERT INTO stats_report_mail AS m (account_id, last_week)
      SELECT DISTINCT s.account_id, ${week}::date FROM sites s
      WHERE s.status = 'live' AND NOT EXISTS (SELECT 1 FROM stats_report_mail o WHERE o.account_id = s.account_id
        AND (o.opted_out_at IS NOT NULL OR o.last_week >= ${week}::date))
      LIMIT ${BATCH}
      ON CONFLICT (account_id) DO UPDATE SET last_week = EXCLUDED.last_week
        WHERE m.opted_out_at IS NULL AND (m.last_week IS NULL OR m.last_week < EXCLUDED.last_week)
      RETURNING m.account_id`,
  );
  return rows.map((r) => r.account_id);
}

/** Each claimed account's live tools with their sums over [from, to], and the account's opt-out token. */
async function weekOfTools(deps: Deps, accounts: string[], from: string, to: string): Promise<ToolWeek[]> {
  return queryRows<ToolWeek>(
    deps.db,
    sql`SELECT a.id AS account_id, a.email, m.opt_out_token::text AS token, s.name, s.slug,
        coalesce(sum(d.views), 0)::int AS views, coalesce(sum(d.clicks), 0)::int AS clicks,
        coalesce(sum(d.impressions_sponsored + d.impressions_featured + d.impressions_standard), 0)::int AS impressions,
        coalesce(sum(d.badge_loads), 0)::int AS badge_loads
      FROM accounts a JOIN stats_report_mail m ON m.account_id = a.id
      JOIN sites s ON s.account_id = a.id AND s.status = 'live'
      LEFT JOIN site_stats_daily d ON d.site_id = s.id AND d.day BETWEEN ${from}::date AND ${to}::date
      WHERE a.id IN (SELECT value::uuid FROM json_array_elements_text(${JSON.stringify(accounts)}::json))
      GROUP BY a.id, a.email, m.opt_out_token, s.id, s.name, s.slug
      ORDER BY a.id, lower(s.name)`,
  );
}

function groupByAccount(rows: ToolWeek[]): Map<string, ToolWeek[]> {
  const groups = new Map<string, ToolWeek[]>();
  for (const row of rows) groups.set(row.account_id, [...(groups.get(row.account_id) ?? []), row]);
  return groups;
}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** The e-mail of one account: one paragraph per live tool, then where to read more and how to stop it. */
export function reportMail(origin: string, tools: ToolWeek[], from: string, to: string) {
  const views = tools.reduce((sum, t) => sum + Number(t.views), 0);
  const clicks = tools.reduce((sum, t) => sum + Number(t.clicks), 0);
  const lines = tools.map((t) => {
    const rate = formatRate(
      clickThroughRate({ clicks: Number(t.clicks), impressions: Number(t.impressions), views: Number(t.views) }),
    );
    return `${t.name}\n  ${plural(Number(t.views), 'view')}, ${plural(Number(t.clicks), 'click')}, ${plural(Number(t.impressions), 'card impression')}, ${plural(Number(t.badge_loads), 'badge load')}; click-through ${rate}\n  ${origin}/tools/${t.slug}`;
  });
  const first = tools[0]!;
  return {
    to: first.email,
    subject: `Your week on tooldir: ${plural(views, 'view')}, ${plural(clicks, 'click')}`,
    text: [
      `Your listings from ${from} to ${to} (UTC days):`,
      '',
      ...lines,
      '',
      `Day by day: ${origin}/account, GET /api/v1/sites/{site_id}/stats or \`tooldir stats <site_id>\`.`,
      'Counted without cookies and without storing anything about visitors; bots are not counted.',
      '',
      `You get this e-mail once a week because you have a live tool on tooldir. Stop it: ${origin}/stats/unsubscribe/${first.token}`,
    ].join('\n'),
  };
}
