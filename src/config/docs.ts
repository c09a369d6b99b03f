// README's environment table, generated from the table of settings (npm run gen:config-docs writes it between its
// two markers; test/config-docs.test.ts fails when README's copy is stale), so the docs cannot drift from the code.
import type { Setting } from './parse.ts';
import { settingRows } from './settings.ts';

export const DOCS_BEGIN =
  '<!-- environment table: generated from src/config/settings.ts by `npm run gen:config-docs` -->';
export const DOCS_END = '<!-- end of the generated environment table -->';

/** One row of README's table: the variables it names (a setting and those documented with it), and its cells. */
export interface DocRow {
  names: string[];
  default: string;
  accepts: string;
  meaning: string;
}

/** A default as README shows it: the value in backticks, or the row's own words. */
function defaultCell(row: Setting): string | undefined {
  if (row.defaultDoc !== undefined) return row.defaultDoc;
  if (row.default === undefined) return undefined;
  const value = Array.isArray(row.default) ? row.default.join(',') : String(row.default);
  return `\`${value}\``;
}

/** README's rows: each setting not documented with another, followed by those that are. */
export function docRows(): DocRow[] {
  const rows = settingRows();
  return rows
    .filter((row) => row.docWith === undefined)
    .map((lead) => {
      const group = [lead, ...rows.filter((row) => row.docWith === lead.name)];
      const defaults = group.map(defaultCell).filter((cell) => cell !== undefined);
      const accepts = [
        ...new Set(group.map((row) => `${row.kind.accepts}${row.secret ? ' (a secret: never shown)' : ''}`)),
      ];
      const readBy = lead.readBy ? `; read by ${lead.readBy} only` : '';
      return {
        names: group.map((row) => row.name),
        default: defaults.join(', ') || 'unset',
        accepts: accepts.join('; '),
        meaning: `${lead.doc ?? ''}${readBy}`,
      };
    });
}

/** The table's Markdown, with its markers. */
export function renderEnvTable(): string {
  const pipes = (cell: string) => cell.replace(/\|/g, '\\|');
  const lines = [
    DOCS_BEGIN,
    '',
    '| variable | default | accepts | meaning |',
    '|---|---|---|---|',
    ...docRows().map(
      (r) =>
        `| ${r.names.map((n) => `\`${n}\``).join(', ')} | ${pipes(r.default)} | ${pipes(r.accepts)} | ${pipes(r.meaning)} |`,
    ),
    '',
    DOCS_END,
  ];
  return lines.join('\n');
}

/** `readme` with its generated table replaced by the table's current rendering. */
export function withEnvTable(readme: string): string {
  const begin = readme.indexOf(DOCS_BEGIN);
  const end = readme.indexOf(DOCS_END);
  if (begin < 0 || end < begin) throw new Error(`README.md has no "${DOCS_BEGIN}" ... "${DOCS_END}" section`);
  return readme.slice(0, begin) + renderEnvTable() + readme.slice(end + DOCS_END.length);
}
