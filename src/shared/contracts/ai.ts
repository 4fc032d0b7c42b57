import { defineEndpoint } from './endpoint';
import { AiBackgroundRemoveResponse, AiFeedbackCreateBody, AiFeedbackCreateResponse, AiPaletteCreateBody, AiPaletteCreateResponse, AiSuggestionCreateBody, AiSuggestionCreateResponse } from '#shared/schemas/ai';

export const postAiDesignSuggestions = defineEndpoint({
  method: 'POST',
  path: '/api/ai/design-suggestions',
  access: 'user',
  body: AiSuggestionCreateBody,
  responses: { 200: AiSuggestionCreateResponse },
});

export const postAiDesignFeedback = defineEndpoint({
  method: 'POST',
  path: '/api/ai/design-feedback',
  access: 'user',
  body: AiFeedbackCreateBody,
  responses: { 200: AiFeedbackCreateResponse },
});

export const postAiColorPalette = defineEndpoint({
  method: 'POST',
  path: '/api/ai/color-palette',
  access: 'user',
  body: AiPaletteCreateBody,
  responses: { 200: AiPaletteCreateResponse },
});

export const postPhotoroomRemoveBackground = defineEndpoint({
  method: 'POST',
  path: '/api/photoroom/remove-background',
  access: 'user',
  ownBody: { upload: { field: 'image', what: 'image whose background is removed' } },
  responses: { 200: AiBackgroundRemoveResponse },
});
