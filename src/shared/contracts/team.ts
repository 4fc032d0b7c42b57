import { defineEndpoint } from './endpoint';
import { MessageResponse } from '#shared/schemas/common';
import { EngagementStatsQuery, LeadListQuery } from '#shared/schemas/engagement';
import { TeamBrandBody, TeamCreateBody, TeamGetResponse, TeamInvite, TeamInviteCreateBody, TeamInviteIdParams, TeamInviteReport, TeamInviteTokenParams, TeamJoinAccountBody, TeamJoinInfoResponse, TeamLeadListResponse, TeamLeadsCsvResponse, TeamMemberListResponse, TeamMemberParams, TeamMemberUpdateBody, TeamOrder, TeamOrderBody, TeamOrderListResponse, TeamStatsResponse, TeamTransferBody, TeamUpdateBody } from '#shared/schemas/team';

export const getTeam = defineEndpoint({
  method: 'GET',
  path: '/api/team',
  access: 'user',
  scopes: ['team:read'],
  summary: 'Your team and your role',
  responses: { 200: TeamGetResponse },
});

export const postTeam = defineEndpoint({
  method: 'POST',
  path: '/api/team',
  summary: 'Create a team',
  access: 'user',
  body: TeamCreateBody,
  responses: { 201: TeamGetResponse },
});

export const patchTeam = defineEndpoint({
  method: 'PATCH',
  path: '/api/team',
  access: 'user',
  scopes: ['team:write'],
  body: TeamUpdateBody,
  summary: 'Update the team',
  responses: { 200: TeamGetResponse },
});

export const deleteTeam = defineEndpoint({
  method: 'DELETE',
  path: '/api/team',
  summary: 'Delete your team (owner)',
  access: 'user',
  responses: { 200: MessageResponse },
});

export const putTeamBrand = defineEndpoint({
  method: 'PUT',
  path: '/api/team/brand',
  access: 'user',
  scopes: ['team:write'],
  body: TeamBrandBody,
  summary: 'Save the team brand',
  responses: { 200: TeamGetResponse },
});

export const postTeamTransfer = defineEndpoint({
  method: 'POST',
  path: '/api/team/transfer',
  summary: 'Hand the team to another member (owner)',
  access: 'user',
  body: TeamTransferBody,
  responses: { 200: TeamGetResponse },
});

export const getTeamMembers = defineEndpoint({
  method: 'GET',
  path: '/api/team/members',
  access: 'user',
  scopes: ['team:read'],
  summary: 'Team members',
  responses: { 200: TeamMemberListResponse },
});

export const postTeamInvites = defineEndpoint({
  method: 'POST',
  path: '/api/team/invites',
  access: 'user',
  scopes: ['team:write'],
  body: TeamInviteCreateBody,
  summary: 'Invite people',
  responses: { 201: TeamInviteReport },
});

export const postTeamInvitesImport = defineEndpoint({
  method: 'POST',
  path: '/api/team/invites/import',
  access: 'user',
  scopes: ['team:write'],
  ownBody: { upload: { field: 'file', what: 'members CSV (a header row with an `email` column; optional name, job title, phone)' } },
  summary: 'Invite people from a CSV file',
  responses: { 200: TeamInviteReport },
});

export const postTeamInvitesByIdResend = defineEndpoint({
  method: 'POST',
  path: '/api/team/invites/:id/resend',
  access: 'user',
  scopes: ['team:write'],
  params: TeamInviteIdParams,
  summary: 'Send an invitation again',
  responses: { 200: TeamInvite },
});

export const deleteTeamInvitesById = defineEndpoint({
  method: 'DELETE',
  path: '/api/team/invites/:id',
  access: 'user',
  scopes: ['team:write'],
  params: TeamInviteIdParams,
  summary: 'Withdraw an invitation',
  responses: { 200: MessageResponse },
});

export const getTeamJoinByToken = defineEndpoint({
  method: 'GET',
  path: '/api/team/join/:token',
  summary: 'The team invitation a link is for',
  access: 'public',
  params: TeamInviteTokenParams,
  responses: { 200: TeamJoinInfoResponse },
});

export const postTeamJoinByTokenAccount = defineEndpoint({
  method: 'POST',
  path: '/api/team/join/:token/account',
  access: 'public',
  params: TeamInviteTokenParams,
  body: TeamJoinAccountBody,
  summary: 'Create your account from a team invitation and join the team',
  responses: { 201: TeamGetResponse },
});

export const postTeamInvitesByTokenAccept = defineEndpoint({
  method: 'POST',
  path: '/api/team/invites/:token/accept',
  summary: 'Accept a team invitation',
  access: 'user',
  params: TeamInviteTokenParams,
  responses: { 200: TeamGetResponse },
});

export const patchTeamMembersByUserId = defineEndpoint({
  method: 'PATCH',
  path: '/api/team/members/:userId',
  access: 'user',
  scopes: ['team:write'],
  params: TeamMemberParams,
  body: TeamMemberUpdateBody,
  summary: "Change a member's role",
  responses: { 200: TeamMemberListResponse },
});

export const deleteTeamMembersByUserId = defineEndpoint({
  method: 'DELETE',
  path: '/api/team/members/:userId',
  access: 'user',
  scopes: ['team:write'],
  params: TeamMemberParams,
  summary: 'Remove a member',
  responses: { 200: MessageResponse },
});

export const getTeamOrders = defineEndpoint({
  method: 'GET',
  path: '/api/team/orders',
  access: 'user',
  scopes: ['team:read'],
  summary: 'Team card orders',
  responses: { 200: TeamOrderListResponse },
});

export const postTeamOrders = defineEndpoint({
  method: 'POST',
  path: '/api/team/orders',
  summary: 'Order cards for team members',
  access: 'user',
  body: TeamOrderBody,
  responses: { 200: TeamOrder, 201: TeamOrder },
});

export const getTeamStats = defineEndpoint({
  method: 'GET',
  path: '/api/team/stats',
  access: 'user',
  scopes: ['team:read'],
  query: EngagementStatsQuery,
  summary: 'Team statistics',
  responses: { 200: TeamStatsResponse },
});

export const getTeamLeads = defineEndpoint({
  method: 'GET',
  path: '/api/team/leads',
  access: 'user',
  scopes: ['team:read'],
  query: LeadListQuery,
  summary: 'Team leads',
  responses: { 200: TeamLeadListResponse },
});

export const getTeamLeadsCsv = defineEndpoint({
  method: 'GET',
  path: '/api/team/leads.csv',
  access: 'user',
  scopes: ['team:read'],
  summary: 'Team leads as CSV',
  responses: { 200: TeamLeadsCsvResponse },
});
