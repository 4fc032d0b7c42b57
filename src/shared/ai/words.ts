/** "a" or "an" before a word, by its first letter (good enough for the assistant's vocabulary). */
export function article(word: string): 'a' | 'an' {
  return /^[aeiou]/i.test(word.trim()) ? 'an' : 'a';
}

/** "an innovative", "a bold" */
export function withArticle(word: string): string {
  return `${article(word)} ${word}`;
}
