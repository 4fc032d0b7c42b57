import { defineEndpoint } from './endpoint';
import { textDocument } from '#shared/schemas/common';
import { AdminAuditCsvQuery, AdminAuditQuery, AuditCsvQuery, AuditListResponse, TeamAuditQuery } from '#shared/schemas/audit';

/** The identity audit log (issue 39, decision 39-02): the team owner reads their team's, staff everything. */

export const getTeamAudit = defineEndpoint({
  method: 'GET',
  path: '/api/team/audit',
  access: 'user',
  query: TeamAuditQuery,
  summary: "The team's identity audit log (owner)",
  responses: { 200: AuditListResponse },
});

export const getTeamAuditCsv = defineEndpoint({
  method: 'GET',
  path: '/api/team/audit.csv',
  access: 'user',
  query: AuditCsvQuery,
  summary: "The team's identity audit log as CSV (owner)",
  responses: { 200: textDocument('text/csv (attachment)') },
});

export const getAdminAudit = defineEndpoint({
  method: 'GET',
  path: '/api/admin/audit',
  access: 'admin',
  query: AdminAuditQuery,
  summary: 'The identity audit log (staff)',
  responses: { 200: AuditListResponse },
});

export const getAdminAuditCsv = defineEndpoint({
  method: 'GET',
  path: '/api/admin/audit.csv',
  access: 'admin',
  query: AdminAuditCsvQuery,
  summary: 'The identity audit log as CSV (staff)',
  responses: { 200: textDocument('text/csv (attachment)') },
});
