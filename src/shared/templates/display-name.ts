/**
 * The name a customer sees for a template (issue 37: names, never internal ids such as
 * "Template #15"): its own name; for an unnamed template (or one named only by its number), a name
 * derived from its folder ("art-deco" -> "Art Deco"), else from its description's first words,
 * else "Custom design".
 */
export function templateDisplayName(t: { name?: string | null; folder?: string | null; description?: string | null }): string {
  const idLike = (s: string) => /^(template|design|card)?\s*(no\.?|#)?\s*\d+$/i.test(s);
  const name = (t.name ?? '').replace(/\s+/g, ' ').trim();
  if (name && !idLike(name)) return name.slice(0, 60);
  const folder = (t.folder ?? '')
    .replace(/[-_.]+/g, ' ')
    .replace(/\d+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (folder) return folder.replace(/\b\p{L}/gu, (c) => c.toUpperCase()).slice(0, 60);
  const words = (t.description ?? '')
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w && !/^\d+$/.test(w))
    .slice(0, 3);
  if (words.length) {
    const s = words.join(' ');
    return s.charAt(0).toUpperCase() + s.slice(1);
  }
  return 'Custom design';
}
