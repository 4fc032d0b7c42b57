import { z } from 'zod';
import { CARD_STYLES, CARD_TYPE_IDS, DELIVERY_OPTION_IDS, QUANTITY_MAX } from '#shared/catalogue';
import { emailField, isoDate, isoDateTime, savedLinkUrl, singleLine, textDocument } from './common';
import { PROFILE_LAYOUTS, emailOrNull, fileUrlOrNull, fullNameField, phoneOrNull } from './profile';
import { LOCKABLE_FIELDS, readableOnWhite } from '#shared/team/brand';
import { ShippingAddress, withShippingAddressRule } from './orders';
import { Lead } from './engagement';
import { passwordField } from './auth';

/**
 * Teams (issue 21): a company orders and runs the cards of all its people. Every route answers
 * JSON with the same error shape as everywhere ({ message, errors }).
 */

export const TEAM_ROLES = ['owner', 'admin', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
export const TEAM_ROLE_LABELS: Record<TeamRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };
/** Roles an invitation or a role change may give (ownership moves only by transfer). */
export const ASSIGNABLE_ROLES = ['admin', 'member'] as const;

export const TEAM_LIMITS = {
  /** members and open invitations together */
  maxMembers: 5000,
  /** rows of one CSV import (and invitations of one request) */
  maxImportRows: 1000,
  importMaxBytes: 1024 * 1024,
  inviteDays: 7,
} as const;

export const TEAM_MESSAGES = {
  name: 'Team name must be 2 to 100 characters',
  noTeam: 'You are not in a team',
  alreadyInTeam: 'You already belong to a team. Leave it before creating or joining another.',
  forbidden: 'Your role in the team does not allow this',
  inviteGone: 'This invitation is no longer valid. Ask your team admin for a new one.',
  inviteOtherEmail: 'This invitation was sent to another e-mail address. Sign in with that address to accept it.',
  color: 'Choose a darker colour: white text on it must stay readable (contrast 4.5:1)',
  chooseMembers: 'Choose at least one member',
  accountExists: 'An account with this e-mail address already exists. Log in to accept the invitation.',
  nameNeeded: 'Please enter your full name',
} as const;

const textOrNull = (max: number, label: string) =>
  singleLine(max, label)
    .nullable()
    .transform((v) => (v ? v : null));
const urlOrNull = z
  .string()
  .nullable()
  .transform((v) => (v ?? '').trim())
  .pipe(z.union([z.literal(''), savedLinkUrl()]))
  .transform((v) => (v === '' ? null : v));
const teamName = z
  .string({ error: TEAM_MESSAGES.name })
  .transform((s) => s.trim())
  .refine((s) => s.length >= 2 && s.length <= 100 && !/[\u0000-\u001f\u007f]/.test(s), TEAM_MESSAGES.name);
const color = z.string({ error: TEAM_MESSAGES.color }).regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #1f2937').refine(readableOnWhite, TEAM_MESSAGES.color);

/** The company's details: the brand's company fields, and what a turned-off team card shows. */
const companyFields = {
  companyName: textOrNull(100, 'Company name').optional(),
  companyEmail: emailOrNull.optional(),
  companyPhone: phoneOrNull.optional(),
  address: textOrNull(300, 'Address').optional(),
  website: urlOrNull.optional(),
};

/** POST /api/team: the caller creates a team and becomes its owner. */
export const TeamCreateBody = z.strictObject({ name: teamName, ...companyFields });
/** PATCH /api/team: the team's name and company details (owner or admin). */
export const TeamUpdateBody = z.strictObject({ name: teamName.optional(), ...companyFields });

/** PUT /api/team/brand: the whole brand (owner or admin). */
export const TeamBrandBody = z.strictObject({
  ...companyFields,
  logoUrl: fileUrlOrNull.default(null),
  primaryColor: color,
  accentColor: color,
  profileLayout: z.enum(PROFILE_LAYOUTS, { error: 'Choose a profile layout' }).nullable().default(null),
  templateId: z.number({ error: 'Choose a card template' }).int().positive().max(100_000).nullable().default(null),
  lockedFields: z.array(z.enum(LOCKABLE_FIELDS, { error: 'Unknown field' })).max(LOCKABLE_FIELDS.length).default([]),
});

const TeamBrandView = z.strictObject({
  logoUrl: z.string().nullable(),
  primaryColor: z.string(),
  accentColor: z.string(),
  profileLayout: z.enum(PROFILE_LAYOUTS).nullable(),
  templateId: z.number().int().nullable(),
  lockedFields: z.array(z.enum(LOCKABLE_FIELDS)),
});

