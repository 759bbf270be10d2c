import { PAGE_DATA_ID, scriptSafeJson } from '../../shared/page-data.js';
import { withLanguage, type PageLanguageHtml } from '../lib/page-language.js';

/** The built index.html, cut where a server-rendered page puts its head tags, its HTML and its data. */
export interface PageTemplate {
  /** The whole page: `head` (tags) replaces the shell's title and description. `dataJson` is raw JSON. */
  page(head: string, body: string, dataJson: string, language?: PageLanguageHtml): string;
}

const ROOT = '<div id="root"></div>';

/** Undefined when the file has no empty `#root` or `</head>` (then pages are rendered in the browser only). */
export function pageTemplate(indexHtml: string): PageTemplate | undefined {
  const withoutHead = indexHtml
    .replace(/<title>[\s\S]*?<\/title>\s*/, '')
    .replace(/<meta\s+name="description"[^>]*>\s*/, '')
    // A rendered page paints before the app is fetched (src/web/boot.ts fetches it then): no modulepreloads.
    .replace(/<link rel="modulepreload"[^>]*>\s*/g, '');
  const headEnd = withoutHead.indexOf('</head>');
  const root = withoutHead.indexOf(ROOT);
  if (headEnd < 0 || root < headEnd) return undefined;
  const beforeHead = withoutHead.slice(0, headEnd);
  const middle = withoutHead.slice(headEnd, root);
  const after = withoutHead.slice(root + ROOT.length);
  return {
    page: (head, body, dataJson, language) =>
      withLanguage(
        `${beforeHead}  ${head}\n  ${middle}<div id="root">${body}</div>\n    ` +
          // Data, not a script: type application/json is never run, and so needs no CSP exception.
          `<script type="application/json" id="${PAGE_DATA_ID}">${scriptSafeJson(dataJson)}</script>${after}`,
        language,
      ),
  };
}
