import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Profile } from '#shared/schemas/profile';
import type { ProfileDesignSaveBodyInput } from '#shared/schemas/profile';
import type { z } from 'zod';
import type {
  SubmitForReviewInput,
  SubmitForReviewResult,
  SvgFilesInput,
  SvgFilesPreviewResponse,
  SvgFilesSaveResponse,
  SvgTemplate,
  TemplateSummary,
  TemplateVersionsResponse,
} from '#shared/schemas/templates';
import { api } from '#web/lib/api';
import { getQueryFn } from '#web/lib/query-client';

export const TEMPLATES_KEY = ['/api/templates'] as const;
export const SVG_TEMPLATES_KEY = ['/api/svg-templates'] as const;
export const PROFILE_KEY = ['/api/profile'] as const;

const FIVE_MINUTES = 5 * 60 * 1000;

/** Template list for the home page and gallery (fresh for 5 minutes). */
export function useTemplates() {
  return useQuery<TemplateSummary[]>({ queryKey: TEMPLATES_KEY, staleTime: FIVE_MINUTES });
}

/** Templates with their SVG text (design flow, manager): fresh for 5 minutes, refetched on focus and mount. */
export function useSvgTemplates() {
  return useQuery<SvgTemplate[]>({ queryKey: SVG_TEMPLATES_KEY, staleTime: FIVE_MINUTES, refetchOnWindowFocus: true, refetchOnMount: true });
}

/** The signed-in user's profile, or null when they have none (or are signed out). */
export function useMyProfile(enabled = true) {
  return useQuery<Profile | null>({ queryKey: PROFILE_KEY, queryFn: getQueryFn({ on401: 'returnNull' }), enabled });
}

export function useSaveDesignerProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileDesignSaveBodyInput) => api.put<Profile>('/api/profile', body),
    onSuccess: (profile) => qc.setQueryData(PROFILE_KEY, profile),
  });
}

export function useSubmitDesign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SubmitForReviewInput) => api.post<SubmitForReviewResult>('/api/cards/submit-for-review', body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['/api/cards'] }),
  });
}

export function useSaveSvgFiles() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SvgFilesInput) => api.post<z.infer<typeof SvgFilesSaveResponse>>('/api/svg-files', body),
    onSuccess: async () => {
      await Promise.all([qc.invalidateQueries({ queryKey: SVG_TEMPLATES_KEY }), qc.invalidateQueries({ queryKey: TEMPLATES_KEY })]);
    },
  });
}

/** The manager's check and preview of unsaved files (sample data, nothing written). */
export function usePreviewSvgFiles() {
  return useMutation({
    mutationFn: (body: SvgFilesInput) => api.post<z.infer<typeof SvgFilesPreviewResponse>>('/api/svg-files/preview', body),
  });
}

export function useTemplateVersions(templateId: number, enabled: boolean) {
  return useQuery<z.infer<typeof TemplateVersionsResponse>>({ queryKey: [`/api/svg-files/${templateId}/versions`], enabled });
}

export function useRollbackTemplate(templateId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => api.post<z.infer<typeof SvgFilesSaveResponse>>(`/api/svg-files/${templateId}/rollback`, { version }),
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: SVG_TEMPLATES_KEY }),
        qc.invalidateQueries({ queryKey: TEMPLATES_KEY }),
        qc.invalidateQueries({ queryKey: [`/api/svg-files/${templateId}/versions`] }),
      ]);
    },
  });
}