export const TeamInfo = z.strictObject({
  id: z.string(),
  name: z.string(),
  companyName: z.string().nullable(),
  companyEmail: z.string().nullable(),
  companyPhone: z.string().nullable(),
  address: z.string().nullable(),
  website: z.string().nullable(),
  brand: TeamBrandView,
  createdAt: isoDateTime,
});
export type TeamInfo = z.infer<typeof TeamInfo>;

/** GET /api/team: the caller's team and role (null: not in a team), and invitations waiting for them. */
export const TeamGetResponse = z.strictObject({
  team: TeamInfo.nullable(),
  role: z.enum(TEAM_ROLES).nullable(),
  memberCount: z.number().int(),
});
export type TeamView = z.infer<typeof TeamGetResponse>;

// ---- members and invitations ----

export const TeamMember = z.strictObject({
  userId: z.string(),
  fullName: z.string(),
  email: z.string(),
  jobTitle: z.string().nullable(),
  role: z.enum(TEAM_ROLES),
  profileId: z.string().nullable(),
  profileComplete: z.boolean(),
  /** the member's latest team card: none | pending | approved | rejected */
  cardStatus: z.enum(['none', 'pending', 'approved', 'rejected']),
  /** their team card code is on (scans open their page) */
  cardActive: z.boolean(),
  lastActiveAt: isoDateTime.nullable(),
  joinedAt: isoDateTime,
});
export type TeamMember = z.infer<typeof TeamMember>;

export const TeamInvite = z.strictObject({
  id: z.string(),
  email: z.string(),
  fullName: z.string().nullable(),
  jobTitle: z.string().nullable(),
  role: z.enum(ASSIGNABLE_ROLES),
  status: z.enum(['pending', 'expired']),
  sends: z.number().int(),
  expiresAt: isoDateTime,
  createdAt: isoDateTime,
});
export type TeamInvite = z.infer<typeof TeamInvite>;

/** GET /api/team/members (owner or admin; a member sees the list without e-mail addresses of others). */
export const TeamMemberListResponse = z.strictObject({
  members: z.array(TeamMember),
  invites: z.array(TeamInvite),
});
export type TeamMemberList = z.infer<typeof TeamMemberListResponse>;

export const InviteInput = z.strictObject({
  email: emailField(),
  fullName: fullNameField.nullable().optional(),
  jobTitle: textOrNull(100, 'Job title').optional(),
  phone: phoneOrNull.optional(),
  role: z.enum(ASSIGNABLE_ROLES, { error: 'Role must be admin or member' }).default('member'),
});
export type InviteInput = z.output<typeof InviteInput>;

/** POST /api/team/invites */
export const TeamInviteCreateBody = z.strictObject({
  invites: z.array(InviteInput).min(1, 'Add at least one invitation').max(TEAM_LIMITS.maxImportRows, `At most ${TEAM_LIMITS.maxImportRows} invitations at once`),
});

export const RefusedRow = z.strictObject({
  /** 1-based: the CSV's data row (after the header), or the position in `invites` */
  row: z.number().int(),
  email: z.string(),
  reason: z.string(),
});
export type RefusedRow = z.infer<typeof RefusedRow>;

/** What an invitation request or a CSV import did: every row is invited whole or refused with its reason. */
export const TeamInviteReport = z.strictObject({
  rows: z.number().int(),
  invited: z.array(TeamInvite),
  refused: z.array(RefusedRow),
});
export type TeamInviteReport = z.infer<typeof TeamInviteReport>;

export const TeamInviteIdParams = z.strictObject({ id: z.uuid({ error: 'Invitation not found' }) });
export const TeamInviteTokenParams = z.strictObject({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, TEAM_MESSAGES.inviteGone) });

/** GET /api/team/join/{token}: what the invitation page shows before accepting (public). */
export const TeamJoinInfoResponse = z.strictObject({
  teamName: z.string(),
  email: z.string(),
  /** the name the invitation was sent with (the join page does not ask for it again), or null */
  fullName: z.string().nullable(),
  role: z.enum(ASSIGNABLE_ROLES),
  invitedBy: z.string().nullable(),
  expiresAt: isoDateTime,
});
export type TeamJoinInfo = z.infer<typeof TeamJoinInfoResponse>;

/**
 * POST /api/team/join/{token}/account (issue 37, decision 37-09): a new account from the invitation.
 * The invitation already proved the address and usually names the person, so only a password is
 * asked (and the name when the invitation has none); the username is made from the address.
 */
export const TeamJoinAccountBody = z.strictObject({
  password: passwordField,
  fullName: fullNameField.optional(),
});

export const TeamMemberParams = z.strictObject({ userId: z.uuid({ error: 'Member not found' }) });
/** PATCH /api/team/members/{userId} */
export const TeamMemberUpdateBody = z.strictObject({ role: z.enum(ASSIGNABLE_ROLES, { error: 'Role must be admin or member' }) });
/** POST /api/team/transfer: the owner hands the team to another member (and becomes an admin). */
export const TeamTransferBody = z.strictObject({ userId: z.uuid({ error: 'Member not found' }) });

