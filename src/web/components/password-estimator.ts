import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';

/**
 * The password strength estimator (zxcvbn-ts with its common and English dictionaries). Large
 * (about 1 MB of word lists): only ever loaded with a dynamic import, by the strength hint.
 */
const factory = new ZxcvbnFactory({
  translations: en.translations,
  graphs: common.adjacencyGraphs,
  dictionary: { ...common.dictionary, ...en.dictionary },
});

export interface Strength {
  /** 0 (guessed at once) to 4 (very hard to guess) */
  score: 0 | 1 | 2 | 3 | 4;
  warning: string | null;
  suggestion: string | null;
}

export function estimate(password: string, userInputs: string[]): Strength {
  const r = factory.check(password.slice(0, 256), userInputs.filter(Boolean));
  return { score: r.score as Strength['score'], warning: r.feedback.warning || null, suggestion: r.feedback.suggestions[0] ?? null };
}
