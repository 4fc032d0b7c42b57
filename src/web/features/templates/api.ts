import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SvgFilesInput } from '#shared/schemas/templates';
import { getSvgFilesByTemplateIdVersions, getSvgTemplates, getTemplates, postSvgFiles, postSvgFilesByTemplateIdRollback, postSvgFilesPreview } from '#shared/contracts/templates';
import { callEndpoint, endpointKey, endpointQuery } from '#web/lib/endpoint';

export const TEMPLATES_KEY = endpointKey(getTemplates);
export const SVG_TEMPLATES_KEY = endpointKey(getSvgTemplates);

const FIVE_MINUTES = 5 * 60 * 1000;

/** Template list for the home page and gallery (fresh for 5 minutes). */
export function useTemplates() {
  return useQuery({ ...endpointQuery(getTemplates), staleTime: FIVE_MINUTES });
}

/** Templates with their SVG text (design flow, manager): fresh for 5 minutes, refetched on focus and mount. */
export function useSvgTemplates() {
  return useQuery({ ...endpointQuery(getSvgTemplates), staleTime: FIVE_MINUTES, refetchOnWindowFocus: true, refetchOnMount: true });
}

export function useSaveSvgFiles() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SvgFilesInput) => callEndpoint(postSvgFiles, { body }),
    onSuccess: async () => {
      await Promise.all([qc.invalidateQueries({ queryKey: SVG_TEMPLATES_KEY }), qc.invalidateQueries({ queryKey: TEMPLATES_KEY })]);
    },
  });
}

/** The manager's check and preview of unsaved files (sample data, nothing written). */
export function usePreviewSvgFiles() {
  return useMutation({
    mutationFn: (body: SvgFilesInput) => callEndpoint(postSvgFilesPreview, { body }),
  });
}

export function useTemplateVersions(templateId: number, enabled: boolean) {
  return useQuery({ ...endpointQuery(getSvgFilesByTemplateIdVersions, { params: { templateId } }), enabled });
}

export function useRollbackTemplate(templateId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => callEndpoint(postSvgFilesByTemplateIdRollback, { params: { templateId }, body: { version } }),
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: SVG_TEMPLATES_KEY }),
        qc.invalidateQueries({ queryKey: TEMPLATES_KEY }),
        qc.invalidateQueries({ queryKey: endpointKey(getSvgFilesByTemplateIdVersions, { params: { templateId } }) }),
      ]);
    },
  });
}