// ---- team cards ----

const TeamOrderFields = z.strictObject({
  members: z
    .array(
      z.strictObject({
        userId: z.uuid({ error: 'Member not found' }),
        quantity: z.number({ error: 'Quantity must be a number' }).int('Quantity must be a whole number').min(1, 'At least 1 card').max(1000, 'At most 1000 cards each'),
      }),
    )
    .min(1, TEAM_MESSAGES.chooseMembers)
    .max(TEAM_LIMITS.maxMembers, `At most ${TEAM_LIMITS.maxMembers} members per order`)
    .refine((m) => new Set(m.map((x) => x.userId)).size === m.length, 'Each member once')
    .refine((m) => m.reduce((n, x) => n + x.quantity, 0) <= QUANTITY_MAX, `At most ${QUANTITY_MAX} cards in one order`),
  cardType: z.enum(CARD_TYPE_IDS, { error: 'Please choose a card type' }),
  cardStyle: z.enum(CARD_STYLES, { error: 'Select a card style' }),
  deliveryOption: z.enum(DELIVERY_OPTION_IDS, { error: 'Select a delivery option' }),
  /** the delivery as one line (older clients); without it, the structured address's lines */
  address: singleLine(300, 'Delivery address').refine((s) => s.trim().length >= 5, 'Please enter the delivery address').optional(),
  /** where the one delivery goes (issue 35): required unless the delivery is pickup, stored as the order's shipping address */
  shippingAddress: ShippingAddress.optional(),
  specialRequests: textOrNull(500, 'Special requests').optional(),
  /** a retry with the same token answers the first order */
  clientToken: z.string().regex(/^[A-Za-z0-9_.:-]{8,100}$/, 'Invalid client token').optional(),
});
/** POST /api/team/orders: one delivery for the team's cards, with its address unless it is a pickup (issue 35). */
export const TeamOrderBody = withShippingAddressRule(TeamOrderFields);

export const TeamCard = z.strictObject({
  cardId: z.number().int(),
  userId: z.string().nullable(),
  fullName: z.string(),
  quantity: z.number().int(),
  status: z.enum(['pending', 'approved', 'rejected']),
  reason: z.string().nullable(),
  frontImageUrl: z.string().nullable(),
  backImageUrl: z.string().nullable(),
  code: z.string().nullable(),
  codeActive: z.boolean(),
});
export type TeamCard = z.infer<typeof TeamCard>;

export const TeamOrder = z.strictObject({
  orderId: z.number().int(),
  status: z.string(),
  statusPath: z.string(),
  cardType: z.string(),
  cardStyle: z.string(),
  deliveryOption: z.string(),
  quantity: z.number().int(),
  totalCents: z.number().int(),
  createdAt: isoDateTime,
  cards: z.array(TeamCard),
});
export type TeamOrder = z.infer<typeof TeamOrder>;
export const TeamOrderListResponse = z.strictObject({ orders: z.array(TeamOrder) });

// ---- analytics and leads ----

/** GET /api/team/stats?days= takes the engagement stats' query (EngagementStatsQuery: 7 to 365 days, default 30). */
const n = z.number().int().nonnegative();
const Totals = z.strictObject({ views: n, saves: n, clicks: n, leads: n, saveRate: z.number().min(0) });
export const TeamStatsResponse = z.strictObject({
  days: z.number().int(),
  totals: Totals,
  byDay: z.array(z.strictObject({ day: isoDate, views: n, saves: n, clicks: n, leads: n })),
  /** ranked by views, then saves */
  members: z.array(Totals.extend({ userId: z.string(), fullName: z.string(), profileId: z.string().nullable(), rank: z.number().int() })),
});
export type TeamStats = z.infer<typeof TeamStatsResponse>;

/** GET /api/team/leads?limit=&offset= pages like the owner's leads (LeadListQuery). */
export const TeamLead = Lead.omit({ consent: true }).extend({
  /** who collected it (also after they left the team) */
  memberName: z.string(),
  memberUserId: z.string().nullable(),
});
export type TeamLead = z.infer<typeof TeamLead>;
export const TeamLeadListResponse = z.strictObject({ total: n, leads: z.array(TeamLead) });
export type TeamLeadList = z.infer<typeof TeamLeadListResponse>;
/** GET /api/team/leads.csv: HubSpot's contact import headers, plus the member who collected the lead. */
export const TEAM_LEADS_CSV_HEADERS = ['First Name', 'Last Name', 'Email', 'Phone Number', 'Company Name', 'Job Title', 'Team Member'] as const;
export const TeamLeadsCsvResponse = textDocument('text/csv (attachment)');

