// Bounded single-line text: approval and denial reasons, repair codes, status lines (harness #8).
export const MAX_REASON_CHARS = 240;

/** Collapses whitespace to one line and truncates to `max` characters; never returns empty. */
export function singleLine(text: string, max = MAX_REASON_CHARS, fallback = "(no reason given)"): string {
  const flat = text
    .replace(/[\r\n\t\v\f\u2028\u2029]+/g, " ")
    .replace(/\s{2,}/g, " ")
    .trim();
  const value = flat.length === 0 ? fallback : flat;
  return value.length <= max ? value : value.slice(0, max - 1) + "…";
}
