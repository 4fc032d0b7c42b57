/**
 * Template names, sides and addresses without the designs themselves (builtin.ts re-exports
 * them): pages that only show thumbnails import this and stay free of the SVG markup.
 */
export const TEMPLATE_SIDES = ['front', 'back'] as const;
export type TemplateSide = (typeof TEMPLATE_SIDES)[number];

export const TEMPLATE_FOLDERS = ['minimal', 'classic', 'simple', 'modern'] as const;
export type TemplateFolder = (typeof TEMPLATE_FOLDERS)[number];


export function templateThumbnailUrl(id: number, side: TemplateSide, version?: number): string {
  return `/api/template-thumbnail/${id}/${side}${version ? `?v=${version}` : ''}`;
}

export function templateSvgUrl(folder: string, side: TemplateSide, version?: number): string {
  return `/templates/svg/${folder}/${side}.svg${version ? `?v=${version}` : ''}`;
}
