import type { Endpoint } from './endpoint';
import * as account from './account';
import * as admin from './admin';
import * as ai from './ai';
import * as auth from './auth';
import * as backups from './backups';
import * as designs from './designs';
import * as developer from './developer';
import * as engagement from './engagement';
import * as health from './health';
import * as orders from './orders';
import * as print from './print';
import * as production from './production';
import * as profile from './profile';
import * as reviews from './reviews';
import * as settings from './settings';
import * as shopify from './shopify';
import * as site from './site';
import * as team from './team';
import * as templates from './templates';
import * as uploads from './uploads';
import * as wallet from './wallet';
import * as webhooks from './webhooks';
import * as audit from './audit';
import * as scim from './scim';
import * as ssoOwn from './sso';
import * as ssoSaml from './sso/saml';

// single sign-on: its own endpoints and SAML's (a file of their own, imported apart so the sign-in
// page, which needs only the first, loads no schema library)
const sso = { ...ssoOwn, ...ssoSaml };

/**
 * Every endpoint the server answers, by capability (one contracts file each). The server
 * registers exactly these (tested: `tests/build/endpoint-contracts.test.ts`) and the OpenAPI
 * document is generated from them. Server-side only: the web imports the one file it calls.
 */
export const CONTRACTS: Readonly<Record<string, Readonly<Record<string, Endpoint>>>> = {
  account,
  admin,
  ai,
  auth,
  backups,
  designs,
  developer,
  engagement,
  health,
  orders,
  print,
  production,
  profile,
  reviews,
  settings,
  shopify,
  site,
  team,
  templates,
  uploads,
  wallet,
  webhooks,
  audit,
  scim,
  sso,
};

/** All endpoints as one list. */
export function allEndpoints(): Endpoint[] {
  return Object.values(CONTRACTS).flatMap((m) => Object.values(m));
}
