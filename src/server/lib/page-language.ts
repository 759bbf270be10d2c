/** What a page's HTML carries of its language (src/server/i18n/i18n-plugin.ts's `pageLanguage`). */
export interface PageLanguageHtml {
  /** `lang="…" dir="…"` for `<html>`. */
  htmlAttributes: string;
  /** Tags for the end of `<head>`. */
  headHtml: string;
  /** Data for the end of `<body>`. */
  bodyHtml: string;
}

/** `html` with `<html lang dir>` and the language's head tags and data (the shell, or a rendered page). */
export function withLanguage(html: string, language: PageLanguageHtml | undefined): string {
  if (!language) return html;
  return html
    .replace(/<html lang="[^"]*"/, `<html ${language.htmlAttributes}`)
    .replace('</head>', `${language.headHtml ? `  ${language.headHtml}\n  ` : ''}</head>`)
    .replace(/<\/body>(?![\s\S]*<\/body>)/, `${language.bodyHtml}</body>`);
}
