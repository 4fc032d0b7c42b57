import { useMutation } from '@tanstack/react-query';
import type {
  ColorPaletteRequest,
  ColorPaletteResponse,
  DesignFeedbackRequest,
  DesignFeedbackResponse,
  DesignSuggestionsRequest,
  DesignSuggestionsResponse,
  RemoveBackgroundResponse,
} from '#shared/schemas/ai';
import { ApiError, api, fieldErrors, uploadFile } from '#web/lib/api';
import { toast } from '#web/lib/toast';

export function useDesignSuggestions() {
  return useMutation({ mutationFn: (body: DesignSuggestionsRequest) => api.post<DesignSuggestionsResponse>('/api/ai/design-suggestions', body) });
}

export function useDesignFeedback() {
  return useMutation({ mutationFn: (body: DesignFeedbackRequest) => api.post<DesignFeedbackResponse>('/api/ai/design-feedback', body) });
}

export function useColorPalette() {
  return useMutation({ mutationFn: (body: ColorPaletteRequest) => api.post<ColorPaletteResponse>('/api/ai/color-palette', body) });
}

export function useRemoveBackground() {
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress?: (f: number) => void }) =>
      uploadFile<RemoveBackgroundResponse>('/api/photoroom/remove-background', 'image', file, { onProgress }),
  });
}

/** The spec's rule for AI error toasts: the server's error text when present, otherwise HTTP {status}. */
export function aiErrorText(err: unknown): string {
  if (err instanceof ApiError) return err.body?.message || `HTTP ${err.status}`;
  if (err instanceof Error && err.message) return err.message;
  return 'Please try again.';
}

/** An assistant form's answer to a failed request: the server's field errors on the form and an error toast. */
export function aiFailure(title: string, setErrors: (errors: Record<string, string>) => void, describe: (err: unknown) => string = aiErrorText) {
  return (err: unknown) => {
    setErrors(fieldErrors(err));
    toast({ title, description: describe(err), variant: 'destructive' });
  };
}
