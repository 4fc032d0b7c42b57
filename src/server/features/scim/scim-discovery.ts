import { SCIM_BASE_PATH, SCIM_SCHEMAS } from '#shared/schemas/scim';
import { notFoundScim, type Doc } from './scim-protocol';
import { MAX_PAGE } from './scim-users.service';

/** The discovery documents of RFC 7644 section 4 (ServiceProviderConfig, ResourceTypes, Schemas). */

export function serviceProviderConfig(origin: string): Doc {
  return {
    schemas: [SCIM_SCHEMAS.spc],
    documentationUri: `${origin}/api/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: "A team API token with the scim scope, created by the team's owner (Account > API tokens)",
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${origin}${SCIM_BASE_PATH}/ServiceProviderConfig` },
  };
}

function resourceTypesOf(origin: string): Doc[] {
  return [
    {
      schemas: [SCIM_SCHEMAS.resourceType],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A member of the team',
      schema: SCIM_SCHEMAS.user,
      schemaExtensions: [{ schema: SCIM_SCHEMAS.enterprise, required: false }],
      meta: { resourceType: 'ResourceType', location: `${origin}${SCIM_BASE_PATH}/ResourceTypes/User` },
    },
    {
      schemas: [SCIM_SCHEMAS.resourceType],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'A directory group; the admin group (settings) makes its members team admins',
      schema: SCIM_SCHEMAS.group,
      meta: { resourceType: 'ResourceType', location: `${origin}${SCIM_BASE_PATH}/ResourceTypes/Group` },
    },
  ];
}

type Attr = { name: string; type: string; multiValued?: boolean; required?: boolean; caseExact?: boolean; mutability?: string; uniqueness?: string; subAttributes?: Attr[]; description?: string };

const attr = (name: string, type = 'string', more: Partial<Attr> = {}): Doc => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...(more as Doc),
});

const multi = (name: string, subs: Doc[]) => attr(name, 'complex', { multiValued: true, subAttributes: subs as unknown as Attr[] });
const typed = [attr('value'), attr('display'), attr('type'), attr('primary', 'boolean')];

function schemasOf(origin: string): Doc[] {
  const loc = (id: string) => ({ resourceType: 'Schema', location: `${origin}${SCIM_BASE_PATH}/Schemas/${id}` });
  return [
    {
      schemas: [SCIM_SCHEMAS.schema],
      id: SCIM_SCHEMAS.user,
      name: 'User',
      description: 'User account',
      attributes: [
        attr('userName', 'string', { required: true, uniqueness: 'server' }),
        attr('name', 'complex', { subAttributes: [attr('formatted'), attr('familyName'), attr('givenName'), attr('middleName')] as unknown as Attr[] }),
        attr('displayName'),
        attr('title'),
        attr('externalId', 'string', { caseExact: true }),
        attr('active', 'boolean'),
        attr('locale'),
        attr('preferredLanguage'),
        multi('emails', typed),
        multi('phoneNumbers', typed),
        multi('addresses', [attr('formatted'), attr('streetAddress'), attr('locality'), attr('region'), attr('postalCode'), attr('country'), attr('type'), attr('primary', 'boolean')]),
        attr('groups', 'complex', { multiValued: true, mutability: 'readOnly', subAttributes: [attr('value'), attr('display')] as unknown as Attr[] }),
      ],
      meta: loc(SCIM_SCHEMAS.user),
    },
    {
      schemas: [SCIM_SCHEMAS.schema],
      id: SCIM_SCHEMAS.enterprise,
      name: 'EnterpriseUser',
      description: 'Enterprise user',
      attributes: [
        attr('employeeNumber'),
        attr('costCenter'),
        attr('organization'),
        attr('division'),
        attr('department'),
        attr('manager', 'complex', { subAttributes: [attr('value'), attr('displayName', 'string', { mutability: 'readOnly' })] as unknown as Attr[] }),
      ],
      meta: loc(SCIM_SCHEMAS.enterprise),
    },
    {
      schemas: [SCIM_SCHEMAS.schema],
      id: SCIM_SCHEMAS.group,
      name: 'Group',
      description: 'Group',
      attributes: [attr('displayName', 'string', { required: true }), attr('externalId', 'string', { caseExact: true }), multi('members', [attr('value', 'string', { mutability: 'immutable' }), attr('display', 'string', { mutability: 'readOnly' })])],
      meta: loc(SCIM_SCHEMAS.group),
    },
  ];
}

const list = (items: Doc[]) => ({ schemas: [SCIM_SCHEMAS.list], totalResults: items.length, startIndex: 1, itemsPerPage: items.length, Resources: items });

export const resourceTypes = (origin: string) => list(resourceTypesOf(origin));
export const schemas = (origin: string) => list(schemasOf(origin));

export function resourceType(origin: string, id: string): Doc {
  const found = resourceTypesOf(origin).find((r) => r.id === id);
  if (!found) throw notFoundScim('Resource type not found');
  return found;
}

export function schema(origin: string, id: string): Doc {
  const found = schemasOf(origin).find((s) => s.id === id);
  if (!found) throw notFoundScim('Schema not found');
  return found;
}
