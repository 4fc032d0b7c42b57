import { defineEndpoint } from './endpoint';
import { MessageResponse, binaryFile, textDocument } from '#shared/schemas/common';
import { DocsAssetParams, OpenApiDocumentResponse, TokenCreateBody, TokenCreateResponse, TokenListResponse, TokenParams } from '#shared/schemas/developer';

export const getTokens = defineEndpoint({
  method: 'GET',
  path: '/api/tokens',
  access: 'user',
  summary: 'Your access tokens',
  responses: { 200: TokenListResponse },
});

export const postTokens = defineEndpoint({
  method: 'POST',
  path: '/api/tokens',
  access: 'user',
  body: TokenCreateBody,
  summary: 'Create an access token (the secret is in this answer only)',
  responses: { 201: TokenCreateResponse },
});

export const deleteTokensById = defineEndpoint({
  method: 'DELETE',
  path: '/api/tokens/:id',
  access: 'user',
  params: TokenParams,
  summary: 'Revoke an access token',
  responses: { 200: MessageResponse },
});

export const getOpenapiJson = defineEndpoint({
  method: 'GET',
  path: '/api/openapi.json',
  access: 'public',
  responses: { 200: OpenApiDocumentResponse },
});

export const getDocs = defineEndpoint({
  method: 'GET',
  path: '/api/docs',
  access: 'public',
  responses: { 200: textDocument('text/html') },
});

export const getDocsByFile = defineEndpoint({
  method: 'GET',
  path: '/api/docs/:file',
  access: 'public',
  params: DocsAssetParams,
  responses: { 200: binaryFile('text/javascript') },
});
