import type { AppContext } from '#server/context';
import { saveFile } from '#server/infra/files';
import { serviceUnavailable } from '#server/http/http-errors';
import { generateColorPalette } from '#server/features/ai/engine/palette';
import { generateDesignSuggestions } from '#server/features/ai/engine/suggestions';
import { analyseDesign, answerQuestion, composeFeedback } from '#server/features/ai/engine/feedback';
import type {
  ColorPaletteInput,
  ColorPaletteResponse,
  DesignFeedbackInput,
  DesignFeedbackResponse,
  DesignSuggestionsInput,
  DesignSuggestionsResponse,
  RemoveBackgroundResponse,
} from '#shared/schemas/ai';
import { createChatModel, ModelError, type ChatModel } from '#server/features/ai/providers/chat-model';
import { createPhotoroomClient, type PhotoroomClient } from '#server/features/ai/providers/photoroom';
import { modelFeedback, modelSuggestions } from './model-prompts';
import { templateLayout } from './current-design';
import { inspectAiImage, PROCESS_MAX_SIDE } from './image-intake';
import { asBuffer, runTask } from '#server/infra/worker-pool';
import sharp from 'sharp';

export interface AiProviders {
  chat: ChatModel | null;
  photoroom: PhotoroomClient | null;
}

export function createAiProviders(config: AppContext['config']): AiProviders {
  return { chat: createChatModel(config), photoroom: createPhotoroomClient(config) };
}

/** Palette from colour harmony (always the built-in engine: it is exact and instant). */
export function generatePalette(input: ColorPaletteInput): ColorPaletteResponse {
  return generateColorPalette(input);
}

/** The chat model when configured, the built-in rule base otherwise or when the model fails. */
export async function suggestDesign(ctx: AppContext, providers: AiProviders, input: DesignSuggestionsInput): Promise<DesignSuggestionsResponse> {
  if (providers.chat) {
    try {
      return await modelSuggestions(providers.chat, input);
    } catch (e) {
      logFallback(ctx, 'design-suggestions', e);
    }
  }
  return generateDesignSuggestions(input);
}

export async function reviewDesign(ctx: AppContext, providers: AiProviders, input: DesignFeedbackInput): Promise<DesignFeedbackResponse> {
  // the template's real layout (its SVG's fields and places), from the shop's templates
  const layout = await templateLayout(ctx, input.currentDesign.template);
  const { findings, score, facts } = analyseDesign(input.currentDesign, layout);
  if (providers.chat) {
    try {
      return await modelFeedback(providers.chat, input, findings, score);
    } catch (e) {
      logFallback(ctx, 'design-feedback', e);
    }
  }
  const answer = answerQuestion(input.userQuestion, findings, score, facts);
  return { feedback: composeFeedback(answer, findings, score), answer, score, findings, engine: 'built-in' };
}

function logFallback(ctx: AppContext, what: string, e: unknown) {
  const kind = e instanceof ModelError ? e.kind : 'error';
  ctx.log.warn({ what, kind, err: (e as Error)?.message }, 'AI model failed; answered with the built-in engine');
}

// ---- background removal ----------------------------------------------------------------------

/** At most one local removal runs at a time per process (it is CPU work on the main thread). */
let running: Promise<unknown> = Promise.resolve();
let waiting = 0;
const MAX_WAITING = 4;

async function serialised<T>(fn: () => Promise<T>): Promise<T> {
  if (waiting >= MAX_WAITING) throw serviceUnavailable('The image editor is busy. Please try again in a moment.');
  waiting++;
  const prev = running;
  let release!: () => void;
  running = new Promise<void>((r) => (release = r));
  try {
    await prev.catch(() => undefined);
    return await fn();
  } finally {
    waiting--;
    release();
  }
}

/** Removes a flat or near-flat background on this machine: PNG with transparency. */
export async function removeBackgroundLocally(data: Buffer): Promise<{ png: Buffer; width: number; height: number }> {
  return serialised(async () => {
    // the decode of the user's bytes, the segmentation and the encode all run in the sandbox
    // (decision 32-02): libvips on untrusted input only where a deadline can SIGKILL it
    const out = await runTask<{ png: Uint8Array; width: number; height: number }>('ai', 'removeBackground', { data, maxSide: PROCESS_MAX_SIDE }, { timeoutMs: 30_000 });
    return { png: asBuffer(out.png), width: out.width, height: out.height };
  });
}

/** PhotoRoom's cut-out, checked and re-encoded (never stored as the service sent it). */
async function removeWithPhotoroom(client: PhotoroomClient, data: Buffer): Promise<{ png: Buffer; width: number; height: number }> {
  const clean = await runTask<{ data: Uint8Array; mimeType: 'image/png' | 'image/jpeg' }>('ai', 'aiSanitizedCopy', { data, maxSide: PROCESS_MAX_SIDE }, { timeoutMs: 30_000 });
  const result = await client.removeBackground(asBuffer(clean.data), clean.mimeType);
  const meta = await inspectAiImage(result);
  if (meta.width * meta.height > PROCESS_MAX_SIDE * PROCESS_MAX_SIDE * 4) throw new Error('PhotoRoom image larger than expected');
  const { data: png, info } = await sharp(result, { limitInputPixels: PROCESS_MAX_SIDE * PROCESS_MAX_SIDE * 4 })
    .resize({ width: PROCESS_MAX_SIDE, height: PROCESS_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .ensureAlpha()
    .png({ compressionLevel: 6 })
    .toBuffer({ resolveWithObject: true });
  return { png, width: info.width, height: info.height };
}

/**
 * POST /api/photoroom/remove-background: checks the image, removes the background (PhotoRoom
 * when configured, falling back to the local algorithm on any failure), stores the PNG under
 * ai/ and records it in `files`.
 */
export async function removeImageBackground(ctx: AppContext, providers: AiProviders, userId: string, data: Buffer): Promise<RemoveBackgroundResponse> {
  await inspectAiImage(data);
  let out: { png: Buffer; width: number; height: number } | null = null;
  let engine: RemoveBackgroundResponse['engine'] = 'built-in';
  if (providers.photoroom) {
    try {
      out = await removeWithPhotoroom(providers.photoroom, data);
      engine = 'photoroom';
    } catch (e) {
      ctx.log.warn({ err: (e as Error)?.message }, 'PhotoRoom failed; removing the background locally');
    }
  }
  if (!out) out = await removeBackgroundLocally(data);
  const saved = await saveFile(ctx, {
    userId,
    kind: 'ai-background-removed',
    prefix: 'ai',
    data: out.png,
    mimeType: 'image/png',
    ext: 'png',
    width: out.width,
    height: out.height,
  });
  return { processedImageUrl: saved.url, width: out.width, height: out.height, engine };
}
