import { defineEndpoint } from './endpoint';
import { AdminCardGenerateBody, AdminCardGenerateResponse, CardGenerateBody, CardGenerateResponse, FontFileGetParams, FontFileGetResponse, SvgFileGetParams, SvgFileGetResponse, SvgFilesPreviewBody, SvgFilesPreviewResponse, SvgFilesSaveBody, SvgFilesSaveResponse, SvgTemplateListResponse, TemplateCustomizeBody, TemplateListResponse, TemplateRollbackBody, TemplateSideParams, TemplateSvgResponse, TemplateThumbnailResponse, TemplateVersionQuery, TemplateVersionsParams, TemplateVersionsResponse } from '#shared/schemas/templates';

export const getTemplates = defineEndpoint({
  method: 'GET',
  path: '/api/templates',
  summary: 'The card templates',
  access: 'public',
  responses: { 200: TemplateListResponse },
});

export const getSvgTemplates = defineEndpoint({
  method: 'GET',
  path: '/api/svg-templates',
  summary: 'The card templates with their SVG files (staff)',
  access: 'public',
  responses: { 200: SvgTemplateListResponse },
});

export const getTemplateThumbnailByIdBySide = defineEndpoint({
  method: 'GET',
  path: '/api/template-thumbnail/:id/:side',
  summary: "A template side's thumbnail",
  access: 'public',
  params: TemplateSideParams,
  query: TemplateVersionQuery,
  responses: TemplateThumbnailResponse,
});

export const getTemplatePreviewByIdBySide = defineEndpoint({
  method: 'GET',
  path: '/api/template-preview/:id/:side',
  summary: "A template side's preview image",
  access: 'public',
  params: TemplateSideParams,
  query: TemplateVersionQuery,
  responses: { 200: TemplateSvgResponse },
});

export const postTemplateCustomizeByIdBySide = defineEndpoint({
  method: 'POST',
  path: '/api/template-customize/:id/:side',
  summary: 'A template side filled with your details',
  access: 'public',
  params: TemplateSideParams,
  body: TemplateCustomizeBody,
  responses: { 200: TemplateSvgResponse },
});

export const postGenerateCard = defineEndpoint({
  method: 'POST',
  path: '/api/generate-card',
  summary: 'Render a card preview',
  access: 'user',
  body: CardGenerateBody,
  responses: { 200: CardGenerateResponse },
});

export const postAdminGenerateCard = defineEndpoint({
  method: 'POST',
  path: '/api/admin/generate-card',
  access: 'admin',
  body: AdminCardGenerateBody,
  responses: { 200: AdminCardGenerateResponse },
});

export const postSvgFiles = defineEndpoint({
  method: 'POST',
  path: '/api/svg-files',
  access: 'admin',
  body: SvgFilesSaveBody,
  responses: { 200: SvgFilesSaveResponse },
});

export const postSvgFilesPreview = defineEndpoint({
  method: 'POST',
  path: '/api/svg-files/preview',
  access: 'admin',
  body: SvgFilesPreviewBody,
  responses: { 200: SvgFilesPreviewResponse },
});

export const getSvgFilesByTemplateIdVersions = defineEndpoint({
  method: 'GET',
  path: '/api/svg-files/:templateId/versions',
  access: 'admin',
  params: TemplateVersionsParams,
  responses: { 200: TemplateVersionsResponse },
});

export const postSvgFilesByTemplateIdRollback = defineEndpoint({
  method: 'POST',
  path: '/api/svg-files/:templateId/rollback',
  access: 'admin',
  params: TemplateVersionsParams,
  body: TemplateRollbackBody,
  responses: { 200: SvgFilesSaveResponse },
});

export const getPageTemplatesSvgByFolderByFile = defineEndpoint({
  method: 'GET',
  path: '/templates/svg/:folder/:file',
  access: 'public',
  params: SvgFileGetParams,
  query: TemplateVersionQuery,
  responses: SvgFileGetResponse,
});

export const getPageFontsByFile = defineEndpoint({
  method: 'GET',
  path: '/fonts/:file',
  access: 'public',
  params: FontFileGetParams,
  responses: { 200: FontFileGetResponse },
});
