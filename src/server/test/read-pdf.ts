import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** A PDF's text items (every page, in the order written), each with its font's PostScript name and place. */
export async function readPdf(bytes: Uint8Array) {
  const task = getDocument({ data: new Uint8Array(bytes), fontExtraProperties: true, verbosity: 0 });
  const pdf = await task.promise;
  const items: { text: string; font: string; x: number; y: number }[] = [];
  const sizes: number[][] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    sizes.push(page.view.slice(2));
    await page.getOperatorList(); // loads the fonts, so that their names can be read
    const content = await page.getTextContent();
    for (const item of content.items)
      if ('str' in item && item.str.trim())
        items.push({
          text: item.str,
          font: String((page.commonObjs.get(item.fontName) as { name?: string }).name ?? ''),
          x: item.transform[4] as number,
          y: item.transform[5] as number,
        });
  }
  await task.destroy();
  return { items, text: items.map((i) => i.text).join(' '), sizes, pages: sizes.length };
}
