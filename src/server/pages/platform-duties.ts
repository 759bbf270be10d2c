import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../lib/html.js';

/** The page's text when the deployment names no file (PLATFORM_DUTIES_FILE): paragraphs, a blank line apart. */
export const DEFAULT_PLATFORM_DUTIES = `Insurance and complaints

HomeCooked is a marketplace: each home kitchen on it cooks and sells its own food, under the rules of its place (a permit and certificates where they are required, checked by our operators before the kitchen is listed).

Insurance. The company running this marketplace holds general liability insurance for the marketplace itself. Each kitchen is responsible for the food it sells; where the rules of its place require insurance of the kitchen, the kitchen must hold it. Ask the operator of this site for its insurer and policy number.

How to complain. If you have a problem with an order, report it from your orders within 48 hours of delivery ("Report a problem"): choose "Made me ill" for a food-safety problem. Our operators read every report; three food-safety complaints about one kitchen are referred to its local health authority with the kitchen's record. You may also complain to the local environmental health department of the kitchen's place directly.

For anything else, write to the operator of this site.`;

/**
 * /Insurance: the platform's insurance and how to complain, as the deployment words it (a text file,
 * PLATFORM_DUTIES_FILE: its first paragraph is the title), else the default. A plain page with no script, read once at
 * start-up (a missing file stops the server, naming it).
 */
export async function platformDutiesRoutes(app: FastifyInstance): Promise<void> {
  const file = app.config.platformDutiesFile;
  const text = (file ? readFileSync(file, 'utf8') : DEFAULT_PLATFORM_DUTIES).replace(/\r\n/g, '\n').trim();
  const [title = 'Insurance and complaints', ...paragraphs] = text.split(/\n\s*\n/);
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)} | HomeCooked</title><meta name="description" content="${e(paragraphs[0] ?? title)}"></head>
<body style="margin:0;padding:24px 16px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;line-height:1.5;color:#212529">
<main style="max-width:720px;margin:0 auto">
<p><a href="/">HomeCooked</a></p>
<h1>${e(title)}</h1>
${paragraphs.map((p) => `<p style="white-space:pre-line">${e(p)}</p>`).join('\n')}
</main></body></html>`;
  app.get(
    '/Insurance',
    {
      config: {
        doc: {
          summary:
            "The platform's insurance and how to complain, as the deployment words it (PLATFORM_DUTIES_FILE)",
          tags: ['web app'],
          responses: { 200: { description: 'An HTML page', type: 'text/html' } },
        },
      },
    },
    async (_request, reply) =>
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(html),
  );
}
