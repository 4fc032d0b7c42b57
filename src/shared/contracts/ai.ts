import { defineEndpoint } from './endpoint';
import { AiApplyBody, AiApplyResponse, AiBackgroundRemoveResponse, AiCurrentDesignResponse, AiFeedbackCreateBody, AiFeedbackCreateResponse, AiPaletteCreateBody, AiPaletteCreateResponse, AiSuggestionCreateBody, AiSuggestionCreateResponse } from '#shared/schemas/ai';

export const postAiDesignSuggestions = defineEndpoint({
  method: 'POST',
  path: '/api/ai/design-suggestions',
  summary: 'Suggest card designs',
  access: 'user',
  body: AiSuggestionCreateBody,
  responses: { 200: AiSuggestionCreateResponse },
});

export const postAiDesignFeedback = defineEndpoint({
  method: 'POST',
  path: '/api/ai/design-feedback',
  summary: 'Feedback on a card design',
  access: 'user',
  body: AiFeedbackCreateBody,
  responses: { 200: AiFeedbackCreateResponse },
});

export const postAiColorPalette = defineEndpoint({
  method: 'POST',
  path: '/api/ai/color-palette',
  summary: 'Suggest colour palettes for a card',
  access: 'user',
  body: AiPaletteCreateBody,
  responses: { 200: AiPaletteCreateResponse },
});

export const postPhotoroomRemoveBackground = defineEndpoint({
  method: 'POST',
  path: '/api/photoroom/remove-background',
  summary: "Remove an image's background",
  access: 'user',
  ownBody: { upload: { field: 'image', what: 'image whose background is removed' } },
  responses: { 200: AiBackgroundRemoveResponse },
});

export const postAiApply = defineEndpoint({
  method: 'POST',
  path: '/api/ai/apply',
  access: 'user',
  body: AiApplyBody,
  summary: 'Check what an AI suggestion may change on your card (never the metal or price without your confirmation)',
  responses: { 200: AiApplyResponse },
});

export const getAiCurrentDesign = defineEndpoint({
  method: 'GET',
  path: '/api/ai/current-design',
  access: 'user',
  summary: 'Your current card design for the AI assistant (latest design, else your profile)',
  responses: { 200: AiCurrentDesignResponse },
});
