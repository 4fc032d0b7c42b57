import { sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { queryRow, queryRows } from '#server/db/rows';
import { CSV_BOM, crmContactCells, csvCell, csvRow } from '#server/http/csv';
import { saveRate } from '#shared/schemas/engagement';
import { TEAM_LEADS_CSV_HEADERS, type TeamLead, type TeamLeadList, type TeamStats } from '#shared/schemas/team';
import { MANAGERS, requireRole } from './team.service';

const DAY_MS = 86_400_000;

function sinceDay(days: number): string {
  return new Date(Date.now() - (days - 1) * DAY_MS).toISOString().slice(0, 10);
}

/**
 * GET /api/team/stats?days= (owner or admin): views, saves, clicks, leads and save rate per member
 * and in total, by UTC day, ranked. Read from the daily rollups (one grouped scan over the team's
 * profiles and days) and the team's leads, never from raw visits.
 */
export async function teamStats(ctx: AppContext, userId: string, days: number): Promise<TeamStats> {
  const m = await requireRole(ctx, userId, MANAGERS);
  const since = sinceDay(days);
  const members = await queryRows<{ user_id: string; profile_id: string | null; full_name: string }>(
    ctx.db,
    sql`select tm.user_id, p.id as profile_id,
               coalesce(p.full_name, nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) as full_name
          from team_members tm join users u on u.id = tm.user_id left join profiles p on p.user_id = tm.user_id
         where tm.team_id = ${m.team.id}`,
  );
  const rollups = await queryRows<{ profile_id: string | null; day: string | null; kind: string; n: number }>(
    ctx.db,
    sql`select d.profile_id, d.day::text as day, d.kind, sum(d.n)::int as n
          from engagement_daily d
         where d.day >= ${since}::date
           and d.profile_id in (select p.id from team_members tm join profiles p on p.user_id = tm.user_id where tm.team_id = ${m.team.id})
         group by grouping sets ((d.profile_id, d.kind), (d.day, d.kind))`,
  );
  const leads = await queryRows<{ profile_id: string | null; day: string | null; n: number }>(
    ctx.db,
    sql`select l.profile_id, (l.created_at at time zone 'UTC')::date::text as day, count(*)::int as n
          from leads l
         where l.team_id = ${m.team.id} and l.created_at >= (${since}::date)::timestamp at time zone 'UTC'
         group by grouping sets ((l.profile_id), ((l.created_at at time zone 'UTC')::date))`,
  );

  type Counts = { views: number; saves: number; clicks: number; leads: number };
  const zero = (): Counts => ({ views: 0, saves: 0, clicks: 0, leads: 0 });
  const field = (kind: string): keyof Counts | null => (kind === 'view' ? 'views' : kind === 'save' ? 'saves' : kind === 'click' ? 'clicks' : null);
  const byProfile = new Map<string, Counts>();
  const byDay = new Map<string, Counts>();
  const bucket = (map: Map<string, Counts>, k: string) => map.get(k) ?? map.set(k, zero()).get(k)!;
  for (const r of rollups) {
    const f = field(r.kind);
    if (!f) continue;
    if (r.profile_id) bucket(byProfile, r.profile_id)[f] += Number(r.n);
    else if (r.day) bucket(byDay, r.day)[f] += Number(r.n);
  }
  for (const r of leads) {
    if (r.profile_id) bucket(byProfile, r.profile_id).leads += Number(r.n);
    else if (r.day) bucket(byDay, r.day).leads += Number(r.n);
  }

  const withRate = (c: Counts) => ({ ...c, saveRate: saveRate(c.saves, c.views) });
  const totals = zero();
  const rows = members.map((mem) => {
    const c = (mem.profile_id && byProfile.get(mem.profile_id)) || zero();
    totals.views += c.views;
    totals.saves += c.saves;
    totals.clicks += c.clicks;
    return { userId: mem.user_id, fullName: mem.full_name, profileId: mem.profile_id, ...withRate(c) };
  });
  // the team's leads include those of people who have left since
  totals.leads = [...byDay.values()].reduce((n, c) => n + c.leads, 0);
  rows.sort((a, b) => b.views - a.views || b.saves - a.saves || b.leads - a.leads || a.fullName.localeCompare(b.fullName));

  const series: TeamStats['byDay'] = [];
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(Date.now() - i * DAY_MS).toISOString().slice(0, 10);
    series.push({ day, ...(byDay.get(day) ?? zero()) });
  }
  return { days, totals: withRate(totals), byDay: series, members: rows.map((r, i) => ({ ...r, rank: i + 1 })) };
}

interface LeadRow extends Record<string, unknown> {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  note: string | null;
  created_at: Date | string;
  member_name: string | null;
  member_user_id: string | null;
}

function leadsQuery(teamId: string, limit: number, offset: number) {
  return sql`select l.id, l.name, l.email, l.phone, l.company, l.note, l.created_at,
                    p.full_name as member_name, tm.user_id as member_user_id
               from leads l
               left join profiles p on p.id = l.profile_id
               left join team_members tm on tm.user_id = p.user_id and tm.team_id = l.team_id
              where l.team_id = ${teamId}
              order by l.created_at desc, l.id desc
              limit ${limit} offset ${offset}`;
}

const toTeamLead = (r: LeadRow): TeamLead => ({
  id: Number(r.id),
  name: r.name,
  email: r.email,
  phone: r.phone,
  company: r.company,
  note: r.note,
  createdAt: new Date(r.created_at).toISOString(),
  memberName: r.member_name ?? 'A former member',
  memberUserId: r.member_user_id,
});

/** GET /api/team/leads (owner or admin): every lead collected by the team's members, newest first. */
export async function teamLeads(ctx: AppContext, userId: string, page: { limit: number; offset: number }): Promise<TeamLeadList> {
  const m = await requireRole(ctx, userId, MANAGERS);
  const [total, rows] = await Promise.all([
    queryRow<{ n: number }>(ctx.db, sql`select count(*)::int as n from leads where team_id = ${m.team.id}`),
    queryRows<LeadRow>(ctx.db, leadsQuery(m.team.id, page.limit, page.offset)),
  ]);
  return { total: Number(total?.n ?? 0), leads: rows.map(toTeamLead) };
}

/** Most leads one export holds. */
const EXPORT_MAX = 50_000;

/**
 * GET /api/team/leads.csv: HubSpot's contact import columns as they are (First Name, Last Name,
 * Email, Phone Number, Company Name, Job Title) plus the member who collected the lead. Phone
 * numbers are written as they were checked on input (digits and + ( ) - . / # * x only), without
 * the formula guard's apostrophe, which a CRM would keep as part of the number.
 */
export async function teamLeadsCsv(ctx: AppContext, userId: string): Promise<string> {
  const m = await requireRole(ctx, userId, MANAGERS);
  const rows = await queryRows<LeadRow>(ctx.db, leadsQuery(m.team.id, EXPORT_MAX, 0));
  let out = CSV_BOM + csvRow([...TEAM_LEADS_CSV_HEADERS]);
  for (const r of rows.map(toTeamLead)) {
    // the same contact cells as the owner's leads CSV (crmContactCells), then the member
    out += `${crmContactCells({ name: r.name, email: r.email, phone: r.phone, company: r.company })},${csvCell(r.memberName)}\r\n`;
  }
  return out;
}
