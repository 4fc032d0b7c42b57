/**
 * One rule for splitting the single name a profile or a lead stores into given and family name
 * (vCard N, the leads CSVs' First Name / Last Name); decision 36-01. The whole name always goes
 * where it is shown (vCard FN). One word: a given name only. Two words: given, family. More words:
 * the first word is the given name and all the rest the family name, so compound and particle
 * surnames stay whole ("Jan van der Berg", "María García López", "Nguyễn Thị Hương" read as written);
 * middle initials stay with the given name ("Jane Q. Public"); a spelled-out middle name sorts with the
 * family name, which loses nothing since FN keeps the full name.
 */
export function splitPersonName(full: string): { given: string; family: string } {
  const parts = full.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { given: '', family: '' };
  // middle initials ("Jane Q. Public") stay with the given name
  let g = 1;
  while (g < parts.length - 1 && /^\p{L}\.?$/u.test(parts[g])) g++;
  return { given: parts.slice(0, g).join(' '), family: parts.slice(g).join(' ') };
}
