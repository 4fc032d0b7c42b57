/**
 * Texts and limits of the design flow and the SVG template manager (spec messages). Kept apart
 * from the zod contracts in schemas/templates.ts, which re-exports them, so the pages that only
 * need a message or a limit do not load zod.
 */

export const DESIGN_MESSAGES = {
  missingTitle: 'Missing Information',
  missing: 'Please fill in all required fields (Name, Email, Phone).',
  invalidEmailTitle: 'Invalid Email',
  invalidEmail: 'Please enter a valid email address.',
  submittedTitle: 'Card Submitted Successfully!',
  submitted: "Your card has been sent for review. We'll send you updates by email at each stage.",
  failedTitle: 'Submission Failed',
  failed: 'There was an error submitting your card. Please try again.',
  thrown: 'Failed to submit card for review',
  authRequired: 'Authentication Required',
  previewUnavailable: 'Template preview unavailable',
} as const;

export const SVG_MANAGER_MESSAGES = {
  invalidType: 'Invalid file: Please upload an SVG.',
  missing: 'Missing SVG file(s)',
  saveFailed: 'Failed to save',
  saved: 'Saved',
  savedDescription: 'SVG files written to public/templates',
  ready: (side: 'front' | 'back') => `Ready to save ${side}.svg`,
} as const;

export const SVG_FILE_MAX_BYTES = 1024 * 1024;

/** Simple address pattern of the design form ("must match a simple address pattern"). */
export const DESIGN_EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
