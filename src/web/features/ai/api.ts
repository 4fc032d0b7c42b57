import { useMutation, useQuery } from '@tanstack/react-query';
import type { AiApplyRequest, ColorPaletteRequest, DesignFeedbackRequest, DesignSuggestionsRequest } from '#shared/schemas/ai';
import { getAiCurrentDesign, postAiApply, postAiColorPalette, postAiDesignFeedback, postAiDesignSuggestions, postPhotoroomRemoveBackground } from '#shared/contracts/ai';
import { ApiError, fieldErrors } from '#web/lib/api';
import { callEndpoint, endpointQuery, uploadToEndpoint } from '#web/lib/endpoint';
import { toast } from '#web/lib/toast';

export function useDesignSuggestions() {
  return useMutation({ mutationFn: (body: DesignSuggestionsRequest) => callEndpoint(postAiDesignSuggestions, { body }) });
}

export function useDesignFeedback() {
  return useMutation({ mutationFn: (body: DesignFeedbackRequest) => callEndpoint(postAiDesignFeedback, { body }) });
}

export function useColorPalette() {
  return useMutation({ mutationFn: (body: ColorPaletteRequest) => callEndpoint(postAiColorPalette, { body }) });
}

/** The user's current card design (latest design, else the profile's choices): the metal and fields the assistant works on. */
export function useCurrentDesign() {
  return useQuery({ ...endpointQuery(getAiCurrentDesign), staleTime: 60_000 });
}

/** "Apply to my card": the server's check of what fits the metal (a metal change only with the confirmation flag). */
export function useApplySuggestion() {
  return useMutation({ mutationFn: (body: AiApplyRequest) => callEndpoint(postAiApply, { body }) });
}

export function useRemoveBackground() {
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress?: (f: number) => void }) =>
      uploadToEndpoint(postPhotoroomRemoveBackground, file, { onProgress }),
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
