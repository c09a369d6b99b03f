// Model text condensed to the decision's bounds. A directive the settings routes accept (a CEO prompt of up to
// CEO_PROMPT_MAX characters, a master directive of up to MASTER_DIRECTIVE_MAX) may come back from the model longer
// than a decision holds; the round keeps its start rather than failing on it.

/**
 * `text` when it fits in `max` UTF-16 units (so in `max` characters by any count), else its start cut at the last
 * whitespace in the final fifth (or at `max - 1` when there is none, never inside a surrogate pair) and marked with
 * an ellipsis.
 */
export function condense(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (/[\ud800-\udbff]/.test(text[end - 1] ?? '')) end -= 1;
  const head = text.slice(0, end);
  const lastSpace = head.search(/\s\S*$/);
  const cut = lastSpace >= Math.floor(max * 0.8) ? head.slice(0, lastSpace) : head;
  return `${cut.trimEnd()}…`;
}
