import { z } from 'zod';
import { BUNDLED_FONTS } from '#shared/fonts';
import { paletteColor } from '#server/features/ai/engine/palette';
import { TEMPLATE_MODELS } from '#shared/ai/layouts';
import { composeFeedback } from '#server/features/ai/engine/feedback';
import {
  AI_TEMPLATE_IDS,
  COLOR_ROLES,
  hexColor,
  type AiTemplateId,
  type DesignFeedbackInput,
  type DesignFeedbackResponse,
  type DesignFinding,
  type DesignSuggestionsInput,
  type DesignSuggestionsResponse,
  type FontRecommendation,
} from '#shared/schemas/ai';
import type { ChatModel } from '#server/features/ai/providers/chat-model';

/**
 * Prompts for the optional chat model and the zod contracts its JSON replies must meet.
 * The model writes the words; every figure shown to the user (contrast ratios, fit, score) is
 * still computed by the built-in engine.
 */

const FAMILIES = BUNDLED_FONTS.map((f) => f.family) as [string, ...string[]];
const cleanText = (max: number) =>
  z
    .string()
    .transform((s) => s.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '').trim())
    .pipe(z.string().min(1).max(max));

export const modelSuggestionsSchema = z.object({
  colorPalette: z
    .array(z.object({ hex: hexColor, role: z.enum(COLOR_ROLES) }))
    .min(4)
    .max(8)
    .refine((cs) => cs.some((c) => c.role === 'background') && cs.some((c) => c.role === 'text'), 'palette needs a background and a text colour'),
  fontRecommendations: z
    .array(z.object({ family: z.enum(FAMILIES), use: cleanText(80), reason: cleanText(400) }))
    .min(1)
    .max(3),
  layoutSuggestions: z
    .array(
      z.object({
        templateId: z
          .union([z.number(), z.string()])
          .transform((v) => Number(v))
          .refine((n) => (AI_TEMPLATE_IDS as readonly number[]).includes(n), 'unknown template')
          .transform((n) => n as AiTemplateId),
        description: cleanText(500),
      }),
    )
    .min(1)
    .max(4),
  industryTips: z.array(cleanText(400)).min(2).max(8),
  brandingAdvice: z.array(cleanText(400)).min(2).max(8),
});

export const modelFeedbackSchema = z.object({ answer: cleanText(3000) });

const TEMPLATES_TEXT = AI_TEMPLATE_IDS.map((id) => `${id} ${TEMPLATE_MODELS[id].name}: ${TEMPLATE_MODELS[id].summary}`).join('\n');

const SUGGEST_SYSTEM = `You are the design assistant of a New York maker of premium metal business cards.
Card types: Standard Metal (black), Color Metal (full colour print), Black Anodized, Luxury Titanium; finishes Matte, Brushed, Mirror.
Fonts available (recommend only these): ${FAMILIES.join(', ')}.
Card templates (recommend only these ids):
${TEMPLATES_TEXT}
Answer with one JSON object only, no prose, of this shape:
{"colorPalette":[{"hex":"#RRGGBB","role":"primary|secondary|accent|background|surface|text"}],
 "fontRecommendations":[{"family":"<one of the fonts>","use":"<what it is for>","reason":"<why>"}],
 "layoutSuggestions":[{"templateId":15,"description":"<why this template fits>"}],
 "industryTips":["<tip>"],"brandingAdvice":["<advice>"]}
Use 5-6 palette colours including a background and a text colour with strong contrast; 2-3 fonts; 2-3 templates best first; 3-5 tips and 3-5 pieces of advice, specific to the person's industry, role and audience.`;

export function suggestionsPrompt(input: DesignSuggestionsInput): { system: string; user: string } {
  const brief = {
    companyName: input.companyName,
    industry: input.industry,
    role: input.role,
    targetAudience: input.targetAudience ?? null,
    brandPersonality: input.brandPersonality ?? null,
    existingColors: input.existingColors ?? [],
  };
  return { system: SUGGEST_SYSTEM, user: `Business card brief (JSON):\n${JSON.stringify(brief)}` };
}

export async function modelSuggestions(model: ChatModel, input: DesignSuggestionsInput): Promise<DesignSuggestionsResponse> {
  const { system, user } = suggestionsPrompt(input);
  const reply = await model.json(modelSuggestionsSchema, system, user);
  const seen = new Set<number>();
  const layouts = reply.layoutSuggestions.filter((l) => (seen.has(l.templateId) ? false : (seen.add(l.templateId), true)));
  return {
    colorPalette: reply.colorPalette.map((c) => paletteColor(c.hex, c.role)),
    fontRecommendations: reply.fontRecommendations.map(
      (f): FontRecommendation => ({
        family: f.family as FontRecommendation['family'],
        use: f.use,
        weights: BUNDLED_FONTS.find((b) => b.family === f.family)!.weights.filter((w) => w >= 400 && w <= 700),
        reason: f.reason,
      }),
    ),
    layoutSuggestions: layouts.map((l, i) => {
      const t = TEMPLATE_MODELS[l.templateId];
      return {
        templateId: t.id,
        templateName: t.name,
        title: `${i === 0 ? 'Best fit' : i === 1 ? 'Alternative' : 'Also consider'}: ${t.name}`,
        description: l.description,
        fit: Math.max(40, 100 - i * 20),
      };
    }),
    industryTips: reply.industryTips,
    brandingAdvice: reply.brandingAdvice,
    engine: 'model',
  };
}

const FEEDBACK_SYSTEM = `You are the design assistant of a maker of premium metal business cards (3.5 x 2 in).
You get a card design, measured findings from our design checker, and the customer's question.
Answer the question directly in 2-6 sentences of plain text, using the measured figures (contrast ratios, sizes, counts) exactly as given; do not invent new measurements.
Only recommend these fonts: ${FAMILIES.join(', ')}. Templates: ${AI_TEMPLATE_IDS.map((id) => `${id} ${TEMPLATE_MODELS[id].name}`).join(', ')}.
Reply with one JSON object only: {"answer":"<your answer>"}`;

export function feedbackPrompt(input: DesignFeedbackInput, findings: DesignFinding[], score: number): { system: string; user: string } {
  const payload = {
    question: input.userQuestion,
    design: input.currentDesign,
    score,
    findings: findings.map((f) => ({ severity: f.severity, topic: f.topic, title: f.title, detail: f.detail })),
  };
  return { system: FEEDBACK_SYSTEM, user: JSON.stringify(payload) };
}

export async function modelFeedback(model: ChatModel, input: DesignFeedbackInput, findings: DesignFinding[], score: number): Promise<DesignFeedbackResponse> {
  const { system, user } = feedbackPrompt(input, findings, score);
  const reply = await model.json(modelFeedbackSchema, system, user);
  return { feedback: composeFeedback(reply.answer, findings, score), answer: reply.answer, score, findings, engine: 'model' };
}
